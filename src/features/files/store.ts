import type { ExpressionBuilder } from 'kysely';
import type { BlobsTable, Database, Executor, StorageUploadsTable } from '../../db/types.ts';

export type BlobRow = BlobsTable;

/** Records a blob unless its hash is already there: the first writer's row stands (same bytes, same hash). */
export async function insertBlobIfAbsent(db: Executor, row: BlobRow): Promise<void> {
  await db
    .insertInto('blobs')
    .values(row)
    .onConflict((oc) => oc.column('hash').doNothing())
    .execute();
}

export async function findBlob(db: Executor, hash: string): Promise<BlobRow | undefined> {
  return db.selectFrom('blobs').selectAll().where('hash', '=', hash).executeTakeFirst();
}

/**
 * A blob a download URL may serve: not one whose every file belongs to a deleted space (a deleted space's
 * files stop being served; restored, they are served again). Bytes are shared by content, so the same hash
 * stays served while any live space holds it, or while a custom font uses it (a site shows it). Bytes no file
 * holds yet (stored by a batch still being written) stay served: the URL is only known to whoever sent them.
 */
export async function findServedBlob(db: Executor, hash: string): Promise<BlobRow | undefined> {
  const holders = (eb: ExpressionBuilder<Database, 'blobs'>) =>
    eb
      .selectFrom('file_versions')
      .innerJoin('branches', 'branches.id', 'file_versions.branch_id')
      .innerJoin('spaces', 'spaces.id', 'branches.space_id')
      .select(eb.lit(1).as('one'))
      .where('file_versions.blob_hash', '=', hash);
  return db
    .selectFrom('blobs')
    .selectAll()
    .where('hash', '=', hash)
    .where((eb) =>
      eb.or([
        eb.not(eb.exists(holders(eb))),
        eb.exists(holders(eb).where('spaces.deleted_at', 'is', null)),
        eb.exists(eb.selectFrom('custom_font_faces').select(eb.lit(1).as('one')).where('custom_font_faces.blob_hash', '=', hash)),
      ]),
    )
    .executeTakeFirst();
}

/** Which of these hashes have a row: the bytes recorded as stored. */
export async function findRecordedBlobHashes(db: Executor, hashes: string[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const rows = await db.selectFrom('blobs').select('hash').where('hash', 'in', hashes).execute();
  return new Set(rows.map((row) => row.hash));
}

export type StorageUploadRow = StorageUploadsTable;

export async function insertStorageUpload(db: Executor, row: StorageUploadRow): Promise<void> {
  await db.insertInto('storage_uploads').values(row).execute();
}

export async function findStorageUpload(db: Executor, id: string): Promise<StorageUploadRow | undefined> {
  return db.selectFrom('storage_uploads').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Records the stored bytes of an upload, once: false when another request stored them first. */
export async function completeStorageUpload(db: Executor, id: string, blobHash: string, now: string): Promise<boolean> {
  const result = await db.updateTable('storage_uploads').set({ blob_hash: blobHash, uploaded_at: now }).where('id', '=', id).where('blob_hash', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
