import type { Executor } from '../../db/types.ts';
import type { AppContext } from '../../platform/context.ts';
import { newId } from '../../platform/ids.ts';
import { isoNow } from '../../platform/clock.ts';
import { insertBranch, insertRevisionRow } from './branch-store.ts';
import { copyHeadVersions } from './version-store.ts';

/**
 * The main branch of a new space, with its first (empty) revision. A duplicate starts from a copy of the
 * source's current content, its first revision having the source's revision as parent.
 */
export async function startMainBranch(
  ctx: AppContext,
  db: Executor,
  spaceId: string,
  createdBy: string | null,
  copyOf?: { spaceId: string; revisionId: string; variables: string },
): Promise<string> {
  const revisionId = newId();
  const now = isoNow(ctx.clock);
  await insertBranch(db, { id: spaceId, space_id: spaceId, head_seq: 0, head_revision_id: revisionId, base_branch_id: null, base_seq: null, created_at: now });
  await insertRevisionRow(db, {
    id: revisionId,
    space_id: spaceId,
    branch_id: spaceId,
    seq: 0,
    base_branch_id: null,
    base_seq: null,
    parents: JSON.stringify(copyOf ? [copyOf.revisionId] : []),
    type: 'edits',
    variables: copyOf?.variables ?? '{}',
    merged_from: null,
    created_by: createdBy,
    created_at: now,
  });
  if (copyOf) await copyHeadVersions(db, copyOf.spaceId, spaceId);
  return revisionId;
}
