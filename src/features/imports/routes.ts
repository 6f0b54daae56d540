import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../platform/app-type.ts';
import { callerOf } from '../../platform/auth.ts';
import { errors } from '../../platform/schemas.ts';
import { apiUrl } from '../../platform/urls.ts';
import { IMPORT_SOURCES, importContent, type ImportTarget } from './service.ts';

const tags = ['content'];

const ImportContentBody = Type.Object({
  url: Type.String({ format: 'uri', maxLength: 2048, description: 'URL of the content to import: the start page of a website, or the document or archive' }),
  source: Type.Union(
    IMPORT_SOURCES.map((s) => Type.Literal(s)),
    { description: '"website" crawls the site from the URL; "markdown", "html" and "docx" import one document as a page; "zip" imports an archive of a Git Sync layout or of markdown files. The others answer 400.' },
  ),
});

const ImportContentResult = Type.Object({
  revision: Type.String({ description: 'ID of the newly created revision' }),
  importedResources: Type.Number({ description: 'Pages and images imported' }),
  totalResources: Type.Number({ description: 'Pages and images found, including those the import limits left out' }),
});

const id = Type.String({ minLength: 1 });

/** The four official import operations: into the space or a change request, at the root or into a page. */
const variants = [
  { operationId: 'importContent', path: '/spaces/:spaceId/content/import', params: { spaceId: id } },
  { operationId: 'importContentInPageById', path: '/spaces/:spaceId/content/page/:pageId/import', params: { spaceId: id, pageId: id } },
  { operationId: 'importContentInChangeRequest', path: '/spaces/:spaceId/change-requests/:changeRequestId/content/import', params: { spaceId: id, changeRequestId: id } },
  {
    operationId: 'importContentInChangeRequestPageById',
    path: '/spaces/:spaceId/change-requests/:changeRequestId/content/page/:pageId/import',
    params: { spaceId: id, changeRequestId: id, pageId: id },
  },
] as const;

function targetOf(request: FastifyRequest): ImportTarget {
  const p = request.params as Record<string, string | undefined>;
  const spaceId = p.spaceId!;
  return p.changeRequestId ? { kind: 'change-request', spaceId, changeRequestId: p.changeRequestId, pageId: p.pageId } : { kind: 'space', spaceId, pageId: p.pageId };
}

export async function importRoutes(app: App) {
  for (const v of variants) {
    app.post(
      v.path,
      {
        schema: {
          operationId: v.operationId,
          tags,
          summary: `Import a website, a document or an archive ${v.operationId.includes('ChangeRequest') ? 'into a change request' : 'into the space'}${v.operationId.endsWith('PageById') ? "'s page (the start page replaces it, the others become its sub-pages)" : ''}, as one new revision`,
          params: Type.Object(v.params),
          body: ImportContentBody,
          response: { 201: ImportContentResult, ...errors(400, 401, 403, 404, 409, 413, 422) },
        },
      },
      async (request, reply) => {
        const target = targetOf(request);
        const result = await importContent(app.ctx, callerOf(request), target, request.body);
        reply.header('location', apiUrl(app.ctx.config, `/spaces/${target.spaceId}/revisions/${result.revision}`));
        return reply.status(201).send(result);
      },
    );
  }
}
