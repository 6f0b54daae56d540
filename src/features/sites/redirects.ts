import type { AppContext, Caller } from '../../platform/context.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { isoNow } from '../../platform/clock.ts';
import { recordEvent } from '../../platform/events.ts';
import { isUniqueViolation } from '../../db/dialect.ts';
import type { Executor } from '../../db/types.ts';
import { readPublishedContent } from '../content/service.ts';
import type { PageNode } from '../content/tree.ts';
import { checkedUrl } from './external-links.ts';
import { presentTree, type SiteTree } from './present.ts';
import { normaliseSource, wildcardCandidates, wildcardSuffix } from './redirect-paths.ts';
import { loadSite, loadSiteForDelete, readTree } from './service.ts';
import {
  countSiteRedirects, deleteSiteRedirect, findLiveRedirectsBySources, findRedirectsBySources, findSiteRedirect, findSiteRedirectBySource, insertSiteRedirect,
  listSiteRedirects, updateSiteRedirect, type SiteRedirectRow,
} from './redirects-store.ts';
import type { SiteRow } from './store.ts';

/*
 * Site redirects (the official createSiteRedirect, listSiteRedirects, getSiteRedirectBySource,
 * updateSiteRedirectById, deleteSiteRedirectById, bulkUpsertSiteRedirects): a path under a site's URL
 * (`/old/page`, or `/old/*` and everything under it) that sends readers to a section, a variant (site-space) or a
 * page of the same site, or to a URL elsewhere. The reader answers such a path when no page is there
 * (serve-site.ts): 302, since the API can change or delete it and a browser must not keep it for good, unless it
 * is permanent (308 for public live traffic, 307 elsewhere: redirect-paths.ts). A draft is kept and listed, never
 * applied, until it is published. Destinations are checked against the site when written; one that stops
 * existing (a section deleted) is kept and no longer answered.
 */

export type SiteRedirectDestination =
  | { kind: 'site-section'; siteSectionId: string }
  | { kind: 'site-space'; siteSpaceId: string }
  | { kind: 'site-page'; siteSpaceId: string; pageId: string }
  | { kind: 'external'; url: string };

/** What a write may give: a destination, or a page of a space by its path (turned into a site-page). */
export type SiteRedirectInputDestination = SiteRedirectDestination | { kind: 'path'; spaceId: string; path: string };

export interface RedirectOptions {
  draft?: boolean | undefined;
  captureWildcard?: boolean | undefined;
  permanent?: boolean | undefined;
}

export function presentSiteRedirect(row: SiteRedirectRow) {
  return {
    object: 'site-redirect' as const,
    id: row.id,
    source: row.source,
    draft: row.draft === 1,
    captureWildcard: row.capture_wildcard === 1,
    permanent: row.permanent === 1,
    destination: JSON.parse(row.destination) as SiteRedirectDestination,
    createdAt: row.created_at,
    ...(row.updated_at !== row.created_at ? { updatedAt: row.updated_at } : {}),
  };
}

/**
 * Checks destinations against one site, reading its structure once and each variant's pages at most once (a bulk
 * write checks up to 500). `field` names the destination in the request, for the 400.
 */
class DestinationChecker {
  private tree: Promise<SiteTree> | undefined;
  private readonly pages = new Map<string, Promise<readonly PageNode[]>>();

  constructor(private readonly ctx: AppContext, private readonly site: SiteRow) {}

  async check(destination: SiteRedirectInputDestination, field: string): Promise<SiteRedirectDestination> {
    if (destination.kind === 'external') return { kind: 'external', url: checkedUrl(destination.url, `${field}/url`) };
    const tree = await (this.tree ??= readTree(this.ctx.db, this.site));
    if (destination.kind === 'site-section') {
      if (!tree.sections.some((s) => s.id === destination.siteSectionId)) throw badRequest(`${field}/siteSectionId: no section ${destination.siteSectionId} in site ${this.site.id}`);
      return destination;
    }
    if (destination.kind === 'path') {
      // The page at that path in the space, through the first variant of the site that shows the space.
      const siteSpace = tree.siteSpaces.find((s) => s.space_id === destination.spaceId);
      if (!siteSpace) throw badRequest(`${field}/spaceId: no variant of site ${this.site.id} shows space ${destination.spaceId}`);
      const wanted = destination.path.split('/').filter(Boolean).join('/');
      const node = findNode(await this.pagesOf(siteSpace), (n) => n.path === wanted);
      if (!node) throw badRequest(`${field}/path: no page at "${destination.path}" in space ${destination.spaceId}`);
      return { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: node.page.id };
    }
    const siteSpace = tree.siteSpaces.find((s) => s.id === destination.siteSpaceId);
    if (!siteSpace) throw badRequest(`${field}/siteSpaceId: no site-space ${destination.siteSpaceId} in site ${this.site.id}`);
    if (destination.kind === 'site-page' && !findNode(await this.pagesOf(siteSpace), (n) => n.page.id === destination.pageId)) {
      throw badRequest(`${field}/pageId: no page ${destination.pageId} in the space of site-space ${siteSpace.id}`);
    }
    return destination;
  }

  private pagesOf(siteSpace: SiteTree['siteSpaces'][number]): Promise<readonly PageNode[]> {
    let pages = this.pages.get(siteSpace.id);
    if (!pages) this.pages.set(siteSpace.id, (pages = readPublishedContent(this.ctx, siteSpace.space.revision_id).then((c) => c.tree)));
    return pages;
  }
}

function findNode(nodes: readonly PageNode[], matches: (node: PageNode) => boolean): PageNode | undefined {
  const stack = [...nodes];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (matches(node)) return node;
    stack.push(...node.children);
  }
  return undefined;
}

export async function createSiteRedirect(
  ctx: AppContext, caller: Caller, organizationId: string, siteId: string,
  body: { source: string; destination: SiteRedirectInputDestination } & RedirectOptions,
) {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'manage', 'Creating a redirect');
  const destination = await new DestinationChecker(ctx, site).check(body.destination, 'body/destination');
  const now = isoNow(ctx.clock);
  const row: SiteRedirectRow = {
    id: newId(), site_id: site.id, source: normaliseSource(body.source), destination: JSON.stringify(destination),
    draft: body.draft ? 1 : 0, capture_wildcard: body.captureWildcard ? 1 : 0, permanent: body.permanent ? 1 : 0, created_at: now, updated_at: now,
  };
  await writeUnique(row.source, () =>
    ctx.db.transaction().execute(async (trx) => {
      await insertSiteRedirect(trx, row);
      await recordEvent(trx, ctx.clock, 'site_redirect_created', organizationId, { siteId, siteRedirectId: row.id });
    }),
  );
  return presentSiteRedirect(row);
}

export async function listRedirectsOfSite(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, query: { page?: string; limit?: number; search?: string; draft?: boolean }) {
  await loadSite(ctx, caller, organizationId, siteId, 'view', 'Listing redirects');
  const draft = query.draft === true;
  const listKey = `site-redirects:${siteId}:${draft ? 'draft' : 'live'}:${query.search ?? ''}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const [rows, count] = await Promise.all([listSiteRedirects(ctx.db, siteId, query.search, draft, page), countSiteRedirects(ctx.db, siteId, query.search, draft)]);
  return ctx.cursors.close(listKey, page, rows, count, (r) => [r.created_at, r.id], presentSiteRedirect);
}

/** getSiteRedirectBySource: the live redirect from exactly this source. */
export async function siteRedirectBySource(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, source: string) {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'view', 'Reading a redirect');
  const row = await findSiteRedirectBySource(ctx.db, siteId, normaliseSource(source));
  if (!row) throw notFound(`No redirect from ${source} in site ${siteId}`);
  const redirect = presentSiteRedirect(row);
  const target = await destinationUrl(ctx, site, redirect.destination);
  if (target === undefined) throw notFound(`The destination of the redirect from ${source} no longer exists in site ${siteId}`);
  return { redirect, target };
}

export async function updateSiteRedirectById(
  ctx: AppContext, caller: Caller, organizationId: string, siteId: string, redirectId: string,
  body: { source?: string | undefined; destination?: SiteRedirectDestination | undefined } & RedirectOptions,
) {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'manage', 'Updating a redirect');
  const row = await findSiteRedirect(ctx.db, siteId, redirectId);
  if (!row) throw notFound(`No redirect ${redirectId} in site ${siteId}`);
  const changes: Partial<SiteRedirectRow> = { updated_at: isoNow(ctx.clock) };
  if (body.source !== undefined) changes.source = normaliseSource(body.source);
  if (body.destination !== undefined) changes.destination = JSON.stringify(await new DestinationChecker(ctx, site).check(body.destination, 'body/destination'));
  if (body.draft !== undefined) changes.draft = body.draft ? 1 : 0;
  if (body.captureWildcard !== undefined) changes.capture_wildcard = body.captureWildcard ? 1 : 0;
  if (body.permanent !== undefined) changes.permanent = body.permanent ? 1 : 0;
  await writeUnique(changes.source ?? row.source, () =>
    ctx.db.transaction().execute(async (trx) => {
      await updateSiteRedirect(trx, row.id, changes);
      await recordEvent(trx, ctx.clock, 'site_redirect_updated', organizationId, { siteId, siteRedirectId: row.id, fields: Object.keys(body) });
    }),
  );
  return presentSiteRedirect({ ...row, ...changes });
}

/** True when a redirect was deleted (the official 205), false when there was none (204). */
export async function deleteSiteRedirectById(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, redirectId: string): Promise<boolean> {
  const loaded = await loadSiteForDelete(ctx, caller, organizationId, siteId, 'Deleting a redirect');
  if (!loaded) return false;
  const row = await findSiteRedirect(ctx.db, siteId, redirectId);
  if (!row) return false;
  await ctx.db.transaction().execute(async (trx) => {
    await deleteSiteRedirect(trx, row.id);
    await recordEvent(trx, ctx.clock, 'site_redirect_deleted', organizationId, { siteId, siteRedirectId: row.id });
  });
  return true;
}

export type BulkRedirectItem =
  | { source: string; intent: 'publish' }
  | ({ source: string; intent?: 'live' | 'draft' | undefined; destination: SiteRedirectInputDestination | null } & Omit<RedirectOptions, 'draft'>);

type BulkResult =
  | { status: 'created' | 'updated' | 'published'; source: string; draft: boolean; id: string }
  | { status: 'deleted'; source: string; draft: boolean };

/**
 * bulkUpsertSiteRedirects: up to 500 creations, updates, deletions (a null destination) and publications of
 * drafts, applied whole or not at all: every item is checked first (a bad one is a 400 naming it,
 * `body/redirects/N/...`), then all are written in one transaction. An item names its redirect by source and
 * intent (live or draft); one redirect is named at most once per request. Deleting or publishing a redirect that
 * is not there is bad input too: the request says something of the site that is not so.
 */
export async function bulkUpsertSiteRedirects(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, items: readonly BulkRedirectItem[]) {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'manage', 'Changing redirects');
  const sources = items.map((item) => normaliseSource(item.source));
  const existing = new Map((await findRedirectsBySources(ctx.db, siteId, [...new Set(sources)])).map((row) => [`${row.draft} ${row.source}`, row]));
  const checker = new DestinationChecker(ctx, site);
  const named = new Set<string>();
  const name = (key: string, field: string) => {
    if (named.has(key)) throw badRequest(`${field}: this redirect is already named by an earlier item of the request`);
    named.add(key);
  };
  const now = isoNow(ctx.clock);
  const writes: ((trx: Executor) => Promise<void>)[] = [];
  const results: BulkResult[] = [];
  for (const [i, item] of items.entries()) {
    const field = `body/redirects/${i}`;
    const source = sources[i]!;
    if (item.intent === 'publish') {
      name(`1 ${source}`, `${field}/source`);
      name(`0 ${source}`, `${field}/source`);
      const draft = existing.get(`1 ${source}`);
      if (!draft) throw badRequest(`${field}/source: no draft redirect from ${source} to publish`);
      const live = existing.get(`0 ${source}`);
      if (live) {
        // The live redirect takes the draft's settings and keeps its id; the draft goes.
        const changes = { destination: draft.destination, capture_wildcard: draft.capture_wildcard, permanent: draft.permanent, updated_at: now };
        writes.push(async (trx) => {
          await deleteSiteRedirect(trx, draft.id);
          await updateSiteRedirect(trx, live.id, changes);
        });
        results.push({ status: 'published', source, draft: false, id: live.id });
      } else {
        writes.push((trx) => updateSiteRedirect(trx, draft.id, { draft: 0, updated_at: now }));
        results.push({ status: 'published', source, draft: false, id: draft.id });
      }
      continue;
    }
    const draft = item.intent === 'draft';
    const key = `${draft ? 1 : 0} ${source}`;
    name(key, `${field}/source`);
    const row = existing.get(key);
    if (item.destination === null) {
      if (!row) throw badRequest(`${field}/source: no ${draft ? 'draft' : 'live'} redirect from ${source} to delete`);
      writes.push((trx) => deleteSiteRedirect(trx, row.id));
      results.push({ status: 'deleted', source, draft });
      continue;
    }
    const destination = JSON.stringify(await checker.check(item.destination, `${field}/destination`));
    if (row) {
      const changes: Partial<SiteRedirectRow> = { destination, updated_at: now };
      if (item.captureWildcard !== undefined) changes.capture_wildcard = item.captureWildcard ? 1 : 0;
      if (item.permanent !== undefined) changes.permanent = item.permanent ? 1 : 0;
      writes.push((trx) => updateSiteRedirect(trx, row.id, changes));
      results.push({ status: 'updated', source, draft, id: row.id });
    } else {
      const created: SiteRedirectRow = {
        id: newId(), site_id: site.id, source, destination, draft: draft ? 1 : 0,
        capture_wildcard: item.captureWildcard ? 1 : 0, permanent: item.permanent ? 1 : 0, created_at: now, updated_at: now,
      };
      writes.push((trx) => insertSiteRedirect(trx, created));
      results.push({ status: 'created', source, draft, id: created.id });
    }
  }
  await writeUnique('one of the sources', () =>
    ctx.db.transaction().execute(async (trx) => {
      for (const write of writes) await write(trx);
      await recordEvent(trx, ctx.clock, 'site_redirects_bulk_upserted', organizationId, { siteId, count: results.length });
    }),
  );
  return { results };
}

async function writeUnique(source: string, write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`body/source: the site already has a redirect from ${source}`);
    throw error;
  }
}

/** Where a destination is published: its section's or variant's URL, or its page's under its variant's. */
async function destinationUrl(ctx: AppContext, site: SiteRow, destination: SiteRedirectDestination): Promise<string | undefined> {
  if (destination.kind === 'external') return destination.url;
  // The URL the destination has once the site is published, published or not yet.
  const tree = await readTree(ctx.db, site);
  const presented = presentTree(ctx.config, { ...tree, site: { ...site, published: 1 } }, () => null);
  if (destination.kind === 'site-section') return presented.sections.get(destination.siteSectionId)?.urls.published;
  const variantUrl = presented.siteSpaces.get(destination.siteSpaceId)?.urls.published;
  if (variantUrl === undefined || destination.kind === 'site-space') return variantUrl;
  const siteSpace = tree.siteSpaces.find((s) => s.id === destination.siteSpaceId)!;
  const { tree: pages } = await readPublishedContent(ctx, siteSpace.space.revision_id);
  const node = findNode(pages, (n) => n.page.id === destination.pageId);
  return node ? `${variantUrl}${node.path.split('/').map(encodeURIComponent).join('/')}` : undefined;
}

/** What the reader applies to a path: a live redirect's destination, what its wildcard matched, and whether it is permanent. */
export interface AppliedRedirect {
  destination: SiteRedirectDestination;
  /** The rest of the path, to append to the destination's URL (captureWildcard), or ''. */
  suffix: string;
  permanent: boolean;
}

/**
 * For the reader: the live redirect a site has from this path, if any: the one from exactly this path, else the
 * wildcard source with the longest prefix of it.
 */
export async function siteRedirectFrom(db: Executor, siteId: string, path: string): Promise<AppliedRedirect | undefined> {
  const normalised = normaliseSource(path);
  const exact = await findSiteRedirectBySource(db, siteId, normalised);
  const rows = exact ? [exact] : await findLiveRedirectsBySources(db, siteId, wildcardCandidates(normalised));
  const row = rows.sort((a, b) => b.source.length - a.source.length)[0];
  if (!row) return undefined;
  const suffix = row.capture_wildcard === 1 ? (wildcardSuffix(row.source, normalised) ?? '') : '';
  return { destination: JSON.parse(row.destination) as SiteRedirectDestination, suffix, permanent: row.permanent === 1 };
}
