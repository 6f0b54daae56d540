import type { App } from '../../platform/app-type.ts';
import { apiOperation, registerOperations } from '../../platform/api-operation.ts';
import { ContentByUrl, ContentByUrlQuery, PublishedContentByUrlQuery, PublishedSiteContentLookup, ResolvePublishedContentBody } from './schemas.ts';
import { resolveContentUrl } from './content-by-url.ts';
import { resolvePublishedUrl } from './service.ts';

const tags = ['urls'];

/** What a URL of this server names: content of the members' app, or a published site's page for a visitor. */
export async function urlRoutes(app: App) {
  registerOperations(app, tags, [
    apiOperation({
      method: 'GET',
      url: '/urls/content',
      operationId: 'getContentByUrl',
      summary: 'Resolve a URL of the app or of a published site to the collection, or the space, change request and page, it names',
      querystring: ContentByUrlQuery,
      response: ContentByUrl,
      errors: [400, 401, 404],
      run: (ctx, caller, { query }) => resolveContentUrl(ctx, caller, query.url),
    }),
    apiOperation({
      method: 'GET',
      url: '/urls/published',
      operationId: 'getPublishedContentByUrl',
      summary: 'Resolve a URL of a published site for a visitor (deprecated: resolvePublishedContentByUrl)',
      documentation: { deprecated: true },
      querystring: PublishedContentByUrlQuery,
      response: PublishedSiteContentLookup,
      errors: [400, 401, 404],
      run: (ctx, caller, { query }) =>
        resolvePublishedUrl(ctx, caller, { url: query.url, field: 'querystring/url', visitorToken: query.visitorAuthToken, redirectOnError: query.redirectOnError }),
    }),
    apiOperation({
      method: 'POST',
      url: '/urls/published',
      operationId: 'resolvePublishedContentByUrl',
      summary: 'Resolve a URL of a published site for a visitor: its site, section, variant and space, and a read token for their content',
      body: ResolvePublishedContentBody,
      response: PublishedSiteContentLookup,
      errors: [400, 401, 404],
      run: (ctx, caller, { body }) =>
        resolvePublishedUrl(ctx, caller, {
          url: body.url,
          field: 'body/url',
          visitorToken: body.visitor?.jwtToken,
          unsignedClaims: body.visitor?.unsignedClaims,
          redirectOnError: body.redirectOnError,
        }),
    }),
  ]);
}
