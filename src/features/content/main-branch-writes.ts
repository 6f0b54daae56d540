import type { Executor } from '../../db/types.ts';
import { type AppContext, type Caller, authorOf } from '../../platform/context.ts';
import { badRequest, forbidden, notFound } from '../../platform/errors.ts';
import { apiUrl } from '../../platform/urls.ts';
import { fileDownloadUrl } from '../files/service.ts';
import { isoNow } from '../../platform/clock.ts';
import { recordEvent } from '../../platform/events.ts';
import { announcePublication } from '../../platform/publications.ts';
import { announceContentWrite } from '../../platform/content-writes.ts';
import { assertCanEditLive } from '../spaces/policy.ts';
import type { StoredFile } from '../files/service.ts';
import { loadSpace } from '../spaces/service.ts';
import { findSpace, updateSpace, type SpaceRow } from '../spaces/queries.ts';
import { applyBatch, convertAhead, storeBatchFiles, validateChanges, type BatchResult } from './apply-changes.ts';
import { presentFile } from './present.ts';
import { findRevision, lockBranch, type RevisionRow } from './branch-store.ts';
import type { ContentChange } from './change-schemas.ts';
import { commitToBranch } from './commit-revision.ts';
import { TEMPLATE_IDS, templateChanges } from './templates.ts';

/** applyTemplateToSpace: a built-in template's pages are added to the space's content, as one live revision. */
export async function applyTemplate(ctx: AppContext, caller: Caller, spaceId: string, templateId: string): Promise<void> {
  const { space, role } = await loadSpace(ctx, caller, spaceId);
  assertCanEditLive(role, space.edit_mode);
  const changes = templateChanges(templateId);
  if (!changes) throw badRequest(`body/id: unknown template "${templateId}"; known templates: ${TEMPLATE_IDS.join(', ')}`);
  await commitLiveChanges(ctx, caller, space, changes, new Map(), { template: templateId });
}

/**
 * updateSpaceContent (Quire's; GitBook's API has no live write): the change request's batch of changes,
 * written straight to the space's main line as one revision, when the space takes live edits. A space whose
 * editMode is `change-requests` is edited through change requests only; a locked one not at all.
 */
export async function writeLiveContent(ctx: AppContext, caller: Caller, spaceId: string, changes: unknown[]) {
  const { space, role } = await loadSpace(ctx, caller, spaceId);
  assertCanEditLive(role, space.edit_mode);
  const valid = validateChanges(changes);
  const files = await storeBatchFiles(ctx, valid);
  const { revision, batch } = await commitLiveChanges(ctx, caller, space, valid, files);
  const pageRef = (id: string) => ({ object: 'page' as const, id, urls: { location: apiUrl(ctx.config, `/spaces/${space.id}/content/page/${id}`) } });
  return {
    revision: revision.id,
    changes: [
      ...batch.outcomes.map((o) =>
        o.object === 'deleted_page' ? { object: o.object, page: o.id } : { object: o.object, ...(o.object === 'created_page' && o.ref ? { ref: o.ref } : {}), page: pageRef(o.id) },
      ),
      ...batch.reusableContents.map((o) => ({ object: o.object, reusableContent: o.id })),
    ],
    insertedFiles: batch.insertedFiles.map((f) =>
      presentFile({ ...f.version, branch_id: space.id, file_id: f.id, from_seq: 0, to_seq: null, deleted: 0 }, fileDownloadUrl(ctx.config, f.version.blob_hash, f.version.name)),
    ),
    merged: batch.merged,
  };
}

/**
 * Writes a validated batch straight to a space's main branch as one revision (a live edit): the branch is locked,
 * the batch applied over its head, and the space pointed at the new revision, all in one transaction. The caller
 * has checked the caller's rights and stored the batch's file bytes (see storeBatchFiles) beforehand, since that
 * waits on the network. `event` adds to the payload of the recorded `space_content_updated` event.
 */
export async function commitLiveChanges(
  ctx: AppContext,
  caller: Caller,
  space: Pick<SpaceRow, 'id' | 'organization_id'>,
  changes: readonly ContentChange[],
  storedFiles: Map<string, StoredFile & { name: string }>,
  event: Record<string, unknown> = {},
  alsoWrite?: AlsoWrite,
): Promise<{ revision: RevisionRow; batch: BatchResult }> {
  const now = isoNow(ctx.clock);
  const conversions = await convertAhead(ctx, space.id, async (head) => head.id, changes, storedFiles, now);
  const written = await ctx.db.transaction().execute(async (trx) => {
    const branch = await lockBranch(trx, space.id);
    const head = branch && (await findRevision(trx, branch.head_revision_id));
    if (!branch || !head) throw notFound(`No content for space ${space.id}`);
    // Rights were checked before the caller's preparation, which may have waited on the network (an import):
    // a space locked or deleted meanwhile is not written.
    const current = await findSpace(trx, space.id);
    if (!current || current.deleted_at) throw notFound(`No space ${space.id}`);
    if (current.edit_mode === 'locked') throw forbidden('The space was locked meanwhile: an admin must set editMode to "live" before its content can change');
    const batch = await applyBatch(ctx, trx, head, head.id, changes, storedFiles, now, { conversions });
    const revision = await commitToBranch(ctx, trx, branch, head, { pages: batch.pages, files: batch.files, type: 'edits', createdBy: authorOf(caller) });
    await updateSpace(trx, space.id, { revision_id: revision.id, updated_at: now });
    await recordEvent(trx, ctx.clock, 'space_content_updated', space.organization_id, { ...event, spaceId: space.id, revisionId: revision.id });
    await alsoWrite?.(trx, { revision, batch });
    return { revision, batch };
  });
  announcePublication(ctx.db, { kind: 'space', organizationId: space.organization_id, spaceId: space.id, revisionId: written.revision.id });
  announceContentWrite(ctx.db, { spaceId: space.id, changeRequestId: null, revisionId: written.revision.id, pageIds: written.batch.outcomes.map((o) => o.id) });
  return written;
}

/** More writes of the caller that belong in the write's transaction (an import run's result), or that veto it by throwing. */
export type AlsoWrite = (trx: Executor, written: { revision: RevisionRow; batch: BatchResult }) => Promise<void>;
