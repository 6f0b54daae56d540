import { Type } from 'typebox';
import type { App } from '../../platform/app-type.ts';
import { callerOf } from '../../platform/auth.ts';
import { errors, SpaceIdParams } from '../../platform/schemas.ts';
import { changeRequestPdfUrl, contentDisposition, openPdfDownload, sitePdfUrl, spacePdfUrl } from './service.ts';

const PdfQuery = Type.Object({
  only: Type.Optional(Type.Boolean({ description: 'Print only the page given by `page` (not its sub-pages)' })),
  page: Type.Optional(Type.String({ minLength: 1, description: 'ID of the page to print, with its sub-pages unless `only`' })),
});

const PdfUrl = Type.Object({ url: Type.String({ format: 'uri', description: 'Temporary URL of the PDF; it works for 1 hour' }) });

const ChangeRequestParams = Type.Object({ spaceId: Type.String({ minLength: 1 }), changeRequestId: Type.String({ minLength: 1 }) });
const SiteParams = Type.Object({ organizationId: Type.String({ minLength: 1 }), siteId: Type.String({ minLength: 1 }) });

/** The operations that answer a PDF's URL: a change request's content, a space's, a published site's. */
export async function pdfRoutes(app: App) {
  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/pdf',
    {
      schema: {
        operationId: 'getChangeRequestPDF',
        tags: ['change-requests'],
        summary: 'Get a URL of the content of a change request as PDF',
        params: ChangeRequestParams,
        querystring: PdfQuery,
        response: { 200: PdfUrl, ...errors(400, 401, 404) },
      },
    },
    async (request) => changeRequestPdfUrl(app.ctx, callerOf(request), request.params.spaceId, request.params.changeRequestId, request.query),
  );

  app.get(
    '/spaces/:spaceId/pdf',
    {
      schema: {
        operationId: 'getSpacePDF',
        tags: ['space-content'],
        summary: 'Get a URL of the content of a space as PDF',
        params: SpaceIdParams,
        querystring: PdfQuery,
        response: { 200: PdfUrl, ...errors(400, 401, 404) },
      },
    },
    async (request) => spacePdfUrl(app.ctx, callerOf(request), request.params.spaceId, request.query),
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/pdf',
    {
      schema: {
        operationId: 'getSitePDF',
        'x-quire-extension': true,
        tags: ['sites'],
        summary: "Get a URL of a published site's content as PDF (when the site's customization has pdf.enabled)",
        params: SiteParams,
        querystring: Type.Object({
          ...PdfQuery.properties,
          siteSpace: Type.Optional(Type.String({ minLength: 1, description: 'The site-space to print; the default one when absent' })),
        }),
        response: { 200: PdfUrl, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => sitePdfUrl(app.ctx, callerOf(request), request.params.organizationId, request.params.siteId, request.query),
  );
}

/**
 * PDF downloads, outside /v1 and without a token, like file downloads: the signed, expiring URL is the
 * permission, given to a caller who could read the content. The PDF is laid out as it streams.
 */
export async function pdfDownloadRoutes(app: App) {
  app.get('/pdf/:token', { config: { public: true }, schema: { hide: true, params: Type.Object({ token: Type.String({ maxLength: 1000 }) }) } }, async (request, reply) => {
    const pdf = await openPdfDownload(app.ctx, request.params.token);
    const seconds = Math.max(0, Math.floor((pdf.expiresAt.getTime() - app.ctx.clock.now().getTime()) / 1000));
    return reply
      .header('content-type', 'application/pdf')
      .header('cache-control', `private, max-age=${seconds}`)
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', contentDisposition(pdf.fileName))
      .send(pdf.body);
  });
}
