import type { AppContext, Caller } from '../../platform/context.ts';
import { badRequest } from '../../platform/errors.ts';
import { evaluateCondition, type VisitorContext } from '../adaptive/conditions.ts';
import { readPublishedContent } from '../content/service.ts';
import type { PageNode } from '../content/tree.ts';
import { firstPage, listedTree, pageUrl, visibleTree, type Condition } from '../reader/site-view.ts';
import { presentTree, sectionsOf, type SiteTree } from '../sites/present.ts';
import { loadSite, readTree } from '../sites/service.ts';
import type { SitesTable as SiteRow } from '../../db/types.ts';
import { searchSpaces, type SearchRequest } from './service.ts';
import type { PageHit, SearchScope } from './store.ts';
import { isEmpty, searchTerms } from './terms.ts';

/**
 * Search in a site: which of its site-spaces a search reads (the spec's SiteSearchScope, and the deprecated
 * `mode` forms), then the spaces' search. Two callers:
 * - searchSiteContent (the API, for members): the site-spaces of the scope whose space the caller can read;
 * - the reader's JSON search (for visitors): `searchPublishedSite`, after `resolveVisitor` (sites/visitor-access.ts)
 *   allowed the visitor; it keeps only the sections and site-spaces whose adaptive condition the visitor meets.
 */
export interface SiteSearchBody extends Omit<SearchRequest, 'page' | 'limit'> {
  scope?:
    | { mode: 'default' | 'specific' | 'all'; currentSiteSpace?: string | undefined; includedSiteSpaces?: string[] | undefined; siteSpaceIds?: string[] | undefined; restrictTo?: 'currentSiteSpace' | 'otherSiteSpaces' | undefined }
    | undefined;
  mode?: 'specific' | 'current' | 'all' | undefined;
  siteSpaceIds?: string[] | undefined;
  siteSpaceId?: string | undefined;
}

export type Scope = { mode: 'default'; current: string[]; restrictTo?: 'currentSiteSpace' | 'otherSiteSpaces' } | { mode: 'specific'; ids: string[] } | { mode: 'all' };

/** The scope a body asks for: `scope`, or the deprecated forms the spec still accepts. */
export function scopeOf(body: SiteSearchBody): Scope {
  const s = body.scope;
  if (s) {
    if (s.mode === 'specific') {
      if (!s.siteSpaceIds || s.siteSpaceIds.length === 0) throw badRequest('body/scope/siteSpaceIds must list at least one site-space when scope/mode is "specific"');
      return { mode: 'specific', ids: s.siteSpaceIds };
    }
    if (s.mode === 'default') {
      if (s.restrictTo && !s.currentSiteSpace) throw badRequest('body/scope/currentSiteSpace is required with scope/restrictTo');
      return { mode: 'default', current: [...(s.currentSiteSpace ? [s.currentSiteSpace] : []), ...(s.includedSiteSpaces ?? [])], ...(s.restrictTo ? { restrictTo: s.restrictTo } : {}) };
    }
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
  const current = scope.current[0];
  // restrictTo narrows the default scope to the current site-space, or to the others (the spec's ask scopes).
  if (scope.restrictTo === 'currentSiteSpace') return candidates.filter((ss) => ss.id === current);
  if (scope.restrictTo === 'otherSiteSpaces') return candidates.filter((ss) => chosen.has(ss.id) && ss.id !== current);
  return candidates.filter((ss) => chosen.has(ss.id));
}

const listKeyOf = (siteId: string, body: SiteSearchBody) => `search:site:${siteId}:${JSON.stringify([body.query, body.scope ?? null, body.mode ?? null, body.siteSpaceIds ?? null, body.siteSpaceId ?? null])}`;

/** searchSiteContent: the site's content in the scope, as far as the calling member can read its spaces. */
export async function searchSite(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, body: SiteSearchBody, query: { page?: string | undefined; limit?: number | undefined }) {
  const { site, views } = await memberViews(ctx, caller, organizationId, siteId, scopeOf(body));
  return searchSiteSpaces(ctx, listKeyOf(site.id, body), views, body.query, query);
}

/** The spaces of a site's scope that a member reads, as published (hidden pages left out), every variant and page whatever its condition. */
export async function memberViews(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, scope: Scope) {
  const { site, access } = await loadSite(ctx, caller, organizationId, siteId, 'view');
  const tree = await readTree(ctx.db, site);
  const inScope = siteSpacesInScope(tree, scope);
  const roles = await Promise.all(inScope.map((ss) => access.roleOn(ss.space)));
  const readable = inScope.filter((_, i) => roles[i]);
  const published = tree.site.published === 1 ? siteSpaceUrls(ctx, tree) : new Map<string, string>();
  return { site, views: await publishedViews(ctx, readable, published, () => true) };
}

/**
 * The reader's search: what a visitor allowed by `resolveVisitor` finds in the published site, leaving out the
 * sections, site-spaces and pages whose adaptive condition the visitor does not meet, and hidden pages (reachable
 * by their URL, not listed: the reader's sidebar rule). Each result carries its page's published URL.
 */
export async function searchPublishedSite(ctx: AppContext, site: SiteRow, visitor: VisitorContext, body: SiteSearchBody, query: { page?: string | undefined; limit?: number | undefined }) {
  const views = await visitorViews(ctx, site, visitor, scopeOf(body));
  return searchSiteSpaces(ctx, `${listKeyOf(site.id, body)}:visitor`, views, body.query, query);
}

/** The spaces of a site's scope as a visitor let in meets them: what their conditions hide is left out. */
export async function visitorViews(ctx: AppContext, site: SiteRow, visitor: VisitorContext, scope: Scope): Promise<PublishedView[]> {
  const tree = await readTree(ctx.db, site);
  const sectionCondition = new Map(tree.sections.map((s) => [s.id, s.condition]));
  const siteSpaceCondition = new Map(tree.siteSpaces.map((ss) => [ss.id, ss.condition]));
  const meets = (condition: string | null | undefined) => !condition || evaluateCondition(condition, visitor);
  const visible = (sectionId: string | null, siteSpaceId: string) => (sectionId === null || meets(sectionCondition.get(sectionId))) && meets(siteSpaceCondition.get(siteSpaceId));
  // The visitor was let in: the site's URLs are given whether or not it is listed as published (a share link).
  const urls = siteSpaceUrls(ctx, { ...tree, site: { ...tree.site, published: 1 } });
  return publishedViews(ctx, siteSpacesInScope(tree, scope, visible), urls, (condition) => meets(condition));
}

/** What a search or a question reads of these views: their spaces, the pages they leave out. */
export function searchScopeOf(views: readonly PublishedView[]): SearchScope {
  return { spaceIds: views.map((v) => v.spaceId), excludedPages: views.flatMap((v) => v.excluded) };
}

/** Each site-space's published URL (ending in `/`), by id, as the site's API objects give them. */
function siteSpaceUrls(ctx: AppContext, tree: SiteTree): Map<string, string> {
  const presented = presentTree(ctx.config, tree, () => null);
  const urls = new Map<string, string>();
  const add = (siteSpaces: readonly { id: string; urls: { published?: string } }[]) => {
    for (const ss of siteSpaces) if (ss.urls.published) urls.set(ss.id, ss.urls.published);
  };
  if (presented.structure.type === 'sections') {
    for (const section of sectionsOf(presented.structure.structure)) add(section.siteSpaces);
  } else {
    add(presented.structure.structure);
  }
  return urls;
}

/** A space of the site as search reads it: the pages left out, and each listed page's published URL. */
export interface PublishedView {
  spaceId: string;
  excluded: PageHit[];
  url: (pageId: string) => string | undefined;
}

/**
 * The site-spaces' spaces as a visitor meets them in the reader: pages whose condition fails are gone with their
 * subtrees (visibleTree), hidden pages are not listed (listedTree), and a page's URL is the reader's (pageUrl).
 * A space shown by two site-spaces is read through the first.
 */
async function publishedViews(ctx: AppContext, siteSpaces: readonly SiteTree['siteSpaces'][number][], urls: ReadonlyMap<string, string>, holds: Condition): Promise<PublishedView[]> {
  const views = new Map<string, PublishedView>();
  for (const ss of siteSpaces) {
    if (views.has(ss.space_id)) continue;
    const { tree } = await readPublishedContent(ctx, ss.space.revision_id);
    const visible = visibleTree(tree, holds);
    const listed = new Map<string, PageNode>();
    const walk = (nodes: readonly PageNode[]) => {
      for (const node of nodes) {
        listed.set(node.page.id, node);
        walk(node.children);
      }
    };
    walk(listedTree(visible));
    const excluded: PageHit[] = [];
    const walkAll = (nodes: readonly PageNode[]) => {
      for (const node of nodes) {
        if (!listed.has(node.page.id)) excluded.push({ space_id: ss.space_id, page_id: node.page.id });
        walkAll(node.children);
      }
    };
    walkAll(tree);
    const base = urls.get(ss.id);
    const first = firstPage(visible);
    views.set(ss.space_id, {
      spaceId: ss.space_id,
      excluded,
      url: (pageId) => {
        const node = listed.get(pageId);
        return base !== undefined && node ? `${base}${pageUrl({ url: '' }, node, first)}` : undefined;
      },
    });
  }
  return [...views.values()];
}

async function searchSiteSpaces(ctx: AppContext, listKey: string, views: readonly PublishedView[], text: string, query: { page?: string | undefined; limit?: number | undefined }) {
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const terms = searchTerms(text);
  if (isEmpty(terms)) return { count: 0, items: [] };
  const after = page.after?.[0];
  const byId = new Map(views.map((v) => [v.spaceId, v]));
  return searchSpaces(ctx, searchScopeOf(views), terms, listKey, typeof after === 'number' && after >= 0 ? after : 0, page.limit, (spaceId, pageId) => byId.get(spaceId)?.url(pageId));
}
