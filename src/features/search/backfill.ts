import { setImmediate as yieldToRequests } from 'node:timers/promises';
import type { Executor } from '../../db/types.ts';
import type { AppContext } from '../../platform/context.ts';
import type { Document } from '../content/document/types.ts';
import { pageFromRow } from '../content/pages.ts';
import { getDocuments, lockBranch, pagesAfterAt } from '../content/revisions.ts';
import { reindexPages } from './indexing.ts';
import { advanceBackfill, listForBackfill, nextBackfill } from './store.ts';

/**
 * The search backfill: the spaces listed in `search_backfill` (migration 0012 lists every space present then,
 * since content written before 0008 was never indexed) have their current pages indexed again, a batch of pages
 * per transaction, by a sweep of the job worker. Each batch locks the space's main branch, so a commit on the
 * main line (which re-indexes the pages it changes in its own transaction) and a batch never interleave: a
 * batch reads the head as it is when it writes. Between batches the event loop serves requests.
 */

export interface BackfillOptions {
  /** Pages indexed per transaction. */
  batch?: number;
  /** A run stops after this long (the next run of the worker goes on from where it stopped). */
  budgetMs?: number;
  /** Only these spaces (a site's, warmed before its first search: prewarm.ts); every listed space otherwise. */
  spaceIds?: readonly string[];
}

/** Lists spaces for the backfill (a space already listed starts over). */
export async function requestSearchBackfill(db: Executor, spaceIds: readonly string[]): Promise<void> {
  await listForBackfill(db, spaceIds);
}

/** One run: batches until the list is empty or the budget is spent. Returns the number of pages indexed. */
export async function backfillSearchIndex(ctx: AppContext, options: BackfillOptions = {}): Promise<number> {
  const batch = options.batch ?? 100;
  const deadline = Date.now() + (options.budgetMs ?? 10_000);
  let indexed = 0;
  // At least one batch per run, however small the budget.
  for (;;) {
    const done = await backfillBatch(ctx, batch, options.spaceIds);
    if (done === undefined) return indexed;
    indexed += done;
    if (Date.now() >= deadline) return indexed;
    await yieldToRequests();
  }
}

/** The next batch of the first listed space; undefined when no space is listed. */
async function backfillBatch(ctx: AppContext, batch: number, spaceIds: readonly string[] | undefined): Promise<number | undefined> {
  return ctx.db.transaction().execute(async (trx) => {
    const next = await nextBackfill(trx, spaceIds);
    if (!next) return undefined;
    // A space's main branch has the space's id; a purged space's listing went with it (cascade).
    const branch = await lockBranch(trx, next.space_id);
    const rows = branch ? await pagesAfterAt(trx, { branchId: branch.id, seq: branch.head_seq, head: true }, next.after_page, batch) : [];
    const pages = rows.filter((row) => !row.deleted).map(pageFromRow);
    const documents = await getDocuments(trx, pages.flatMap((p) => (p.documentId ? [p.documentId] : [])));
    await reindexPages(
      trx,
      next.space_id,
      pages.map((p) => ({ id: p.id, title: p.title, kind: p.kind, document: p.documentId ? (documents.get(p.documentId) as Document | undefined) : undefined })),
      [],
    );
    await advanceBackfill(trx, next.space_id, rows.length < batch ? null : rows[rows.length - 1]!.page_id);
    return pages.length;
  });
}
