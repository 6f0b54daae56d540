import type { AppContext, Caller } from '../../platform/context.ts';
import { badRequest } from '../../platform/errors.ts';
import { evaluateCondition, type VisitorContext } from '../adaptive/conditions.ts';
import type { SiteTree } from '../sites/present.ts';
import { loadSite, readTree } from '../sites/service.ts';
import type { SitesTable as SiteRow } from '../../db/types.ts';
import { searchSpaces, type SearchRequest } from './service.ts';
import { isEmpty, searchTerms } from './terms.ts';

/**
 * Search in a site: which of its site-spaces a search reads (the spec's SiteSearchScope, and the deprecated
 * `mode` forms), then the spaces' search. Two callers:
 * - searchSiteContent (the API, for members): the site-spaces of the scope whose space the caller can read;
 * - the reader's JSON search (for visitors): `searchPublishedSite`, after `resolveVisitor` (sites/visitor-access.ts)
 *   allowed the visitor; it keeps only the sections and site-spaces whose adaptive condition the visitor meets.
 */
export interface SiteSearchBody extends Omit<SearchRequest, 'page' | 'limit'> {
  scope?: { mode: 'default' | 'specific' | 'all'; currentSiteSpace?: string | undefined; includedSiteSpaces?: string[] | undefined; siteSpaceIds?: string[] | undefined } | undefined;
  mode?: 'specific' | 'current' | 'all' | undefined;
  siteSpaceIds?: string[] | undefined;
  siteSpaceId?: string | undefined;
}

type Scope = { mode: 'default'; current: string[] } | { mode: 'specific'; ids: string[] } | { mode: 'all' };

/** The scope a body asks for: `scope`, or the deprecated forms the spec still accepts. */
export function scopeOf(body: SiteSearchBody): Scope {
  const s = body.scope;
  if (s) {
    if (s.mode === 'specific') {
      if (!s.siteSpaceIds || s.siteSpaceIds.length === 0) throw badRequest('body/scope/siteSpaceIds must list at least one site-space when scope/mode is "specific"');
      return { mode: 'specific', ids: s.siteSpaceIds };
    }
    if (s.mode === 'default') return { mode: 'default', current: [...(s.currentSiteSpace ? [s.currentSiteSpace] : []), ...(s.includedSiteSpaces ?? [])] };
    return { mode: 'all' };
  }
  if (body.siteSpaceIds) {
    if (body.siteSpaceIds.length === 0) throw badRequest('body/siteSpaceIds must list at least one site-space');
    return { mode: 'specific', ids: body.siteSpaceIds };
  }
  if (body.mode === 'current') {
    if (!body.siteSpaceId) throw badRequest('body/siteSpaceId is required when mode is "current"');
    return { mode: 'default', current: [body.siteSpaceId] };
  }
  if (body.mode === 'all') return { mode: 'all' };
  throw badRequest('body/scope is required: { mode: "default" | "specific" | "all" } (or the deprecated mode/siteSpaceIds)');
}

/** The site-spaces a scope names, in the site's order; a named site-space of another site is refused. */
export function siteSpacesInScope(tree: SiteTree, scope: Scope, visible: (sectionId: string | null, siteSpaceId: string) => boolean = () => true) {
  const byId = new Map(tree.siteSpaces.map((ss) => [ss.id, ss]));
  const named = scope.mode === 'specific' ? scope.ids : scope.mode === 'default' ? scope.current : [];
  const field = scope.mode === 'specific' ? 'siteSpaceIds' : 'currentSiteSpace';
  for (const id of named) if (!byId.has(id)) throw badRequest(`body/scope/${field}: no site-space ${id} in site ${tree.site.id}`);
  const candidates = tree.siteSpaces.filter((ss) => visible(ss.section_id, ss.id));
  if (scope.mode === 'all') return candidates;
  if (scope.mode === 'specific') return candidates.filter((ss) => scope.ids.includes(ss.id));
  // Default: each section's default site-space (the flagged one, else the first), plus the current ones.
  const bySection = new Map<string | null, typeof candidates>();
  for (const ss of candidates) bySection.set(ss.section_id, [...(bySection.get(ss.section_id) ?? []), ss]);
  const chosen = new Set(scope.current);
  for (const list of bySection.values()) {
    const sorted = list.slice().sort((a, b) => (a.position !== b.position ? (a.position < b.position ? -1 : 1) : a.id < b.id ? -1 : 1));
    const preferred = sorted.find((ss) => ss.is_default === 1) ?? sorted[0];
    if (preferred) chosen.add(preferred.id);
  }
  return candidates.filter((ss) => chosen.has(ss.id));
}

const listKeyOf = (siteId: string, body: SiteSearchBody) => `search:site:${siteId}:${JSON.stringify([body.query, body.scope ?? null, body.mode ?? null, body.siteSpaceIds ?? null, body.siteSpaceId ?? null])}`;

/** searchSiteContent: the site's content in the scope, as far as the calling member can read its spaces. */
export async function searchSite(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, body: SiteSearchBody, query: { page?: string | undefined; limit?: number | undefined }) {
  const { site, access } = await loadSite(ctx, caller, organizationId, siteId, 'view');
  const scope = scopeOf(body);
  const tree = await readTree(ctx.db, site);
  const inScope = siteSpacesInScope(tree, scope);
  const roles = await Promise.all(inScope.map((ss) => access.roleOn(ss.space)));
  const spaceIds = [...new Set(inScope.filter((_, i) => roles[i]).map((ss) => ss.space_id))];
  return searchSpaceList(ctx, listKeyOf(site.id, body), spaceIds, body.query, query);
}

/**
 * The reader's search: what a visitor allowed by `resolveVisitor` finds in the published site, leaving out the
 * sections and site-spaces whose adaptive condition the visitor does not meet. The reader's JSON endpoint
 * (when the reader lands) calls resolveVisitor, then this.
 */
export async function searchPublishedSite(ctx: AppContext, site: SiteRow, visitor: VisitorContext, body: SiteSearchBody, query: { page?: string | undefined; limit?: number | undefined }) {
  const scope = scopeOf(body);
  const tree = await readTree(ctx.db, site);
  const sectionCondition = new Map(tree.sections.map((s) => [s.id, s.condition]));
  const siteSpaceCondition = new Map(tree.siteSpaces.map((ss) => [ss.id, ss.condition]));
  const meets = (condition: string | null | undefined) => !condition || evaluateCondition(condition, visitor);
  const visible = (sectionId: string | null, siteSpaceId: string) => (sectionId === null || meets(sectionCondition.get(sectionId))) && meets(siteSpaceCondition.get(siteSpaceId));
  const spaceIds = [...new Set(siteSpacesInScope(tree, scope, visible).map((ss) => ss.space_id))];
  return searchSpaceList(ctx, `${listKeyOf(site.id, body)}:visitor`, spaceIds, body.query, query);
}

async function searchSpaceList(ctx: AppContext, listKey: string, spaceIds: string[], text: string, query: { page?: string | undefined; limit?: number | undefined }) {
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const terms = searchTerms(text);
  if (isEmpty(terms)) return { count: 0, items: [] };
  const after = page.after?.[0];
  return searchSpaces(ctx, { spaceIds }, terms, listKey, typeof after === 'number' && after >= 0 ? after : 0, page.limit);
}
