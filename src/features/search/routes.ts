import type { App } from '../../platform/app-type.ts';
import { callerOf } from '../../platform/auth.ts';
import { errors, listOf, OrganizationIdParams, SpaceIdParams } from '../../platform/schemas.ts';
import { ListOnlyQuery, SearchPageResult, SearchQuery, SearchSpaceResult, SiteSearchBody } from './schemas.ts';
import { SiteIdParams } from '../sites/schemas.ts';
import { searchSite } from './site-search.ts';
import { searchOrganization, searchSpace } from './service.ts';

export async function searchRoutes(app: App) {
  app.get(
    '/spaces/:spaceId/search',
    {
      schema: {
        operationId: 'searchSpaceContent',
        tags: ['space-content'],
        summary: "Search the current content of a space: pages ranked by relevance, with their matching sections",
        params: SpaceIdParams,
        querystring: SearchQuery,
        response: { 200: listOf(SearchPageResult), ...errors(400, 401, 404) },
      },
    },
    async (request) => searchSpace(app.ctx, callerOf(request), request.params.spaceId, request.query),
  );

  app.get(
    '/orgs/:organizationId/search',
    {
      schema: {
        operationId: 'searchOrganizationContent',
        tags: ['organizations'],
        summary: 'Search the spaces of an organization the caller can read',
        params: OrganizationIdParams,
        querystring: SearchQuery,
        response: { 200: listOf(SearchSpaceResult), ...errors(400, 401, 404) },
      },
    },
    async (request) => searchOrganization(app.ctx, callerOf(request), request.params.organizationId, request.query),
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/search',
    {
      schema: {
        operationId: 'searchSiteContent',
        tags: ['sites'],
        summary: "Search a site's content in a scope (default content of each section, given site-spaces, or all)",
        params: SiteIdParams,
        querystring: ListOnlyQuery,
        body: SiteSearchBody,
        response: { 200: listOf(SearchSpaceResult), ...errors(400, 401, 404) },
      },
    },
    async (request) => searchSite(app.ctx, callerOf(request), request.params.organizationId, request.params.siteId, request.body, request.query),
  );
}
