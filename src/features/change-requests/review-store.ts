import type { ChangeRequestReviewersTable, ChangeRequestReviewsTable, Executor } from '../../db/types.ts';
import { keysetPage } from '../../db/keyset.ts';
import type { PageRequest } from '../../platform/pagination.ts';

export type ReviewRow = ChangeRequestReviewsTable;
export type RequestedReviewerRow = ChangeRequestReviewersTable;

/** A review with its reviewer and the person who asked for it, as the presenter needs them. */
const reviewsWithUsers = (db: Executor) =>
  db
    .selectFrom('change_request_reviews')
    .leftJoin('users as reviewer', 'reviewer.id', 'change_request_reviews.reviewer_id')
    .leftJoin('users as requester', 'requester.id', 'change_request_reviews.requested_by')
    .selectAll('change_request_reviews')
    .select([
      'reviewer.display_name as reviewer_name',
      'reviewer.email as reviewer_email',
      'reviewer.photo_url as reviewer_photo',
      'requester.display_name as requester_name',
      'requester.email as requester_email',
      'requester.photo_url as requester_photo',
    ]);

export type ReviewView = Awaited<ReturnType<typeof findReview>> & object;

export async function findReview(db: Executor, id: string) {
  return reviewsWithUsers(db).where('change_request_reviews.id', '=', id).executeTakeFirst();
}

export interface ReviewFilter {
  changeRequestId: string;
  outdated?: boolean | undefined;
}

function filteredReviews(db: Executor, filter: ReviewFilter) {
  let q = reviewsWithUsers(db).where('change_request_reviews.change_request_id', '=', filter.changeRequestId);
  if (filter.outdated !== undefined) q = q.where('change_request_reviews.outdated', '=', filter.outdated ? 1 : 0);
  return q;
}

/** Oldest first: a change request's reviews read as its history. */
export async function listReviews(db: Executor, filter: ReviewFilter, page: PageRequest) {
  return keysetPage(filteredReviews(db, filter), ['change_request_reviews.created_at', 'change_request_reviews.id'], 'asc', page).execute();
}

export async function countReviews(db: Executor, filter: ReviewFilter): Promise<number> {
  const row = await filteredReviews(db, filter)
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The reviews that still count for the merge rules. */
export async function currentReviews(db: Executor, changeRequestId: string) {
  return db
    .selectFrom('change_request_reviews')
    .select(['reviewer_id', 'status'])
    .where('change_request_id', '=', changeRequestId)
    .where('outdated', '=', 0)
    .execute();
}

export async function insertReview(db: Executor, row: ReviewRow): Promise<void> {
  await db.insertInto('change_request_reviews').values(row).execute();
}

/** A person's earlier reviews of a change request no longer count once they review again or are asked again. */
export async function markReviewsOutdated(db: Executor, changeRequestId: string, reviewerIds: readonly string[], now: string): Promise<void> {
  if (reviewerIds.length === 0) return;
  await db
    .updateTable('change_request_reviews')
    .set({ outdated: 1, updated_at: now })
    .where('change_request_id', '=', changeRequestId)
    .where('reviewer_id', 'in', [...reviewerIds])
    .where('outdated', '=', 0)
    .execute();
}

const requestsWithUsers = (db: Executor) =>
  db
    .selectFrom('change_request_reviewers')
    .leftJoin('users as reviewer', 'reviewer.id', 'change_request_reviewers.user_id')
    .leftJoin('users as requester', 'requester.id', 'change_request_reviewers.requested_by')
    .selectAll('change_request_reviewers')
    .select([
      'reviewer.display_name as reviewer_name',
      'reviewer.email as reviewer_email',
      'reviewer.photo_url as reviewer_photo',
      'requester.display_name as requester_name',
      'requester.email as requester_email',
      'requester.photo_url as requester_photo',
    ]);

export type RequestedReviewerView = Awaited<ReturnType<typeof listRequestedReviewers>>[number];

/** In the order they were asked; reviewers asked together by their id. */
export async function listRequestedReviewers(db: Executor, changeRequestId: string, page: PageRequest) {
  return keysetPage(
    requestsWithUsers(db).where('change_request_reviewers.change_request_id', '=', changeRequestId),
    ['change_request_reviewers.created_at', 'change_request_reviewers.user_id'],
    'asc',
    page,
  ).execute();
}

export async function requestedReviewersAmong(db: Executor, changeRequestId: string, userIds: readonly string[]) {
  if (userIds.length === 0) return [];
  return requestsWithUsers(db).where('change_request_reviewers.change_request_id', '=', changeRequestId).where('change_request_reviewers.user_id', 'in', [...userIds]).execute();
}

export async function countRequestedReviewers(db: Executor, changeRequestId: string): Promise<number> {
  const row = await db
    .selectFrom('change_request_reviewers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('change_request_id', '=', changeRequestId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Asking a person again renews the request: who asked, at which revision, and when. */
export async function upsertRequestedReviewer(db: Executor, row: RequestedReviewerRow): Promise<void> {
  await db
    .insertInto('change_request_reviewers')
    .values(row)
    .onConflict((oc) => oc.columns(['change_request_id', 'user_id']).doUpdateSet({ requested_by: row.requested_by, revision_id: row.revision_id, created_at: row.created_at }))
    .execute();
}

export async function findRequestedReviewer(db: Executor, changeRequestId: string, userId: string): Promise<RequestedReviewerRow | undefined> {
  return db.selectFrom('change_request_reviewers').selectAll().where('change_request_id', '=', changeRequestId).where('user_id', '=', userId).executeTakeFirst();
}

/** Whether a request was there to remove. */
export async function deleteRequestedReviewer(db: Executor, changeRequestId: string, userId: string): Promise<boolean> {
  const result = await db.deleteFrom('change_request_reviewers').where('change_request_id', '=', changeRequestId).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
