import type { ChangeRequestsTable, Executor } from '../../db/types.ts';
import { keysetPage } from '../../db/keyset.ts';
import type { PageRequest } from '../../platform/pagination.ts';

export type ChangeRequestRow = ChangeRequestsTable;

export interface ChangeRequestFilter {
  /** One space's change requests; or, with `spaceIds`, those of several (an organization's readable spaces). */
  spaceId?: string;
  spaceIds?: readonly string[];
  status: string;
  creator?: string | undefined;
  contributor?: string | undefined;
}

const withUser = (db: Executor) =>
  db
    .selectFrom('change_requests')
    .leftJoin('users', 'users.id', 'change_requests.created_by')
    .leftJoin('branches', 'branches.id', 'change_requests.id')
    // Who merged it is who made the merge revision.
    .leftJoin('revisions as merge_revision', 'merge_revision.id', 'change_requests.revision_merged')
    .leftJoin('users as merger', 'merger.id', 'merge_revision.created_by')
    .selectAll('change_requests')
    .select([
      'users.display_name as creator_name',
      'users.email as creator_email',
      'users.photo_url as creator_photo',
      'branches.head_revision_id',
      'branches.base_seq',
      'merge_revision.created_by as merged_by',
      'merger.display_name as merger_name',
      'merger.email as merger_email',
      'merger.photo_url as merger_photo',
    ]);

export type ChangeRequestView = Awaited<ReturnType<typeof findChangeRequest>> & object;

/** A change request of a space by id or by number (the API accepts either). */
export async function findChangeRequest(db: Executor, spaceId: string, idOrNumber: string) {
  let q = withUser(db).where('change_requests.space_id', '=', spaceId);
  q = /^\d{1,9}$/.test(idOrNumber)
    ? q.where((eb) => eb.or([eb('change_requests.number', '=', Number(idOrNumber)), eb('change_requests.id', '=', idOrNumber)]))
    : q.where('change_requests.id', '=', idOrNumber);
  return q.executeTakeFirst();
}

export async function insertChangeRequest(db: Executor, row: ChangeRequestRow): Promise<void> {
  await db.insertInto('change_requests').values(row).execute();
}

export async function updateChangeRequest(db: Executor, id: string, changes: Partial<ChangeRequestRow>): Promise<void> {
  await db.updateTable('change_requests').set(changes).where('id', '=', id).execute();
}

/** Next number of a space's change requests; the update locks the space row until the transaction ends. */
export async function nextChangeRequestNumber(db: Executor, spaceId: string): Promise<number> {
  const row = await db
    .updateTable('spaces')
    .set((eb) => ({ change_request_counter: eb('change_request_counter', '+', 1) }))
    .where('id', '=', spaceId)
    .returning('change_request_counter')
    .executeTakeFirstOrThrow();
  return Number(row.change_request_counter);
}

function filtered(db: Executor, filter: ChangeRequestFilter) {
  let q = withUser(db).where('change_requests.status', '=', filter.status);
  if (filter.spaceId !== undefined) q = q.where('change_requests.space_id', '=', filter.spaceId);
  if (filter.spaceIds !== undefined) q = filter.spaceIds.length === 0 ? q.where((eb) => eb.val(1), '=', 0) : q.where('change_requests.space_id', 'in', [...filter.spaceIds]);
  if (filter.creator) q = q.where('change_requests.created_by', '=', filter.creator);
  if (filter.contributor) {
    const contributor = filter.contributor;
    q = q.where((eb) =>
      eb.or([
        eb('change_requests.created_by', '=', contributor),
        eb.exists(
          eb
            .selectFrom('revisions')
            .select('revisions.id')
            .whereRef('revisions.branch_id', '=', 'change_requests.id')
            .where('revisions.created_by', '=', contributor),
        ),
      ]),
    );
  }
  return q;
}

/** Newest first. */
export async function listChangeRequests(db: Executor, filter: ChangeRequestFilter, page: PageRequest) {
  return keysetPage(filtered(db, filter), ['change_requests.number'], 'desc', page).execute();
}

/** Change requests of several spaces, newest first, with each space's current revision (what a presenter needs). */
export async function listChangeRequestsAcrossSpaces(db: Executor, filter: ChangeRequestFilter, page: PageRequest) {
  const query = filtered(db, filter).innerJoin('spaces', 'spaces.id', 'change_requests.space_id').select('spaces.revision_id as space_revision_id');
  return keysetPage(query, ['change_requests.created_at', 'change_requests.id'], 'desc', page).execute();
}

export async function countChangeRequests(db: Executor, filter: ChangeRequestFilter): Promise<number> {
  const row = await filtered(db, filter)
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}


/**
 * Who contributed to a change request, with their user, one grouped query per kind: the revisions of its branch
 * (opening it, each content change, each update from main) are edits; its comments and their replies, comments.
 */
export async function contributorsOf(db: Executor, changeRequestId: string) {
  const user = ['users.id as user_id', 'users.display_name', 'users.email', 'users.photo_url'] as const;
  const grouping = ['users.id', 'users.display_name', 'users.email', 'users.photo_url'] as const;
  const edits = db
    .selectFrom('revisions')
    .innerJoin('users', 'users.id', 'revisions.created_by')
    .where('revisions.branch_id', '=', changeRequestId)
    .select(user)
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.max('revisions.created_at').as('updated_at')])
    .groupBy(grouping);
  const comments = db
    .selectFrom('comments')
    .innerJoin('users', 'users.id', 'comments.author_id')
    .where('comments.change_request_id', '=', changeRequestId)
    .select(user)
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.max('comments.posted_at').as('updated_at')])
    .groupBy(grouping);
  const replies = db
    .selectFrom('comment_replies')
    .innerJoin('comments', 'comments.id', 'comment_replies.comment_id')
    .innerJoin('users', 'users.id', 'comment_replies.author_id')
    .where('comments.change_request_id', '=', changeRequestId)
    .select(user)
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.max('comment_replies.posted_at').as('updated_at')])
    .groupBy(grouping);
  const [editRows, commentRows, replyRows] = await Promise.all([edits.execute(), comments.execute(), replies.execute()]);
  return { edits: editRows, comments: [...commentRows, ...replyRows] };
}

export type ContributionRow = Awaited<ReturnType<typeof contributorsOf>>['edits'][number];
