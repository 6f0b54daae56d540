import type { AppContext, Caller } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import { openContent, type ContentSource } from '../content/service.ts';
import { findRevisionAt } from '../content/revisions.ts';
import { Snapshot } from '../content/snapshot.ts';
import { analyzeLinks, internalTargets, statsOf, type LinkItem, type LinkRow, type LinkStatus } from './analysis.ts';
import { brokenUrlsAmong, fileVersionsOf, linksAt, pageIdsWithVersionAt, pagesLinkingTo, pageVersionsOf } from './store.ts';
import { locationPresenter } from './present.ts';

export interface LinksQuery {
  page?: string | undefined;
  limit?: number | undefined;
  status?: LinkStatus | undefined;
}

/**
 * The links of a revision: its live pages' stored links (a change request's own pages over the base's), with
 * their targets looked up in the same revision in one batch per kind.
 */
async function linksOfRevision(ctx: AppContext, snapshot: Snapshot, spaceId: string, pageIds?: readonly string[]): Promise<LinkItem[]> {
  const rows = await linkRows(ctx, snapshot, pageIds);
  const targets = internalTargets(rows, spaceId);
  const [livePages, liveFiles, brokenUrls] = await Promise.all([
    liveIn(snapshot, targets.pages, (layer, ids) => pageVersionsOf(ctx.db, layer, ids)),
    liveIn(snapshot, targets.files, (layer, ids) => fileVersionsOf(ctx.db, layer, ids)),
    brokenUrlsAmong(ctx.db, targets.urls),
  ]);
  return analyzeLinks(rows, { spaceId, livePages, liveFiles, brokenUrls, appUrl: ctx.config.publicUrl });
}

async function linkRows(ctx: AppContext, snapshot: Snapshot, pageIds?: readonly string[]): Promise<LinkRow[]> {
  const own = await linksAt(ctx.db, snapshot.own, pageIds);
  if (!snapshot.base) return own;
  // A page the change request changed, moved or deleted has a version of its own: the base's links of it are gone.
  const overridden = pageIds ? new Set((await pageVersionsOf(ctx.db, snapshot.own, pageIds)).keys()) : await pageIdsWithVersionAt(ctx.db, snapshot.own);
  const fromBase = (await linksAt(ctx.db, snapshot.base, pageIds)).filter((row) => !overridden.has(row.page_id));
  return [...own, ...fromBase];
}

type VersionLookup = (layer: Snapshot['own'], ids: readonly string[]) => Promise<Map<string, boolean>>;

/** The ids that exist in the revision: the own layer decides for what it has a version of, the base for the rest. */
async function liveIn(snapshot: Snapshot, ids: readonly string[], versionsOf: VersionLookup): Promise<Set<string>> {
  const live = new Set<string>();
  if (ids.length === 0) return live;
  const own = await versionsOf(snapshot.own, ids);
  const rest: string[] = [];
  for (const id of ids) {
    const deleted = own.get(id);
    if (deleted === undefined) rest.push(id);
    else if (!deleted) live.add(id);
  }
  if (snapshot.base && rest.length > 0) for (const [id, deleted] of await versionsOf(snapshot.base, rest)) if (!deleted) live.add(id);
  return live;
}

/** The pages of the revision whose documents link to a target, sorted by id. */
async function backlinkPages(ctx: AppContext, snapshot: Snapshot, spaceId: string, kinds: readonly LinkRow['kind'][], target: string): Promise<string[]> {
  const own = await pagesLinkingTo(ctx.db, snapshot.own, spaceId, kinds, target);
  let pages = own;
  if (snapshot.base) {
    const fromBase = await pagesLinkingTo(ctx.db, snapshot.base, spaceId, kinds, target);
    const overridden = await pageVersionsOf(ctx.db, snapshot.own, fromBase);
    pages = [...own, ...fromBase.filter((id) => !overridden.has(id))];
  }
  return [...new Set(pages)].sort();
}

/** One page of a list computed whole (links of a revision are grouped by target before they can be ordered). */
function pageOf<T>(ctx: AppContext, listKey: string, query: LinksQuery, rows: readonly T[], keyOf: (row: T) => string) {
  const request = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const after = request.after?.[0];
  const start = after === undefined ? 0 : rows.findIndex((row) => keyOf(row) > String(after));
  const slice = start < 0 ? [] : rows.slice(start, start + request.limit + 1);
  return { request, slice };
}

async function linkList(ctx: AppContext, caller: Caller, source: ContentSource, query: LinksQuery, pageId?: string) {
  const opened = await openContent(ctx, caller, source);
  const { snapshot, spaceId, revision } = opened;
  if (pageId !== undefined && !(await snapshot.page(pageId))) throw notFound(`No page ${pageId} in this revision`);
  const items = await linksOfRevision(ctx, snapshot, spaceId, pageId !== undefined ? [pageId] : undefined);
  let baseItems: LinkItem[] | undefined;
  if (source.kind === 'change-request' && revision.base_branch_id !== null && revision.base_seq !== null) {
    const base = await findRevisionAt(ctx.db, revision.base_branch_id, revision.base_seq);
    if (base) baseItems = await linksOfRevision(ctx, await Snapshot.of(ctx.db, base), spaceId, pageId !== undefined ? [pageId] : undefined);
  }
  const shown = query.status ? items.filter((item) => item.status === query.status) : items;
  const listKey = `links:${revision.id}:${pageId ?? ''}:${query.status ?? ''}`;
  const { request, slice } = pageOf(ctx, listKey, query, shown, (item) => item.key);
  const present = await locationPresenter(ctx, opened);
  const pageIds = [...new Set(slice.slice(0, request.limit).flatMap((item) => [...item.locations, ...(item.target.kind === 'page' && item.status !== 'broken' ? [item.target.page] : [])]))];
  const fileIds = slice.flatMap((item) => (item.target.kind === 'file' && item.status !== 'broken' ? [item.target.file] : []));
  await present.load(pageIds, fileIds);
  const envelope = ctx.cursors.close(listKey, request, slice, shown.length, (item) => [item.key], (item) => present.usage(item));
  return { ...envelope, stats: statsOf(items, baseItems) };
}

async function backlinkList(ctx: AppContext, caller: Caller, source: ContentSource, query: LinksQuery, target: { page: string } | { file: string }) {
  const opened = await openContent(ctx, caller, source);
  const { snapshot, spaceId, revision } = opened;
  let pages: string[];
  if ('page' in target) {
    if (!(await snapshot.page(target.page))) throw notFound(`No page ${target.page} in this revision`);
    pages = await backlinkPages(ctx, snapshot, spaceId, ['page', 'anchor'], target.page);
  } else {
    if (!(await snapshot.file(target.file))) throw notFound(`No file ${target.file} in this revision`);
    pages = await backlinkPages(ctx, snapshot, spaceId, ['file'], target.file);
  }
  const listKey = `backlinks:${revision.id}:${'page' in target ? `page:${target.page}` : `file:${target.file}`}`;
  const { request, slice } = pageOf(ctx, listKey, query, pages, (id) => id);
  const present = await locationPresenter(ctx, opened);
  await present.load(slice.slice(0, request.limit), []);
  return ctx.cursors.close(listKey, request, slice, pages.length, (id) => [id], (id) => present.page(id));
}

export const listSpaceLinks = (ctx: AppContext, caller: Caller, spaceId: string, query: LinksQuery) => linkList(ctx, caller, { kind: 'space', spaceId }, query);

export const listPageLinks = (ctx: AppContext, caller: Caller, source: ContentSource, pageId: string, query: LinksQuery) => linkList(ctx, caller, source, query, pageId);

export const listPageBacklinks = (ctx: AppContext, caller: Caller, source: ContentSource, pageId: string, query: LinksQuery) => backlinkList(ctx, caller, source, query, { page: pageId });

export const listFileBacklinks = (ctx: AppContext, caller: Caller, source: ContentSource, fileId: string, query: LinksQuery) => backlinkList(ctx, caller, source, query, { file: fileId });
