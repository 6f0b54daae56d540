import { Type } from 'typebox';
import type { App } from '../../platform/app-type.ts';
import { apiOperation, registerOperations } from '../../platform/api-operation.ts';
import { callerOf } from '../../platform/auth.ts';
import { apiUrl } from '../../platform/urls.ts';
import { errors, listOf, ListQuery } from '../../platform/schemas.ts';
import { bulkUpsertSiteRedirects, createSiteRedirect, deleteSiteRedirectById, listRedirectsOfSite, siteRedirectBySource, updateSiteRedirectById } from './redirects.ts';
import { SiteIdParams } from './schemas.ts';

/* The official site-redirect operations (redirects.ts), with the official spec's shapes. */

// The official SiteRedirectSourcePath: `/` then unreserved or percent-encoded characters, by segments; it may
// end in a wildcard (`/old/*`, `/old*`).
const SourcePath = Type.String({
  maxLength: 512,
  pattern: '^\\/(?!\\*)(?!.*\\*.+)(?:[A-Za-z0-9\\-._~+]|%[0-9A-Fa-f]{2})+(?:\\/(?:[A-Za-z0-9\\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\\/\\*|\\*)?$',
  description: 'The path to redirect from, relative to the site URL; a final `*` stands for whatever follows',
});
const Id = Type.String({ minLength: 1, maxLength: 100 });
const Destination = Type.Union([
  Type.Object({ kind: Type.Literal('site-section'), siteSectionId: Id }),
  Type.Object({ kind: Type.Literal('site-space'), siteSpaceId: Id }),
  Type.Object({ kind: Type.Literal('site-page'), siteSpaceId: Id, pageId: Id }),
  Type.Object({ kind: Type.Literal('external'), url: Type.String({ minLength: 1, maxLength: 2048 }) }),
]);
const InputDestination = Type.Union([
  ...Destination.anyOf,
  Type.Object({ kind: Type.Literal('path'), spaceId: Id, path: Type.String({ maxLength: 1024, description: 'Path of the page in the space' }) }),
]);
const SiteRedirect = Type.Object(
  {
    object: Type.Literal('site-redirect'),
    id: Type.String(),
    source: Type.String(),
    draft: Type.Boolean({ description: 'A draft is kept, not applied, until published' }),
    captureWildcard: Type.Boolean({ description: 'The path matched by the wildcard of the source is appended to the destination URL' }),
    permanent: Type.Boolean({ description: 'Served as 308 for public live traffic, 307 elsewhere (otherwise 302)' }),
    destination: Destination,
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { $id: 'SiteRedirect' },
);
const SiteRedirectIdParams = Type.Object({ ...SiteIdParams.properties, siteRedirectId: Type.String({ minLength: 1 }) });
const Options = {
  captureWildcard: Type.Optional(Type.Boolean()),
  draft: Type.Optional(Type.Boolean()),
  permanent: Type.Optional(Type.Boolean()),
};
const CreateBody = Type.Object({ source: SourcePath, destination: InputDestination, ...Options });
const UpdateBody = Type.Object({ source: Type.Optional(SourcePath), destination: Type.Optional(Destination), ...Options }, { minProperties: 1 });
const ListRedirectsQuery = Type.Object({
  ...ListQuery.properties,
  search: Type.Optional(Type.String({ maxLength: 512, description: 'Search for a redirect by path' })),
  draft: Type.Optional(Type.Boolean({ default: false, description: 'Draft redirects rather than live ones' })),
});
const BySourceQuery = Type.Object({ source: SourcePath, shareKey: Type.Optional(Type.String({ maxLength: 200 })) });
const BulkItem = Type.Union([
  Type.Object({ source: SourcePath, intent: Type.Literal('publish', { description: 'Publish the draft redirect from this source, replacing the live one' }) }),
  Type.Object({
    source: SourcePath,
    intent: Type.Optional(Type.Union([Type.Literal('live'), Type.Literal('draft')], { description: 'Which redirect of the source the item writes' })),
    captureWildcard: Type.Optional(Type.Boolean()),
    permanent: Type.Optional(Type.Boolean()),
    destination: Type.Union([InputDestination, Type.Null()], { description: 'null deletes the redirect' }),
  }),
]);
const BulkBody = Type.Object({ redirects: Type.Array(BulkItem, { minItems: 1, maxItems: 500 }) });
const Source = Type.String();
const BulkResults = Type.Object({
  results: Type.Array(
    Type.Union([
      Type.Object({ status: Type.Union([Type.Literal('created'), Type.Literal('updated'), Type.Literal('published')]), source: Source, draft: Type.Boolean(), id: Type.String() }),
      Type.Object({ status: Type.Literal('deleted'), source: Source, draft: Type.Boolean() }),
    ]),
  ),
});

const SITE = '/orgs/:organizationId/sites/:siteId';
const tags = ['sites'];

export async function siteRedirectRoutes(app: App) {
  const ctx = app.ctx;

  app.get(`${SITE}/redirects`, {
    schema: { operationId: 'listSiteRedirects', tags, summary: 'List the redirects of a site', params: SiteIdParams, querystring: ListRedirectsQuery, response: { 200: listOf(SiteRedirect), ...errors(400, 401, 404) } },
  }, async (req) => listRedirectsOfSite(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.query));

  registerOperations(app, tags, [apiOperation({
    method: 'POST', url: `${SITE}/redirects`, operationId: 'createSiteRedirect', summary: 'Create a redirect in a site',
    params: SiteIdParams, body: CreateBody, status: 201, response: SiteRedirect, errors: [400, 401, 403, 404, 409],
    run: (ctx, caller, { params, body }) => createSiteRedirect(ctx, caller, params.organizationId, params.siteId, body),
    headers: (redirect, { params }) => ({ location: apiUrl(ctx.config, `/orgs/${params.organizationId}/sites/${params.siteId}/redirects/${redirect.id}`) }),
  }), apiOperation({
    method: 'PUT', url: `${SITE}/redirects`, operationId: 'bulkUpsertSiteRedirects', summary: 'Create, update, delete or publish redirects of a site, all or none',
    params: SiteIdParams, body: BulkBody, response: BulkResults, errors: [400, 401, 403, 404, 409],
    run: (ctx, caller, { params, body }) => bulkUpsertSiteRedirects(ctx, caller, params.organizationId, params.siteId, body.redirects),
  })]);

  app.get(`${SITE}/redirect`, {
    schema: {
      operationId: 'getSiteRedirectBySource', tags, summary: 'The redirect of a site from a path, and the URL it sends to',
      params: SiteIdParams, querystring: BySourceQuery,
      response: { 200: Type.Object({ redirect: SiteRedirect, target: Type.String({ description: 'URL of the destination of the redirect' }) }), ...errors(400, 401, 404) },
    },
  }, async (req) => siteRedirectBySource(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.query.source));

  app.patch(`${SITE}/redirects/:siteRedirectId`, {
    schema: { operationId: 'updateSiteRedirectById', tags, summary: 'Change the source or destination of a redirect', params: SiteRedirectIdParams, body: UpdateBody, response: { 200: SiteRedirect, ...errors(400, 401, 403, 404, 409) } },
  }, async (req) => updateSiteRedirectById(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.params.siteRedirectId, req.body));

  app.delete(`${SITE}/redirects/:siteRedirectId`, {
    schema: {
      operationId: 'deleteSiteRedirectById', tags, summary: 'Delete a redirect (205 when deleted, 204 when there was none)', params: SiteRedirectIdParams,
      response: { 204: Type.Null({ description: 'Site redirect did not exist' }), 205: Type.Null({ description: 'Site redirect deleted' }), ...errors(401, 403) },
    },
  }, async (req, reply) => {
    const deleted = await deleteSiteRedirectById(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.params.siteRedirectId);
    return reply.status(deleted ? 205 : 204).send(null);
  });
}
