import type { BlobsTable, Executor } from '../../db/types.ts';

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
