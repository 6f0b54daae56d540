import type { AppContext, Caller } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import type { ListEnvelope } from '../../platform/pagination.ts';
import { OrgAccess } from '../access/service.ts';
import { mainPagePlaces } from '../content/revisions.ts';
import { assertOrganizationVisible } from '../organizations/policy.ts';
import { findOrganization } from '../organizations/queries.ts';
import { findSpace, spaceIdsOf } from '../spaces/queries.ts';
import { loadSpace } from '../spaces/service.ts';
import { presentPageResult } from './present.ts';
import { matchingPages, matchingSections, matchingSpaces, openingSections, type SearchScope } from './store.ts';
import { isEmpty, searchTerms, withPrefixStems, type SearchTerms } from './terms.ts';

export interface SearchRequest {
  query: string;
  page?: string | undefined;
  limit?: number | undefined;
}

/** Pages of results shown per space in an organization-wide or site search. */
const PAGES_PER_SPACE = 10;

/**
 * searchSpaceContent: pages of the space's current revision matching every word of the query (the last one as a
 * prefix), best first. Results are ranked, not sorted by a column, so the cursor is a position in the ranking,
 * signed together with the query: a cursor of another search is refused.
 */
export async function searchSpace(ctx: AppContext, caller: Caller, spaceId: string, request: SearchRequest) {
  const { space } = await loadSpace(ctx, caller, spaceId);
  const listKey = `search:space:${space.id}:${request.query}`;
  const page = ctx.cursors.open(listKey, request, ctx.config.defaultPageSize);
  const offset = offsetOf(page.after);
  let terms = searchTerms(request.query);
  if (isEmpty(terms)) return { count: 0, items: [] };
  let { hits, count } = await matchingPages(ctx.db, { spaceIds: [space.id] }, terms, offset, page.limit);
  const retry = count === 0 ? withPrefixStems(terms) : undefined;
  if (retry) ({ hits, count } = await matchingPages(ctx.db, { spaceIds: [space.id] }, (terms = retry), offset, page.limit));
  const items = await presentPages(ctx, space.id, hits.map((h) => h.page_id), terms);
  return envelope(ctx, listKey, offset, page.limit, count, items);
}

/** searchOrganizationContent: the spaces the caller can read with matching pages, the space of the best page first. */
export async function searchOrganization(ctx: AppContext, caller: Caller, organizationId: string, request: SearchRequest) {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertOrganizationVisible(access);
  if (!(await findOrganization(ctx.db, organizationId))) throw notFound(`No organization ${organizationId}`);
  const listKey = `search:org:${organizationId}:${request.query}`;
  const page = ctx.cursors.open(listKey, request, ctx.config.defaultPageSize);
  const terms = searchTerms(request.query);
  if (isEmpty(terms)) return { count: 0, items: [] };
  const spaceIds = await spaceIdsOf(ctx.db, { organizationId, scope: await access.readableScope() });
  return searchSpaces(ctx, { spaceIds }, terms, listKey, offsetOf(page.after), page.limit);
}

/** A page's published URL in a site's search; undefined when it has none (an unpublished site). */
export type PublishedUrl = (spaceId: string, pageId: string) => string | undefined;

/** Spaces with their best matching pages, for an organization's or a site's search. */
export async function searchSpaces(ctx: AppContext, scope: SearchScope, typed: SearchTerms, listKey: string, offset: number, limit: number, published?: PublishedUrl) {
  let terms = typed;
  let { spaceIds, count } = await matchingSpaces(ctx.db, scope, terms, offset, limit);
  const retry = count === 0 ? withPrefixStems(terms) : undefined;
  if (retry) ({ spaceIds, count } = await matchingSpaces(ctx.db, scope, (terms = retry), offset, limit));
  const items = await Promise.all(
    spaceIds.map(async (spaceId) => {
      const [space, { hits }] = await Promise.all([findSpace(ctx.db, spaceId), matchingPages(ctx.db, { spaceIds: [spaceId], excludedPages: scope.excludedPages }, terms, 0, PAGES_PER_SPACE)]);
      return { id: spaceId, title: space?.title ?? '', pages: await presentPages(ctx, spaceId, hits.map((h) => h.page_id), terms, published) };
    }),
  );
  return envelope(ctx, listKey, offset, limit, count, items);
}

async function presentPages(ctx: AppContext, spaceId: string, pageIds: string[], terms: SearchTerms, published?: PublishedUrl) {
  const [places, matched] = await Promise.all([
    mainPagePlaces(ctx.db, spaceId, pageIds),
    matchingSections(ctx.db, pageIds.map((page_id) => ({ space_id: spaceId, page_id })), terms),
  ]);
  // A page whose words are spread over several sections (none holds them all) shows its opening.
  const spread = pageIds.filter((id) => !matched.some((s) => s.page_id === id));
  const sections = [...matched, ...(await openingSections(ctx.db, spread.map((page_id) => ({ space_id: spaceId, page_id }))))];
  return pageIds.flatMap((pageId) => {
    const place = places.get(pageId);
    return place ? [presentPageResult(ctx.config, spaceId, pageId, place, sections.filter((s) => s.page_id === pageId), published?.(spaceId, pageId))] : [];
  });
}

function offsetOf(after: readonly (string | number)[] | undefined): number {
  const value = after?.[0];
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}

function envelope<T>(ctx: AppContext, listKey: string, offset: number, limit: number, count: number, items: T[]): ListEnvelope<T> {
  const result: ListEnvelope<T> = { count, items };
  if (offset + limit < count) result.next = { page: ctx.cursors.encode(listKey, [offset + limit]) };
  return result;
}
