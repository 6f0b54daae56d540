/**
 * Deletes through `deleteBatch` (one statement removing at most `batchSize` rows, answering how many it
 * removed) until a batch comes back short or `maxBatches` ran: a sweep purging a backlog never holds the
 * database, nor its turn in the worker, for long; the next run goes on where this one stopped. Answers how
 * many rows were deleted.
 */
export async function deleteInBatches(deleteBatch: (batchSize: number) => Promise<number>, batchSize: number, maxBatches: number): Promise<number> {
  let deleted = 0;
  for (let batch = 0; batch < maxBatches; batch += 1) {
    const count = await deleteBatch(batchSize);
    deleted += count;
    if (count < batchSize) break;
  }
  return deleted;
}
