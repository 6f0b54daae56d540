import type { TestServer } from '../../../test/helpers.ts';
import { isoNow } from '../../platform/clock.ts';
import { updateSpace } from '../spaces/queries.ts';
import { applyBatch, storeBatchFiles, validateChanges } from './apply-changes.ts';
import { findRevision, lockBranch } from './branch-store.ts';
import { commitToBranch } from './commit-revision.ts';

/**
 * Writes a batch of content changes straight onto a space's main line, as live edits and merges do: one new
 * revision, and the space's revision moves to it. Tests of reads and of change requests use it to give a
 * space content without going through a merge. Returns the new revision's id.
 */
export async function writeMain(t: TestServer, spaceId: string, changes: unknown[], variables?: Record<string, string>): Promise<string> {
  const ctx = t.app.ctx;
  const valid = validateChanges(changes);
  const files = await storeBatchFiles(ctx, valid);
  const now = isoNow(ctx.clock);
  return ctx.db.transaction().execute(async (trx) => {
    const branch = await lockBranch(trx, spaceId);
    const head = branch && (await findRevision(trx, branch.head_revision_id));
    if (!branch || !head) throw new Error(`no main branch for space ${spaceId}`);
    const batch = await applyBatch(ctx, trx, head, head.id, valid, files, now);
    const revision = await commitToBranch(ctx, trx, branch, head, {
      pages: batch.pages,
      files: batch.files,
      ...(variables ? { variables } : {}),
      type: 'edits',
      createdBy: t.admin.userId,
    });
    await updateSpace(trx, spaceId, { revision_id: revision.id, updated_at: now });
    return revision.id;
  });
}
