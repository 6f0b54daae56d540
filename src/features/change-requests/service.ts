import type { Static } from 'typebox';
import { type AppContext, type Caller, authorOf } from '../../platform/context.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { isoNow } from '../../platform/clock.ts';
import { recordEvent } from '../../platform/events.ts';
import { changeRequestPolicy } from './policy.ts';
import { loadSpace } from '../spaces/service.ts';
import { spaceIdsOf } from '../spaces/queries.ts';
import { OrgAccess } from '../access/service.ts';
import { assertOrganizationVisible } from '../organizations/policy.ts';
import { findRevision, lockBranch, startChangeRequestBranch } from '../content/revisions.ts';
import { presentChangeRequest } from './present.ts';
import { openCommentCountsOfChangeRequests, openCommentsOfChangeRequest } from '../comments/queries.ts';
import type { CreateChangeRequestBody, ListChangeRequestsQuery, UpdateChangeRequestBody } from './schemas.ts';
import { statusMoveRefusal } from './status.ts';
import { storedDescription } from './description.ts';
import {
  countChangeRequests,
  findChangeRequest,
  insertChangeRequest,
  listChangeRequests,
  listChangeRequestsAcrossSpaces,
  nextChangeRequestNumber,
  updateChangeRequest,
  type ChangeRequestFilter,
  type ChangeRequestView,
} from './store.ts';

/** A change request of a space the caller can read; 404 for either missing. */
export async function loadChangeRequest(ctx: AppContext, caller: Caller, spaceId: string, changeRequestId: string) {
  const loaded = await loadSpace(ctx, caller, spaceId);
  const cr = await findChangeRequest(ctx.db, loaded.space.id, changeRequestId);
  if (!cr) throw notFound(`No change request ${changeRequestId} in space ${spaceId}`);
  return { ...loaded, cr };
}

/**
 * createChangeRequest. `basedOn`, a revision of main's line (Git Sync, for a push made while main moved): the change
 * request starts from it rather than from main's head, so that merging it is a three-way merge against it.
 */
export async function createChangeRequest(ctx: AppContext, caller: Caller, spaceId: string, body: Static<typeof CreateChangeRequestBody>, basedOn?: string) {
  const { space, role } = await loadSpace(ctx, caller, spaceId);
  changeRequestPolicy.assert({ role, editMode: space.edit_mode }, 'create', 'Opening a change request');
  const now = isoNow(ctx.clock);
  const id = await ctx.db.transaction().execute(async (trx) => {
    // The main branch first, then the space row (the counter): the order every write to the space's content
    // takes, so a change request opened during a live write or a merge waits instead of deadlocking with it.
    const main = await lockBranch(trx, space.id);
    if (!main) throw notFound(`No content for space ${spaceId}`);
    const number = await nextChangeRequestNumber(trx, space.id);
    const baseRevision = await findRevision(trx, basedOn ?? main.head_revision_id);
    if (basedOn && (!baseRevision || baseRevision.branch_id !== main.id)) throw notFound(`No revision ${basedOn} on the main line of space ${spaceId}`);
    const base = basedOn ? { space_id: main.space_id, head_seq: baseRevision!.seq, head_revision_id: baseRevision!.id } : main;
    const id = newId();
    await startChangeRequestBranch(ctx, trx, id, base, baseRevision?.variables ?? '{}', authorOf(caller));
    await insertChangeRequest(trx, {
      id,
      space_id: space.id,
      number,
      status: 'open',
      subject: body.subject?.trim() ?? '',
      description: null,
      agent_task_id: body.agentTaskId ?? null,
      created_by: authorOf(caller),
      revision_initial: base.head_revision_id,
      revision_merged_ancestor: null,
      revision_merged: null,
      created_at: now,
      updated_at: now,
      merged_at: null,
    });
    await recordEvent(trx, ctx.clock, 'change_request_created', space.organization_id, { spaceId: space.id, changeRequestId: id, number });
    return id;
  });
  const cr = await findChangeRequest(ctx.db, space.id, id);
  return presentChangeRequest(ctx.config, cr!, space.revision_id, 0); // a new change request has no comments yet
}

export async function getChangeRequest(ctx: AppContext, caller: Caller, spaceId: string, changeRequestId: string) {
  const { space, cr } = await loadChangeRequest(ctx, caller, spaceId, changeRequestId);
  return presentChangeRequest(ctx.config, cr, space.revision_id, await openCommentsOfChangeRequest(ctx.db, cr.id));
}

export async function listChangeRequestsOfSpace(ctx: AppContext, caller: Caller, spaceId: string, query: Static<typeof ListChangeRequestsQuery>) {
  const { space } = await loadSpace(ctx, caller, spaceId);
  const filter: ChangeRequestFilter = { spaceId: space.id, status: query.status ?? 'open', creator: query.creator, contributor: query.contributor };
  const listKey = `change-requests:${space.id}:${filter.status}:${filter.creator ?? ''}:${filter.contributor ?? ''}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const [rows, count] = await Promise.all([listChangeRequests(ctx.db, filter, page), countChangeRequests(ctx.db, filter)]);
  const openComments = await openCommentCountsOfChangeRequests(ctx.db, rows.map((row) => row.id));
  return ctx.cursors.close(listKey, page, rows, count, (row) => [row.number], (row) => presentChangeRequest(ctx.config, row, space.revision_id, openComments.get(row.id) ?? 0));
}

/**
 * listChangeRequestsForOrganization: the change requests of every space of the organization the caller can
 * read (open ones by default), newest first.
 */
export async function listChangeRequestsOfOrganization(ctx: AppContext, caller: Caller, organizationId: string, query: Static<typeof ListChangeRequestsQuery>) {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertOrganizationVisible(access);
  const spaceIds = await spaceIdsOf(ctx.db, { organizationId, scope: await access.readableScope() });
  const filter: ChangeRequestFilter = { spaceIds, status: query.status ?? 'open', creator: query.creator, contributor: query.contributor };
  const listKey = `change-requests:org:${organizationId}:${filter.status}:${filter.creator ?? ''}:${filter.contributor ?? ''}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const [rows, count] = await Promise.all([listChangeRequestsAcrossSpaces(ctx.db, filter, page), countChangeRequests(ctx.db, filter)]);
  const openComments = await openCommentCountsOfChangeRequests(ctx.db, rows.map((row) => row.id));
  return ctx.cursors.close(
    listKey,
    page,
    rows,
    count,
    (row) => [row.created_at, row.id],
    (row) => presentChangeRequest(ctx.config, row, row.space_revision_id, openComments.get(row.id) ?? 0),
  );
}

export async function updateChangeRequestSettings(ctx: AppContext, caller: Caller, spaceId: string, changeRequestId: string, body: Static<typeof UpdateChangeRequestBody>) {
  const { space, role, cr } = await loadChangeRequest(ctx, caller, spaceId, changeRequestId);
  changeRequestPolicy.assert({ role, editMode: space.edit_mode }, 'update', 'Updating a change request');
  const description = body.description !== undefined ? storedDescription(body.description, 'body/description') : undefined;
  /** What the body changes on a change request in `status`; throws when the rules refuse it. */
  const changesFor = (status: string) => {
    const changes: { subject?: string; description?: string | null; status?: string; updated_at?: string } = {};
    if (body.status !== undefined && body.status !== status) {
      const refusal = statusMoveRefusal(status as 'open', body.status);
      if (refusal) throw conflict(refusal);
      changes.status = body.status;
    }
    if (body.subject !== undefined) {
      if (status === 'merged') throw conflict('Change request is merged; it can no longer change');
      changes.subject = body.subject.trim();
    }
    if (description !== undefined) {
      if (status === 'merged') throw conflict('Change request is merged; it can no longer change');
      changes.description = description;
    }
    return changes;
  };
  let updated: ChangeRequestView = cr;
  if (Object.keys(changesFor(cr.status)).length > 0) {
    const now = isoNow(ctx.clock);
    updated = await ctx.db.transaction().execute(async (trx) => {
      // A merge holds the change request's branch until it commits: waiting for the branch, then reading the status
      // again, keeps a change request merged meanwhile from being moved back to open.
      await lockBranch(trx, cr.id);
      const current = (await findChangeRequest(trx, space.id, cr.id)) ?? cr;
      const changes = changesFor(current.status);
      if (Object.keys(changes).length === 0) return current;
      changes.updated_at = now;
      await updateChangeRequest(trx, cr.id, changes);
      // The description's document is not copied into the event: whoever listens reads the change request.
      const { description: described, ...event } = changes;
      await recordEvent(trx, ctx.clock, 'change_request_updated', space.organization_id, {
        spaceId: space.id,
        changeRequestId: cr.id,
        ...event,
        ...(described !== undefined ? { descriptionChanged: true } : {}),
      });
      return { ...current, ...changes };
    });
  }
  return presentChangeRequest(ctx.config, updated, space.revision_id, await openCommentsOfChangeRequest(ctx.db, cr.id));
}
