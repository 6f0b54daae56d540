import type { AppContext, Caller } from '../../platform/context.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { isoNow } from '../../platform/clock.ts';
import { recordEvent } from '../../platform/events.ts';
import { isUniqueViolation } from '../../db/dialect.ts';
import type { Executor } from '../../db/types.ts';
import { readPublishedContent } from '../content/service.ts';
import type { PageNode } from '../content/tree.ts';
import { presentTree } from './present.ts';
import { loadSite, loadSiteForDelete, readTree } from './service.ts';
import {
  countSiteRedirects, deleteSiteRedirect, findSiteRedirect, findSiteRedirectBySource, insertSiteRedirect, listSiteRedirects, updateSiteRedirect,
  type SiteRedirectRow,
} from './redirects-store.ts';
import type { SiteRow } from './store.ts';

/*
 * Site redirects (the official createSiteRedirect, listSiteRedirects, getSiteRedirectBySource,
 * updateSiteRedirectById, deleteSiteRedirectById): a path under a site's URL (`/old/page`) that sends readers to
 * a section, a variant (site-space) or a page of the same site. The reader answers such a path with a 302 when
 * no page is there (serve-site.ts): a redirect the API can change or delete must not be cached for good by
 * browsers, as a 301 would be. Destinations are checked against the site when written; one that stops
 * existing (a section deleted) is kept and no longer answered.
 */

export type SiteRedirectDestination =
  | { kind: 'site-section'; siteSectionId: string }
  | { kind: 'site-space'; siteSpaceId: string }
  | { kind: 'site-page'; siteSpaceId: string; pageId: string };

export function presentSiteRedirect(row: SiteRedirectRow) {
  return { object: 'site-redirect' as const, id: row.id, source: row.source, destination: JSON.parse(row.destination) as SiteRedirectDestination };
}

/** `/a/b/`, `/a//b`: one source, `/a/b` (the reader compares paths so). */
export function normaliseSource(source: string): string {
  return `/${source.split('/').filter(Boolean).join('/')}`;
}

async function checkDestination(ctx: AppContext, site: SiteRow, destination: SiteRedirectDestination): Promise<void> {
  const tree = await readTree(ctx.db, site);
  if (destination.kind === 'site-section') {
    if (!tree.sections.some((s) => s.id === destination.siteSectionId)) throw badRequest(`body/destination/siteSectionId: no section ${destination.siteSectionId} in site ${site.id}`);
    return;
  }
  const siteSpace = tree.siteSpaces.find((s) => s.id === destination.siteSpaceId);
  if (!siteSpace) throw badRequest(`body/destination/siteSpaceId: no site-space ${destination.siteSpaceId} in site ${site.id}`);
  if (destination.kind === 'site-page') {
    const { tree: pages } = await readPublishedContent(ctx, siteSpace.space.revision_id);
    if (!findNode(pages, destination.pageId)) throw badRequest(`body/destination/pageId: no page ${destination.pageId} in the space of site-space ${siteSpace.id}`);
  }
}

function findNode(nodes: readonly PageNode[], pageId: string): PageNode | undefined {
  const stack = [...nodes];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.page.id === pageId) return node;
    stack.push(...node.children);
  }
  return undefined;
}

export async function createSiteRedirect(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, body: { source: string; destination: SiteRedirectDestination }) {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'manage', 'Creating a redirect');
  await checkDestination(ctx, site, body.destination);
  const now = isoNow(ctx.clock);
  const row: SiteRedirectRow = { id: newId(), site_id: site.id, source: normaliseSource(body.source), destination: JSON.stringify(body.destination), created_at: now, updated_at: now };
  await writeUnique(row.source, () =>
    ctx.db.transaction().execute(async (trx) => {
      await insertSiteRedirect(trx, row);
      await recordEvent(trx, ctx.clock, 'site_redirect_created', organizationId, { siteId, siteRedirectId: row.id });
    }),
  );
  return presentSiteRedirect(row);
}

export async function listRedirectsOfSite(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, query: { page?: string; limit?: number; search?: string }) {
  await loadSite(ctx, caller, organizationId, siteId, 'view', 'Listing redirects');
  const listKey = `site-redirects:${siteId}:${query.search ?? ''}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const [rows, count] = await Promise.all([listSiteRedirects(ctx.db, siteId, query.search, page), countSiteRedirects(ctx.db, siteId, query.search)]);
  return ctx.cursors.close(listKey, page, rows, count, (r) => [r.created_at, r.id], presentSiteRedirect);
}

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
  body: { source?: string | undefined; destination?: SiteRedirectDestination | undefined },
) {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'manage', 'Updating a redirect');
  const row = await findSiteRedirect(ctx.db, siteId, redirectId);
  if (!row) throw notFound(`No redirect ${redirectId} in site ${siteId}`);
  const changes: Partial<SiteRedirectRow> = { updated_at: isoNow(ctx.clock) };
  if (body.source !== undefined) changes.source = normaliseSource(body.source);
  if (body.destination !== undefined) {
    await checkDestination(ctx, site, body.destination);
    changes.destination = JSON.stringify(body.destination);
  }
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
  // The URL the destination has once the site is published, published or not yet.
  const tree = await readTree(ctx.db, site);
  const presented = presentTree(ctx.config, { ...tree, site: { ...site, published: 1 } }, () => null);
  if (destination.kind === 'site-section') return presented.sections.get(destination.siteSectionId)?.urls.published;
  const variantUrl = presented.siteSpaces.get(destination.siteSpaceId)?.urls.published;
  if (variantUrl === undefined || destination.kind === 'site-space') return variantUrl;
  const siteSpace = tree.siteSpaces.find((s) => s.id === destination.siteSpaceId)!;
  const { tree: pages } = await readPublishedContent(ctx, siteSpace.space.revision_id);
  const node = findNode(pages, destination.pageId);
  return node ? `${variantUrl}${node.path.split('/').map(encodeURIComponent).join('/')}` : undefined;
}

/** For the reader: the destination of the redirect a site has from this path, if any. */
export async function siteRedirectFrom(db: Executor, siteId: string, path: string): Promise<SiteRedirectDestination | undefined> {
  const row = await findSiteRedirectBySource(db, siteId, normaliseSource(path));
  return row ? (JSON.parse(row.destination) as SiteRedirectDestination) : undefined;
}
