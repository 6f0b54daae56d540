import { writeNotices } from '../notifications/service.ts';
import type { Static } from 'typebox';
import type { Executor } from '../../db/types.ts';
import { type AppContext, type Caller, personOf } from '../../platform/context.ts';
import { badRequest, conflict, forbidden, isNotFound, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { isoNow } from '../../platform/clock.ts';
import { recordEvent } from '../../platform/events.ts';
import { OrgAccess } from '../access/service.ts';
import { lockBranch } from '../content/revisions.ts';
import { changeRequestPolicy } from './policy.ts';
import { storedDescription } from './description.ts';
import { presentRequestedReviewer, presentReview } from './present.ts';
import type { ListReviewsQuery, RequestReviewersBody, SubmitReviewBody } from './schemas.ts';
import { loadChangeRequest } from './service.ts';
import { insertNewComment, newComment, openThread, presentNewComment, presentThreadComments } from '../comments/service.ts';
import { findChangeRequest, updateChangeRequest, type ChangeRequestView } from './store.ts';
import {
  countRequestedReviewers,
  countReviews,
  deleteRequestedReviewer,
  findRequestedReviewer,
  findReview,
  insertReview,
  listRequestedReviewers,
  listReviews,
  markReviewsOutdated,
  requestedReviewersAmong,
  upsertRequestedReviewer,
} from './review-store.ts';

/** Reviews and review requests are for change requests still under way. */
function assertReviewable(status: string, doing: string): void {
  if (status === 'merged' || status === 'archived') throw conflict(`${doing} is refused: the change request is ${status}`);
}

/**
 * Locks the change request's branch (a merge holds it until it commits) and reads the change request again, so a
 * review or request cannot land on a change request merged meanwhile.
 */
async function lockedChangeRequest(trx: Executor, cr: ChangeRequestView, doing: string) {
  const branch = await lockBranch(trx, cr.id);
  const current = await findChangeRequest(trx, cr.space_id, cr.id);
  if (!branch || !current) throw notFound(`No change request ${cr.id}`);
  assertReviewable(current.status, doing);
  return { current, head: branch.head_revision_id };
}

/** getReviewsByChangeRequestId: oldest first, current and outdated ones (or either with `outdated`). */
export async function listChangeRequestReviews(ctx: AppContext, caller: Caller, spaceId: string, changeRequestId: string, query: Static<typeof ListReviewsQuery>) {
  const { cr } = await loadChangeRequest(ctx, caller, spaceId, changeRequestId);
  const filter = { changeRequestId: cr.id, outdated: query.outdated };
  const listKey = `reviews:${cr.id}:${query.outdated ?? ''}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const [rows, count] = await Promise.all([listReviews(ctx.db, filter, page), countReviews(ctx.db, filter)]);
  // The comments of the page's reviews, presented together for the caller as the discussion shows them.
  const commentIds = rows.flatMap((row) => (row.comment_id ? [row.comment_id] : []));
  const comments = commentIds.length > 0 ? await presentThreadComments(ctx, await openThread(ctx, caller, { spaceId, changeRequestId: cr.id }), commentIds, query.format) : new Map();
  return ctx.cursors.close(listKey, page, rows, count, (row) => [row.created_at, row.id], (row) => presentReview(ctx.config, cr.space_id, row, row.comment_id ? comments.get(row.comment_id) : undefined));
}

/** getChangeRequestReviewById: one review of the change request, current or outdated, with its comment in `format`. */
export async function getChangeRequestReview(ctx: AppContext, caller: Caller, spaceId: string, changeRequestId: string, reviewId: string, format: Static<typeof ListReviewsQuery>['format']) {
  const { cr } = await loadChangeRequest(ctx, caller, spaceId, changeRequestId);
  const review = await findReview(ctx.db, reviewId);
  if (!review || review.change_request_id !== cr.id) throw notFound(`No review ${reviewId} of change request ${changeRequestId}`);
  const comments = review.comment_id ? await presentThreadComments(ctx, await openThread(ctx, caller, { spaceId, changeRequestId: cr.id }), [review.comment_id], format) : undefined;
  return presentReview(ctx.config, cr.space_id, review, review.comment_id ? comments?.get(review.comment_id) : undefined);
}

/**
 * submitChangeRequestReview: the caller (a person with the space's `review` role, not the change request's
 * author) approves the change request as it is now, or asks for changes, with a comment if they like. Their
 * earlier reviews no longer count, and a request to them is answered (the review keeps who asked).
 */
export async function submitChangeRequestReview(ctx: AppContext, caller: Caller, spaceId: string, changeRequestId: string, body: Static<typeof SubmitReviewBody>) {
  const reviewerId = personOf(caller);
  const { space, role, cr } = await loadChangeRequest(ctx, caller, spaceId, changeRequestId);
  changeRequestPolicy.assert({ role, editMode: space.edit_mode }, 'review', 'Reviewing a change request');
  if (cr.created_by === reviewerId) throw forbidden('Reviewing a change request is refused to its author: ask another member for a review');
  assertReviewable(cr.status, 'Reviewing a change request');
  // A comment given with the review is posted in the change request's discussion, in the review's write.
  const thread = body.comment !== undefined ? await openThread(ctx, caller, { spaceId, changeRequestId: cr.id }) : undefined;
  const comment = thread && body.comment ? await newComment(ctx, caller, thread, { body: body.comment }, 'body/comment') : undefined;
  const now = isoNow(ctx.clock);
  const id = newId();
  await ctx.db.transaction().execute(async (trx) => {
    const { head } = await lockedChangeRequest(trx, cr, 'Reviewing a change request');
    if (thread && comment) await insertNewComment(ctx, trx, thread, comment.row, comment.notices);
    const request = await findRequestedReviewer(trx, cr.id, reviewerId);
    await markReviewsOutdated(trx, cr.id, [reviewerId], now);
    await insertReview(trx, {
      id,
      change_request_id: cr.id,
      reviewer_id: reviewerId,
      requested_by: request?.requested_by ?? null,
      status: body.status,
      revision_id: head,
      outdated: 0,
      comment_id: comment?.row.id ?? null,
      created_at: now,
      updated_at: now,
    });
    if (request) await deleteRequestedReviewer(trx, cr.id, reviewerId);
    await recordEvent(trx, ctx.clock, 'change_request_review_submitted', space.organization_id, {
      spaceId: space.id,
      changeRequestId: cr.id,
      reviewId: id,
      reviewerId,
      status: body.status,
      ...(request ? { requestedBy: request.requested_by } : {}),
    });
  });
  return presentReview(ctx.config, space.id, (await findReview(ctx.db, id))!, thread && comment ? await presentNewComment(ctx, thread, comment.view, undefined) : undefined);
}

/** getRequestedReviewersByChangeRequestId: the requests not answered yet, in the order they were made. */
export async function listChangeRequestRequestedReviewers(ctx: AppContext, caller: Caller, spaceId: string, changeRequestId: string, query: { page?: string; limit?: number }) {
  const { cr } = await loadChangeRequest(ctx, caller, spaceId, changeRequestId);
  const listKey = `requested-reviewers:${cr.id}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const [rows, count] = await Promise.all([listRequestedReviewers(ctx.db, cr.id, page), countRequestedReviewers(ctx.db, cr.id)]);
  return ctx.cursors.close(listKey, page, rows, count, (row) => [row.created_at, row.user_id], (row) => presentRequestedReviewer(ctx.config, row));
}

/**
 * requestReviewersForChangeRequest: asks people (who may review the space) to review the change request, and may
 * rename it in the same write. Asking someone again renews their request and makes their earlier reviews
 * outdated: they are asked about the change request as it is now.
 */
export async function requestChangeRequestReviewers(ctx: AppContext, caller: Caller, spaceId: string, changeRequestId: string, body: Static<typeof RequestReviewersBody>) {
  const requesterId = personOf(caller);
  const { space, role, cr } = await loadChangeRequest(ctx, caller, spaceId, changeRequestId);
  changeRequestPolicy.assert({ role, editMode: space.edit_mode }, 'requestReview', 'Asking for reviews of a change request');
  const description = body.description !== undefined ? storedDescription(body.description, 'body/description') : undefined;
  if ((body.subject !== undefined || description !== undefined) && cr.status === 'merged') throw conflict('Change request is merged; it can no longer change');
  assertReviewable(cr.status, 'Asking for reviews');
  const users = [...new Set(body.users)];
  for (const userId of users) {
    const field = `body/users/${body.users.indexOf(userId)}`;
    if (userId === cr.created_by) throw badRequest(`${field}: "${userId}" is the author of the change request, who cannot review it`);
    // Whoever is asked must be able to answer: a member holding the space's `review` role (grants included).
    const access = await OrgAccess.loadForUser(ctx.db, space.organization_id, userId);
    if (!changeRequestPolicy.can({ role: await access.roleOn(space), editMode: space.edit_mode }, 'review')) throw badRequest(`${field}: "${userId}" cannot review this space (a member with the review role on it is needed)`);
  }
  const now = isoNow(ctx.clock);
  await ctx.db.transaction().execute(async (trx) => {
    const { head } = await lockedChangeRequest(trx, cr, 'Asking for reviews');
    for (const userId of users) await upsertRequestedReviewer(trx, { change_request_id: cr.id, user_id: userId, requested_by: requesterId, revision_id: head, created_at: now });
    await markReviewsOutdated(trx, cr.id, users, now);
    const subject = body.subject?.trim();
    if (subject !== undefined || description !== undefined) {
      await updateChangeRequest(trx, cr.id, { ...(subject !== undefined ? { subject } : {}), ...(description !== undefined ? { description } : {}), updated_at: now });
    }
    await recordEvent(trx, ctx.clock, 'change_request_reviewers_requested', space.organization_id, { spaceId: space.id, changeRequestId: cr.id, requestedBy: requesterId, users });
    const place = { organizationId: space.organization_id, space, changeRequest: { id: cr.id, number: cr.number, subject: subject ?? cr.subject } };
    await writeNotices(ctx, trx, users.map((userId) => ({ userId, kind: 'review_requested' as const, actorId: requesterId, place, what: 'asked you to review' })));
  });
  const rows = await requestedReviewersAmong(ctx.db, cr.id, users);
  const order = new Map(users.map((id, i) => [id, i]));
  rows.sort((a, b) => order.get(a.user_id)! - order.get(b.user_id)!);
  return { users: rows.map((row) => presentRequestedReviewer(ctx.config, row)) };
}

/** removeRequestedReviewerFromChangeRequest: true when a request was removed (205), false when there was none (204). */
export async function removeChangeRequestReviewer(ctx: AppContext, caller: Caller, spaceId: string, changeRequestId: string, userId: string): Promise<boolean> {
  const removerId = personOf(caller);
  // What the caller cannot see is, for them, already gone: a DELETE answers as if there were nothing to remove.
  const loaded = await loadChangeRequest(ctx, caller, spaceId, changeRequestId).catch((error: unknown) => {
    if (isNotFound(error)) return undefined;
    throw error;
  });
  if (!loaded) return false;
  const { space, role, cr } = loaded;
  changeRequestPolicy.assert({ role, editMode: space.edit_mode }, 'requestReview', 'Removing a reviewer from a change request');
  return ctx.db.transaction().execute(async (trx) => {
    const removed = await deleteRequestedReviewer(trx, cr.id, userId);
    if (removed) await recordEvent(trx, ctx.clock, 'change_request_reviewer_removed', space.organization_id, { spaceId: space.id, changeRequestId: cr.id, userId, removedBy: removerId });
    return removed;
  });
}
