import type { App } from '../../platform/app-type.ts';
import { apiOperation, registerOperations } from '../../platform/api-operation.ts';
import { listOf, OrganizationIdParams, SpaceIdParams } from '../../platform/schemas.ts';
import { ListOnlyQuery, SearchPageResult, SearchQuery, SearchSpaceResult, SiteSearchBody } from './schemas.ts';
import { SiteIdParams } from '../sites/schemas.ts';
import { prewarmSiteSearch } from './prewarm.ts';
import { searchSite } from './site-search.ts';
import { searchOrganization, searchSpace } from './service.ts';

// Each search is tagged with the resource it searches, as in the official spec.
export async function searchRoutes(app: App) {
  registerOperations(app, ['space-content'], [
    apiOperation({
      method: 'GET',
      url: '/spaces/:spaceId/search',
      operationId: 'searchSpaceContent',
      summary: 'Search the current content of a space: pages ranked by relevance, with their matching sections',
      params: SpaceIdParams,
      querystring: SearchQuery,
      response: listOf(SearchPageResult),
      errors: [400, 401, 404],
      run: (ctx, caller, { params, query }) => searchSpace(ctx, caller, params.spaceId, query),
    }),
  ]);
  registerOperations(app, ['organizations'], [
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/search',
      operationId: 'searchOrganizationContent',
      summary: 'Search the spaces of an organization the caller can read',
      params: OrganizationIdParams,
      querystring: SearchQuery,
      response: listOf(SearchSpaceResult),
      errors: [400, 401, 404],
      run: (ctx, caller, { params, query }) => searchOrganization(ctx, caller, params.organizationId, query),
    }),
  ]);
  registerOperations(app, ['sites'], [
    apiOperation({
      method: 'POST',
      url: '/orgs/:organizationId/sites/:siteId/search',
      operationId: 'searchSiteContent',
      summary: "Search a site's content in a scope (default content of each section, given site-spaces, or all)",
      params: SiteIdParams,
      querystring: ListOnlyQuery,
      body: SiteSearchBody,
      response: listOf(SearchSpaceResult),
      errors: [400, 401, 404],
      run: (ctx, caller, { params, query, body }) => searchSite(ctx, caller, params.organizationId, params.siteId, body, query),
    }),
    apiOperation({
      method: 'POST',
      url: '/orgs/:organizationId/sites/:siteId/search/prewarm',
      operationId: 'prewarmSiteSearch',
      summary: "Warm a site's search before its first request: its spaces' page trees loaded, pages not yet indexed indexed",
      params: SiteIdParams,
      status: 204,
      errors: [401, 404],
      run: (ctx, caller, { params }) => prewarmSiteSearch(ctx, caller, params.organizationId, params.siteId),
    }),
  ]);
}
