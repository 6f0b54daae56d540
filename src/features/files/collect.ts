import type { AppContext } from '../../platform/context.ts';
import type { StoredBlob } from '../../platform/blob-store.ts';
import { findBlob, findRecordedBlobHashes } from './store.ts';

/** Rows looked up at a time while the store is listed. */
const BATCH = 500;

/** The sweep runs this often at most in one process: listing a bucket of millions of objects is not free. */
export const COLLECT_EVERY_MS = 60 * 60_000;
const lastRun = new WeakMap<AppContext, number>();

/**
 * Removes stored bytes that no row names and that were written more than BLOB_GRACE_MS ago (24 hours; 0 turns
 * this off). Bytes are written before their row, so such bytes were left by a write that never finished: a
 * process killed between the two, an upload refused after its bytes arrived. The grace keeps bytes being written
 * right now, and bytes stored again are rewritten (REWRITE_AFTER_MS), which makes them young; each candidate is
 * checked again (its row, its age) just before it is removed. Rows are never removed here: bytes a row names stay.
 */
export async function collectUnreferencedBlobs(ctx: AppContext): Promise<{ examined: number; removed: number }> {
  const result = { examined: 0, removed: 0 };
  if (ctx.config.blobGraceMs === 0) return result;
  const cutoff = ctx.clock.now().getTime() - ctx.config.blobGraceMs;
  let batch: StoredBlob[] = [];
  const collect = async () => {
    const recorded = await findRecordedBlobHashes(ctx.db, batch.map((blob) => blob.hash));
    for (const blob of batch) {
      if (recorded.has(blob.hash)) continue;
      const now = await ctx.blobs.stat(blob.hash);
      if (!now || now.storedAt.getTime() > cutoff || (await findBlob(ctx.db, blob.hash))) continue;
      await ctx.blobs.delete(blob.hash);
      result.removed += 1;
    }
    batch = [];
  };
  for await (const blob of ctx.blobs.list()) {
    result.examined += 1;
    if (blob.storedAt.getTime() > cutoff) continue;
    batch.push(blob);
    if (batch.length === BATCH) await collect();
  }
  await collect();
  return result;
}

/** The worker's sweep: collectUnreferencedBlobs at most every COLLECT_EVERY_MS of the server's clock. */
export async function collectUnreferencedBlobsWhenDue(ctx: AppContext): Promise<void> {
  const now = ctx.clock.now().getTime();
  const last = lastRun.get(ctx);
  if (last !== undefined && now - last < COLLECT_EVERY_MS) return;
  lastRun.set(ctx, now);
  await collectUnreferencedBlobs(ctx);
}
