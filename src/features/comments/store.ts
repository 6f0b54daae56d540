import { sql } from 'kysely';
import type { CommentRepliesTable, CommentsTable, Executor } from '../../db/types.ts';
import { isPostgres } from '../../db/dialect.ts';
import { keysetPage } from '../../db/keyset.ts';
import { preparedInsert } from '../../db/prepared-insert.ts';
import type { PageRequest } from '../../platform/pagination.ts';

export type CommentRow = CommentsTable;
export type ReplyRow = CommentRepliesTable;

/** Where a comment lives: a space's own content (changeRequestId null) or one change request. */
export interface Thread {
  spaceId: string;
  changeRequestId: string | null;
}

export interface CommentFilter extends Thread {
  status?: 'open' | 'resolved' | undefined;
  pageId?: string | undefined;
  authors?: readonly string[] | undefined;
}

function inThread<QB extends { where: (...args: never[]) => unknown }>(q: QB, thread: Thread): QB;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function inThread(q: any, thread: Thread) {
  q = q.where('comments.space_id', '=', thread.spaceId);
  return thread.changeRequestId === null ? q.where('comments.change_request_id', 'is', null) : q.where('comments.change_request_id', '=', thread.changeRequestId);
}

const commentsWithUsers = (db: Executor) =>
  db
    .selectFrom('comments')
    .leftJoin('users as author', 'author.id', 'comments.author_id')
    .leftJoin('users as resolver', 'resolver.id', 'comments.resolved_by')
    .selectAll('comments')
    .select([
      'author.display_name as author_name',
      'author.email as author_email',
      'author.photo_url as author_photo',
      'resolver.display_name as resolver_name',
      'resolver.email as resolver_email',
      'resolver.photo_url as resolver_photo',
      // Read with the comment (one indexed count each) rather than by a query of its own for a page of comments.
      (eb) => eb.selectFrom('comment_replies').select(eb.fn.countAll<number | string>().as('n')).whereRef('comment_replies.comment_id', '=', 'comments.id').as('reply_count'),
    ]);

export type CommentView = Awaited<ReturnType<typeof findComment>> & object;

export async function findComment(db: Executor, thread: Thread, id: string) {
  return inThread(commentsWithUsers(db).where('comments.id', '=', id), thread).executeTakeFirst();
}

/** Comments of a thread by id, for what names them (the reviews of a change request). */
export async function findComments(db: Executor, thread: Thread, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return inThread(commentsWithUsers(db).where('comments.id', 'in', [...ids]), thread).execute();
}

/**
 * The comment row, locked until the transaction ends: `update` for changes to the comment itself, `share` for
 * what hangs on it (replies, reactions), which may then go in parallel while a delete waits. SQLite has a
 * single writer already.
 */
export async function lockComment(db: Executor, thread: Thread, id: string, mode: 'update' | 'share'): Promise<CommentRow | undefined> {
  let query = inThread(db.selectFrom('comments').selectAll().where('id', '=', id), thread);
  if (isPostgres(db)) query = query.modifyEnd(mode === 'update' ? sql`for update` : sql`for share`);
  return query.executeTakeFirst();
}

const insertCommentRow = preparedInsert('comments', [
  'id',
  'space_id',
  'change_request_id',
  'author_id',
  'body',
  'status',
  'revision_id',
  'page_id',
  'page_title',
  'page_path',
  'page_document_id',
  'node_id',
  'node_preview',
  'table_cell',
  'posted_at',
  'edited_at',
  'resolved_at',
  'resolved_by',
]);

export async function insertComment(db: Executor, row: CommentRow): Promise<void> {
  await insertCommentRow(db, row);
}

export async function updateComment(db: Executor, id: string, changes: Partial<CommentRow>): Promise<void> {
  await db.updateTable('comments').set(changes).where('id', '=', id).execute();
}

/** Its replies and reactions go with it (foreign keys cascade). */
export async function deleteComment(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('comments').where('id', '=', id).execute();
}

/** The filter's conditions on a query over `comments` (with or without its users joined). */
function withFilter<QB extends { where: (...args: never[]) => unknown }>(q: QB, filter: CommentFilter): QB;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function withFilter(q: any, filter: CommentFilter) {
  q = inThread(q, filter);
  if (filter.status) q = q.where('comments.status', '=', filter.status);
  if (filter.pageId !== undefined) q = q.where('comments.page_id', '=', filter.pageId);
  if (filter.authors && filter.authors.length > 0) q = q.where('comments.author_id', 'in', filter.authors);
  return q;
}

function filtered(db: Executor, filter: CommentFilter) {
  return withFilter(commentsWithUsers(db), filter);
}

export const COMMENT_SORT_KEY = ['comments.posted_at', 'comments.id'] as const;

export async function listComments(db: Executor, filter: CommentFilter, order: 'asc' | 'desc', page: PageRequest) {
  return keysetPage(filtered(db, filter), COMMENT_SORT_KEY, order, page).execute();
}

export async function countComments(db: Executor, filter: CommentFilter): Promise<number> {
  // Counted on the comments alone: the users joined for a page of comments do not change how many there are.
  const row = await withFilter(db.selectFrom('comments').select((eb) => eb.fn.countAll<number>().as('n')), filter).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Replies per comment, for a page of comments at once. */
export async function replyCounts(db: Executor, commentIds: readonly string[]): Promise<Map<string, number>> {
  if (commentIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('comment_replies')
    .select(['comment_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('comment_id', 'in', commentIds)
    .groupBy('comment_id')
    .execute();
  return new Map(rows.map((r) => [r.comment_id, Number(r.n)]));
}

/** Open comments of each change request, in one query. */
export async function openCommentCountsOfChangeRequests(db: Executor, changeRequestIds: readonly string[]): Promise<Map<string, number>> {
  if (changeRequestIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('comments')
    .select(['change_request_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('change_request_id', 'in', changeRequestIds)
    .where('status', '=', 'open')
    .groupBy('change_request_id')
    .execute();
  return new Map(rows.map((r) => [r.change_request_id!, Number(r.n)]));
}

// ---------------------------------------------------------------- replies

const repliesWithUsers = (db: Executor) =>
  db
    .selectFrom('comment_replies')
    .leftJoin('users as author', 'author.id', 'comment_replies.author_id')
    .selectAll('comment_replies')
    .select(['author.display_name as author_name', 'author.email as author_email', 'author.photo_url as author_photo']);

export type ReplyView = Awaited<ReturnType<typeof findReply>> & object;

export async function findReply(db: Executor, commentId: string, id: string) {
  return repliesWithUsers(db).where('comment_replies.comment_id', '=', commentId).where('comment_replies.id', '=', id).executeTakeFirst();
}

export async function lockReply(db: Executor, commentId: string, id: string): Promise<ReplyRow | undefined> {
  let query = db.selectFrom('comment_replies').selectAll().where('comment_id', '=', commentId).where('id', '=', id);
  if (isPostgres(db)) query = query.modifyEnd(sql`for update`);
  return query.executeTakeFirst();
}

export async function insertReply(db: Executor, row: ReplyRow): Promise<void> {
  await db.insertInto('comment_replies').values(row).execute();
}

export async function updateReply(db: Executor, id: string, changes: Partial<ReplyRow>): Promise<void> {
  await db.updateTable('comment_replies').set(changes).where('id', '=', id).execute();
}

export async function deleteReply(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('comment_reactions').where('subject_id', '=', id).execute();
  await db.deleteFrom('comment_replies').where('id', '=', id).execute();
}

/** Oldest first: a thread reads in the order it was written. */
export async function listReplies(db: Executor, commentId: string, page: PageRequest) {
  return keysetPage(repliesWithUsers(db).where('comment_replies.comment_id', '=', commentId), ['comment_replies.posted_at', 'comment_replies.id'], 'asc', page).execute();
}

// ---------------------------------------------------------------- reactions

/** Adds the user's reaction per emoji; one already there stays as it was (and keeps its time). */
export async function addReactions(db: Executor, subject: { id: string; commentId: string }, emojis: readonly string[], userId: string, now: string): Promise<void> {
  if (emojis.length === 0) return;
  await db
    .insertInto('comment_reactions')
    .values(emojis.map((emoji) => ({ subject_id: subject.id, comment_id: subject.commentId, emoji, user_id: userId, reacted_at: now })))
    .onConflict((oc) => oc.columns(['subject_id', 'emoji', 'user_id']).doNothing())
    .execute();
}

export async function removeReactions(db: Executor, subjectId: string, emojis: readonly string[], userId: string): Promise<void> {
  if (emojis.length === 0) return;
  await db.deleteFrom('comment_reactions').where('subject_id', '=', subjectId).where('user_id', '=', userId).where('emoji', 'in', emojis).execute();
}

export type ReactionView = Awaited<ReturnType<typeof reactionsOf>>[number];

/** Every reaction to these comments or replies, with who reacted, in the order they came (ties in a fixed order). */
/**
 * Who replied to each of these comments: one row per comment and person, with how many replies they wrote and
 * when they last did (the official Comment's `repliers`), in one grouped query for a page of comments.
 */
export async function repliersOf(db: Executor, commentIds: readonly string[]) {
  if (commentIds.length === 0) return [];
  return db
    .selectFrom('comment_replies')
    .innerJoin('users', 'users.id', 'comment_replies.author_id')
    .select((eb) => [
      'comment_replies.comment_id',
      'comment_replies.author_id',
      'users.display_name',
      'users.email',
      'users.photo_url',
      eb.fn.countAll<number | string>().as('count'),
      eb.fn.max('comment_replies.posted_at').as('last_posted_at'),
    ])
    .where('comment_replies.comment_id', 'in', commentIds)
    .groupBy(['comment_replies.comment_id', 'comment_replies.author_id', 'users.display_name', 'users.email', 'users.photo_url'])
    .orderBy('last_posted_at')
    .orderBy('comment_replies.author_id')
    .execute();
}

export type ReplierView = Awaited<ReturnType<typeof repliersOf>>[number];

export async function reactionsOf(db: Executor, subjectIds: readonly string[]) {
  if (subjectIds.length === 0) return [];
  return db
    .selectFrom('comment_reactions')
    .leftJoin('users', 'users.id', 'comment_reactions.user_id')
    .select([
      'comment_reactions.subject_id',
      'comment_reactions.emoji',
      'comment_reactions.user_id',
      'comment_reactions.reacted_at',
      'users.display_name',
      'users.email',
      'users.photo_url',
    ])
    .where('comment_reactions.subject_id', 'in', subjectIds)
    .orderBy('comment_reactions.reacted_at')
    .orderBy('comment_reactions.emoji')
    .orderBy('comment_reactions.user_id')
    .execute();
}

// ---------------------------------------------------------------- commenters

/**
 * Members of the organization who wrote a comment or a reply in the thread, by user id. Authors who left the
 * organization are not members any more and are left out.
 */
function commentersOf(db: Executor, organizationId: string, thread: Thread) {
  const authors = inThread(db.selectFrom('comments').select('comments.author_id as user_id'), thread).union(
    inThread(db.selectFrom('comment_replies').innerJoin('comments', 'comments.id', 'comment_replies.comment_id').select('comment_replies.author_id as user_id'), thread),
  );
  return db
    .selectFrom('members')
    .innerJoin('users', 'users.id', 'members.user_id')
    .where('members.organization_id', '=', organizationId)
    .where('members.user_id', 'in', authors);
}

export async function listCommenters(db: Executor, organizationId: string, thread: Thread, page: PageRequest) {
  const q = commentersOf(db, organizationId, thread)
    .selectAll('members')
    .select(['users.display_name', 'users.email', 'users.photo_url']);
  return keysetPage(q, ['members.user_id'], 'asc', page).execute();
}

export type CommenterView = Awaited<ReturnType<typeof listCommenters>>[number];

export async function countCommenters(db: Executor, organizationId: string, thread: Thread): Promise<number> {
  const row = await commentersOf(db, organizationId, thread)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Open comments of one change request. */
export async function openCommentsOfChangeRequest(db: Executor, changeRequestId: string): Promise<number> {
  return (await openCommentCountsOfChangeRequests(db, [changeRequestId])).get(changeRequestId) ?? 0;
}
