import type { Executor } from '../../db/types.ts';
import type { Layer } from '../content/revisions.ts';
import type { LinkRow } from './analysis.ts';

/**
 * Links as stored per document (content/document-store.ts writes them once per distinct document), read
 * through the page versions valid at a revision: indexed joins, no document is parsed at read time.
 */

/** `alias`'s version is the one valid at the layer's sequence number (head: the open rows). */
function validAt(layer: Layer, alias: 'pv' | 'fv') {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return (eb: any) =>
    layer.head
      ? eb.and([eb(`${alias}.branch_id`, '=', layer.branchId), eb(`${alias}.to_seq`, 'is', null)])
      : eb.and([
          eb(`${alias}.branch_id`, '=', layer.branchId),
          eb(`${alias}.from_seq`, '<=', layer.seq),
          eb.or([eb(`${alias}.to_seq`, 'is', null), eb(`${alias}.to_seq`, '>', layer.seq)]),
        ]);
}

const CHUNK = 500;

async function chunked<T>(ids: readonly string[], read: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) out.push(...(await read(ids.slice(i, i + CHUNK))));
  return out;
}

/** The links of the live pages of one layer (or of some of its pages). */
export async function linksAt(db: Executor, layer: Layer, pageIds?: readonly string[]): Promise<LinkRow[]> {
  const query = (ids?: string[]) => {
    let q = db
      .selectFrom('page_versions as pv')
      .innerJoin('document_links as dl', 'dl.document_id', 'pv.document_id')
      .select(['pv.page_id', 'dl.kind', 'dl.target', 'dl.anchor', 'dl.space_id', 'dl.relation'])
      .where(validAt(layer, 'pv'))
      .where('pv.deleted', '=', 0)
      // A reusable content is stored as a page version, but it is no page whose links are listed.
      .where('pv.kind', '<>', 'reusable-content');
    if (ids) q = q.where('pv.page_id', 'in', ids);
    return q.orderBy('pv.page_id').orderBy('dl.position').execute();
  };
  return pageIds ? chunked(pageIds, query) : query();
}

/** The pages among `ids` that have a version in the layer, with whether that version deletes them. */
export async function pageVersionsOf(db: Executor, layer: Layer, ids: readonly string[]): Promise<Map<string, boolean>> {
  const rows = await chunked(ids, (chunk) =>
    db.selectFrom('page_versions as pv').select(['pv.page_id as id', 'pv.deleted']).where(validAt(layer, 'pv')).where('pv.page_id', 'in', chunk).execute(),
  );
  return new Map(rows.map((r) => [r.id, Number(r.deleted) === 1]));
}

/** The files among `ids` that have a version in the layer, with whether that version deletes them. */
export async function fileVersionsOf(db: Executor, layer: Layer, ids: readonly string[]): Promise<Map<string, boolean>> {
  const rows = await chunked(ids, (chunk) =>
    db.selectFrom('file_versions as fv').select(['fv.file_id as id', 'fv.deleted']).where(validAt(layer, 'fv')).where('fv.file_id', 'in', chunk).execute(),
  );
  return new Map(rows.map((r) => [r.id, Number(r.deleted) === 1]));
}

/** The ids of every page with a version of its own in the layer (deleted ones too): a change request's overrides. */
export async function pageIdsWithVersionAt(db: Executor, layer: Layer): Promise<Set<string>> {
  const rows = await db.selectFrom('page_versions as pv').select('pv.page_id').where(validAt(layer, 'pv')).execute();
  return new Set(rows.map((r) => r.page_id));
}

/** The live pages of a layer whose document links to `target` (a page: page and anchor links; a file: file links). */
export async function pagesLinkingTo(db: Executor, layer: Layer, spaceId: string, kinds: readonly LinkRow['kind'][], target: string): Promise<string[]> {
  const rows = await db
    .selectFrom('document_links as dl')
    .innerJoin('page_versions as pv', 'pv.document_id', 'dl.document_id')
    .select('pv.page_id')
    .distinct()
    .where('dl.target', '=', target)
    .where('dl.kind', 'in', kinds)
    // A reference naming another space points at a page of that space, even if the id were equal.
    .where((eb) => eb.or([eb('dl.space_id', 'is', null), eb('dl.space_id', '=', spaceId)]))
    .where(validAt(layer, 'pv'))
    .where('pv.deleted', '=', 0)
    .where('pv.kind', '<>', 'reusable-content')
    .execute();
  return rows.map((r) => r.page_id);
}

/** URLs whose last check failed, among `urls`. */
export async function brokenUrlsAmong(db: Executor, urls: readonly string[]): Promise<Set<string>> {
  const rows = await chunked(urls, (chunk) => db.selectFrom('link_checks').select('url').where('url', 'in', chunk).where('status', '=', 'broken').execute());
  return new Set(rows.map((r) => r.url));
}

/** External URLs of stored documents never checked, or last checked before `checkedBefore` (a batch). */
export async function urlsDueForCheck(db: Executor, checkedBefore: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('document_links as dl')
    .leftJoin('link_checks as lc', 'lc.url', 'dl.target')
    .select('dl.target')
    .distinct()
    .where('dl.kind', '=', 'url')
    .where((eb) => eb.or([eb('lc.url', 'is', null), eb('lc.checked_at', '<', checkedBefore)]))
    .orderBy('dl.target')
    .limit(limit)
    .execute();
  return rows.map((r) => r.target);
}

export async function saveLinkCheck(db: Executor, row: { url: string; status: 'ok' | 'broken'; http_status: number | null; error: string | null; checked_at: string }): Promise<void> {
  await db
    .insertInto('link_checks')
    .values(row)
    .onConflict((oc) => oc.column('url').doUpdateSet({ status: row.status, http_status: row.http_status, error: row.error, checked_at: row.checked_at }))
    .execute();
}

export async function linkCheckOf(db: Executor, url: string) {
  return db.selectFrom('link_checks').selectAll().where('url', '=', url).executeTakeFirst();
}
