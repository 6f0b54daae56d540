import type { TSchema } from 'typebox';
import type { App } from '../../platform/app-type.ts';
import { callerOf } from '../../platform/auth.ts';
import { errors, listOf, OrganizationIdParams, SpaceIdParams } from '../../platform/schemas.ts';
import { ListOnlyQuery, SearchPageResult, SearchQuery, SearchSpaceResult, SiteSearchBody } from './schemas.ts';
import { SiteIdParams } from '../sites/schemas.ts';
import { searchSite } from './site-search.ts';
import { searchOrganization, searchSpace } from './service.ts';

/** The schema of a search route: the spec's operation, its request parts, and a list of `item` or 400/401/404. */
function searchSchema<R extends { params: TSchema; querystring: TSchema; body?: TSchema }>(operationId: string, tag: string, summary: string, item: TSchema, request: R) {
  return { schema: { operationId, tags: [tag], summary, ...request, response: { 200: listOf(item), ...errors(400, 401, 404) } } };
}

export async function searchRoutes(app: App) {
  app.get(
    '/spaces/:spaceId/search',
    searchSchema('searchSpaceContent', 'space-content', 'Search the current content of a space: pages ranked by relevance, with their matching sections', SearchPageResult, {
      params: SpaceIdParams,
      querystring: SearchQuery,
    }),
    async (request) => searchSpace(app.ctx, callerOf(request), request.params.spaceId, request.query),
  );

  app.get(
    '/orgs/:organizationId/search',
    searchSchema('searchOrganizationContent', 'organizations', 'Search the spaces of an organization the caller can read', SearchSpaceResult, {
      params: OrganizationIdParams,
      querystring: SearchQuery,
    }),
    async (request) => searchOrganization(app.ctx, callerOf(request), request.params.organizationId, request.query),
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/search',
    searchSchema('searchSiteContent', 'sites', "Search a site's content in a scope (default content of each section, given site-spaces, or all)", SearchSpaceResult, {
      params: SiteIdParams,
      querystring: ListOnlyQuery,
      body: SiteSearchBody,
    }),
    async (request) => searchSite(app.ctx, callerOf(request), request.params.organizationId, request.params.siteId, request.body, request.query),
  );
}
