import { type AppContext, type Caller, authorOf } from '../../platform/context.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { isoNow } from '../../platform/clock.ts';
import { apiUrl } from '../../platform/urls.ts';
import { recordEvent } from '../../platform/events.ts';
import { announceContentWrite } from '../../platform/content-writes.ts';
import { loadChangeRequest } from '../change-requests/service.ts';
import { changeRequestPolicy } from '../change-requests/policy.ts';
import type { Role } from '../access/roles.ts';
import { presentChangeRequest, baseRevisionOf } from '../change-requests/present.ts';
import { openCommentsOfChangeRequest } from '../comments/queries.ts';
import { findChangeRequest, updateChangeRequest, type ChangeRequestView } from '../change-requests/queries.ts';
import { fileDownloadUrl, type StoredFile } from '../files/service.ts';
import type { SpaceRow } from '../spaces/queries.ts';
import { applyBatch, convertAhead, storeBatchFiles, validateChanges, type BatchResult } from './apply-changes.ts';
import { findRevision, lockBranch, type RevisionRow } from './branch-store.ts';
import type { ContentChange } from './change-schemas.ts';
import { commitToBranch } from './commit-revision.ts';
import type { AlsoWrite } from './main-branch-writes.ts';
import { presentFile } from './present.ts';

/**
 * updateChangeRequestContent: a batch of up to 50 changes applied atomically as ONE new revision of the change
 * request. Every change is validated first; any invalid one rejects the whole batch and nothing is written.
 */
export async function writeChangeRequestContent(ctx: AppContext, caller: Caller, spaceId: string, changeRequestId: string, changes: unknown[], compat: boolean) {
  const { space, role, cr } = await loadChangeRequest(ctx, caller, spaceId, changeRequestId);
  assertCanWriteChangeRequest(role, space, cr);
  const valid = validateChanges(changes);
  const files = await storeBatchFiles(ctx, valid);
  const { batch: result, revision } = await commitChangeRequestChanges(ctx, caller, space, cr, valid, files);

  const updated = await findChangeRequest(ctx.db, space.id, cr.id);
  const changeRequest = presentChangeRequest(ctx.config, updated!, space.revision_id, await openCommentsOfChangeRequest(ctx.db, cr.id));
  if (compat) return changeRequest;
  const pageRef = (id: string) => ({ object: 'page' as const, id, urls: { location: apiUrl(ctx.config, `/spaces/${space.id}/change-requests/${cr.id}/content/page/${id}`) } });
  return {
    changeRequest,
    changes: [
      ...result.outcomes.map((o) =>
        o.object === 'deleted_page'
          ? { object: o.object, page: o.id }
          : { object: o.object, ...(o.object === 'created_page' && o.ref ? { ref: o.ref } : {}), page: pageRef(o.id) },
      ),
      ...result.reusableContents.map((o) => ({ object: o.object, reusableContent: o.id })),
    ],
    insertedFiles: result.insertedFiles.map((f) =>
      presentFile({ ...f.version, branch_id: cr.id, file_id: f.id, from_seq: 0, to_seq: null, deleted: 0 }, fileDownloadUrl(ctx.config, f.version.blob_hash, f.version.name)),
    ),
    // Quire's: the revision written (the base of the next save) and the documents merged with edits made since a save's base.
    revision: revision.id,
    merged: result.merged,
  };
}

/** Whether the caller may change the content of this change request now: the edit role, and a CR still open to edits. */
export function assertCanWriteChangeRequest(role: Role | null, space: Pick<SpaceRow, 'edit_mode'>, cr: Pick<ChangeRequestView, 'status'>): void {
  changeRequestPolicy.assert({ role, editMode: space.edit_mode }, 'editContent', 'Editing the content of this space');
  assertOpenToEdits(cr.status);
}

function assertOpenToEdits(status: string): void {
  if (status === 'merged') throw conflict('The change request is merged; open a new one to change the content');
  if (status === 'archived') throw conflict('The change request is archived; reopen it (status "open") to change its content');
}

/**
 * Writes a validated batch to a change request as ONE new revision, in one transaction. The caller has checked
 * the rights (assertCanWriteChangeRequest) and stored the batch's file bytes beforehand (storeBatchFiles); the
 * status is checked again under the branch lock, since a merge may have landed meanwhile (an import waits on
 * the network for a while between the two).
 */
export async function commitChangeRequestChanges(
  ctx: AppContext,
  caller: Caller,
  space: Pick<SpaceRow, 'id' | 'organization_id'>,
  cr: Pick<ChangeRequestView, 'id'>,
  changes: readonly ContentChange[],
  storedFiles: Map<string, StoredFile & { name: string }>,
  alsoWrite?: AlsoWrite,
): Promise<{ revision: RevisionRow; batch: BatchResult }> {
  const now = isoNow(ctx.clock);
  const base = async () => {
    const found = await findChangeRequest(ctx.db, space.id, cr.id);
    return found && baseRevisionOf(found);
  };
  const conversions = await convertAhead(ctx, cr.id, base, changes, storedFiles, now);
  const written = await ctx.db.transaction().execute(async (trx) => {
    const branch = await lockBranch(trx, cr.id);
    if (!branch) throw notFound(`No content for change request ${cr.id}`);
    const current = await findChangeRequest(trx, space.id, cr.id);
    if (!current) throw notFound(`No change request ${cr.id} in space ${space.id}`);
    assertOpenToEdits(current.status);
    const head = await findRevision(trx, branch.head_revision_id);
    if (!head) throw notFound(`No content for change request ${cr.id}`);
    const batch = await applyBatch(ctx, trx, head, baseRevisionOf(current), changes, storedFiles, now, { conversions });
    const revision = await commitToBranch(ctx, trx, branch, head, { pages: batch.pages, files: batch.files, type: 'edits', createdBy: authorOf(caller) });
    await updateChangeRequest(trx, cr.id, { updated_at: now });
    await recordEvent(trx, ctx.clock, 'change_request_content_updated', space.organization_id, { spaceId: space.id, changeRequestId: cr.id, revisionId: revision.id });
    await alsoWrite?.(trx, { revision, batch });
    return { revision, batch };
  });
  announceContentWrite(ctx.db, { spaceId: space.id, changeRequestId: cr.id, revisionId: written.revision.id, pageIds: written.batch.outcomes.map((o) => o.id) });
  return written;
}
