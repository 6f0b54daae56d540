import type { Executor, FileVersionsTable, PageVersionsTable } from '../../db/types.ts';
import { keysetPage } from '../../db/keyset.ts';
import type { PageRequest } from '../../platform/pagination.ts';

export type PageVersionRow = PageVersionsTable;
export type FileVersionRow = FileVersionsTable;

/** One branch as of one sequence number; `head` lets reads of the newest state use the open-rows index. */
export interface Layer {
  branchId: string;
  seq: number;
  head: boolean;
}

type Versioned = 'page_versions' | 'file_versions';

function at<T extends Versioned>(db: Executor, table: T, layer: Layer) {
  const q = db.selectFrom(table as Versioned).where('branch_id', '=', layer.branchId);
  if (layer.head) return q.where('to_seq', 'is', null);
  return q.where('from_seq', '<=', layer.seq).where((eb) => eb.or([eb('to_seq', 'is', null), eb('to_seq', '>', layer.seq)]));
}

export async function pagesAt(db: Executor, layer: Layer): Promise<PageVersionRow[]> {
  return at(db, 'page_versions', layer).selectAll().execute() as Promise<PageVersionRow[]>;
}

/**
 * The reusable contents of a layer, and with `tombstones` its deleted versions of any kind too: a change request
 * deletes a reusable content of its base with a tombstone, which names no kind.
 */
export async function reusableContentsAt(db: Executor, layer: Layer, tombstones: boolean): Promise<PageVersionRow[]> {
  const query = at(db, 'page_versions', layer).selectAll();
  return (
    tombstones ? query.where((eb) => eb.or([eb('kind' as never, '=', 'reusable-content' as never), eb('deleted' as never, '=', 1 as never)])) : query.where('kind' as never, '=', 'reusable-content' as never)
  ).execute() as Promise<PageVersionRow[]>;
}

/** Pages of a layer after a page id, in page id order, `limit` of them: a big branch read in batches. */
export async function pagesAfterAt(db: Executor, layer: Layer, afterPageId: string | null, limit: number): Promise<PageVersionRow[]> {
  let query = at(db, 'page_versions', layer).selectAll();
  if (afterPageId !== null) query = query.where('page_id' as never, '>', afterPageId as never);
  return query.orderBy('page_id' as never).limit(limit).execute() as Promise<PageVersionRow[]>;
}

export async function pageAt(db: Executor, layer: Layer, pageId: string): Promise<PageVersionRow | undefined> {
  return at(db, 'page_versions', layer).selectAll().where('page_id' as never, '=', pageId as never).executeTakeFirst() as Promise<PageVersionRow | undefined>;
}

export async function pagesByIdAt(db: Executor, layer: Layer, pageIds: readonly string[]): Promise<PageVersionRow[]> {
  if (pageIds.length === 0) return [];
  return at(db, 'page_versions', layer).selectAll().where('page_id' as never, 'in', pageIds as never).execute() as Promise<PageVersionRow[]>;
}

/**
 * Whether a page of any branch of the space (its main line or a change request's) held the document at some
 * revision: documents are shared by content, so a document id alone says nothing of the space it is read in.
 * One probe of the (document_id, branch_id) index per branch that holds the document.
 */
export async function spaceHeldDocument(db: Executor, spaceId: string, documentId: string): Promise<boolean> {
  const row = await db
    .selectFrom('page_versions')
    .innerJoin('branches', 'branches.id', 'page_versions.branch_id')
    .select('page_versions.page_id')
    .where('page_versions.document_id', '=', documentId)
    .where('branches.space_id', '=', spaceId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function childrenAt(db: Executor, layer: Layer, parentId: string | null): Promise<PageVersionRow[]> {
  const q = at(db, 'page_versions', layer).selectAll();
  return (parentId === null ? q.where('parent_id' as never, 'is', null) : q.where('parent_id' as never, '=', parentId as never)).execute() as Promise<PageVersionRow[]>;
}

/**
 * Pages whose version on the branch changed after `seq` (created, edited or closed since). Two index ranges, not
 * an OR over the whole branch, so the cost follows the number of changes.
 */
export async function pagesChangedSince(db: Executor, branchId: string, seq: number): Promise<string[]> {
  const rows = await db
    .selectFrom('page_versions')
    .select('page_id')
    .where('branch_id', '=', branchId)
    .where('from_seq', '>', seq)
    .union(db.selectFrom('page_versions').select('page_id').where('branch_id', '=', branchId).where('to_seq', '>', seq))
    .execute();
  return rows.map((r) => r.page_id);
}

export async function filesAt(db: Executor, layer: Layer): Promise<FileVersionRow[]> {
  return at(db, 'file_versions', layer).selectAll().execute() as Promise<FileVersionRow[]>;
}

export async function fileAt(db: Executor, layer: Layer, fileId: string): Promise<FileVersionRow | undefined> {
  return at(db, 'file_versions', layer).selectAll().where('file_id' as never, '=', fileId as never).executeTakeFirst() as Promise<FileVersionRow | undefined>;
}

export async function filesChangedSince(db: Executor, branchId: string, seq: number): Promise<string[]> {
  const rows = await db
    .selectFrom('file_versions')
    .select('file_id')
    .where('branch_id', '=', branchId)
    .where('from_seq', '>', seq)
    .union(db.selectFrom('file_versions').select('file_id').where('branch_id', '=', branchId).where('to_seq', '>', seq))
    .execute();
  return rows.map((r) => r.file_id);
}

/** Ends the open version of a page on a branch at `seq` (the version stays readable at older revisions). */
export async function closePageVersion(db: Executor, branchId: string, pageId: string, seq: number): Promise<void> {
  await db.updateTable('page_versions').set({ to_seq: seq }).where('branch_id', '=', branchId).where('page_id', '=', pageId).where('to_seq', 'is', null).execute();
}

export async function insertPageVersion(db: Executor, row: PageVersionRow): Promise<void> {
  await db.insertInto('page_versions').values(row).execute();
}

export async function closeFileVersion(db: Executor, branchId: string, fileId: string, seq: number): Promise<void> {
  await db.updateTable('file_versions').set({ to_seq: seq }).where('branch_id', '=', branchId).where('file_id', '=', fileId).where('to_seq', 'is', null).execute();
}

export async function insertFileVersion(db: Executor, row: FileVersionRow): Promise<void> {
  await db.insertInto('file_versions').values(row).execute();
}

/** Copies the open versions of one branch into a new branch at sequence 0 (duplicating a space copies its content). */
export async function copyHeadVersions(db: Executor, fromBranch: string, toBranch: string): Promise<void> {
  await db
    .insertInto('page_versions')
    .columns(['branch_id', 'page_id', 'from_seq', 'to_seq', 'deleted', 'parent_id', 'position', 'kind', 'title', 'slug', 'document_id', 'attributes', 'created_at', 'updated_at'])
    .expression((eb) =>
      eb
        .selectFrom('page_versions')
        .select((s) => [
          s.val(toBranch).as('branch_id'),
          'page_id',
          s.val(0).as('from_seq'),
          s.val(null).as('to_seq'),
          'deleted',
          'parent_id',
          'position',
          'kind',
          'title',
          'slug',
          'document_id',
          'attributes',
          'created_at',
          'updated_at',
        ])
        .where('branch_id', '=', fromBranch)
        .where('to_seq', 'is', null)
        .where('deleted', '=', 0),
    )
    .execute();
  await db
    .insertInto('file_versions')
    .columns(['branch_id', 'file_id', 'from_seq', 'to_seq', 'deleted', 'name', 'content_type', 'size', 'blob_hash', 'width', 'height', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('file_versions')
        .select((s) => [
          s.val(toBranch).as('branch_id'),
          'file_id',
          s.val(0).as('from_seq'),
          s.val(null).as('to_seq'),
          'deleted',
          'name',
          'content_type',
          'size',
          'blob_hash',
          'width',
          'height',
          'created_at',
        ])
        .where('branch_id', '=', fromBranch)
        .where('to_seq', 'is', null)
        .where('deleted', '=', 0),
    )
    .execute();
}

/** `alias`'s version is the one valid at the layer's sequence number. */
function validAt(layer: Layer, alias: 'o' | 'b') {
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

/**
 * The files of a layer over its base (a change request over main), as one query: the layer's own live versions,
 * and the base's versions the layer does not override. Sorted by id, so lists page by keyset.
 */
function liveFiles(db: Executor, own: Layer, base: Layer | undefined) {
  const ownFiles = db.selectFrom('file_versions as o').selectAll('o').where(validAt(own, 'o')).where('o.deleted', '=', 0);
  if (!base) return db.selectFrom(ownFiles.as('f')).selectAll('f');
  const baseFiles = db
    .selectFrom('file_versions as b')
    .selectAll('b')
    .where(validAt(base, 'b'))
    .where('b.deleted', '=', 0)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('file_versions as o').select('o.file_id').whereRef('o.file_id', '=', 'b.file_id').where(validAt(own, 'o')))));
  return db.selectFrom(ownFiles.unionAll(baseFiles).as('f')).selectAll('f');
}

export async function filesPageAt(db: Executor, own: Layer, base: Layer | undefined, page: PageRequest): Promise<FileVersionRow[]> {
  return keysetPage(liveFiles(db, own, base), ['f.file_id'], 'asc', page).execute() as Promise<FileVersionRow[]>;
}

export async function countFilesAt(db: Executor, own: Layer, base: Layer | undefined): Promise<number> {
  const row = await liveFiles(db, own, base)
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
