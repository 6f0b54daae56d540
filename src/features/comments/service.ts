import { type AppContext, type Caller, authorOf } from '../../platform/context.ts';
import { badRequest, isNotFound, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { isoNow } from '../../platform/clock.ts';
import { recordEvent } from '../../platform/events.ts';
import type { Executor } from '../../db/types.ts';
import type { Role } from '../access/roles.ts';
import { loadSpace } from '../spaces/service.ts';
import { loadChangeRequest } from '../change-requests/service.ts';
import { documentOfBody, presentBody } from './bodies.ts';
import { assertCanDelete, assertCanEdit, assertCanTakePart } from './policy.ts';
import { presentComment, type Viewer } from './present.ts';
import { OrgAccess } from '../access/service.ts';
import { memberCounts } from '../members/counts.ts';
import { presentMember } from '../members/present.ts';
import { cachedUserById } from '../users/service.ts';
import type { ListCommentsQueryValue, PostCommentValue, UpdateCommentValue } from './schemas.ts';
import {
  addReactions,
  countCommenters,
  countComments,
  deleteComment,
  findComment,
  findComments,
  insertComment,
  listCommenters,
  listComments,
  lockComment,
  reactionsOf,
  removeReactions,
  repliersOf,
  updateComment,
  type CommentFilter,
  type CommentRow,
  type CommentView,
  type ReactionView,
  type ReplierView,
  type Thread,
} from './store.ts';
import { PageTargets } from './targets.ts';
import { mentionNotices, writeNotices, type Notice, type NoticePlace } from '../notifications/service.ts';
import { serializedRead } from '../../platform/read-cache.ts';

/** Where the route says the discussion is: a space, or one of its change requests (by id or number). */
export interface ThreadLocator {
  spaceId: string;
  changeRequestId?: string | undefined;
}

export type Format = 'document' | 'markdown' | undefined;

/** The thread the caller asked for, after checking they can see it (404 otherwise), with their role on the space. */
export async function openThread(ctx: AppContext, caller: Caller, at: ThreadLocator) {
  if (at.changeRequestId !== undefined) {
    const { space, role, cr } = await loadChangeRequest(ctx, caller, at.spaceId, at.changeRequestId);
    const where = `change request #${cr.number}`;
    return {
      space,
      viewer: { userId: authorOf(caller), role } satisfies Viewer,
      thread: { spaceId: space.id, changeRequestId: cr.id } satisfies Thread,
      changeRequest: { id: cr.id, number: cr.number, subject: cr.subject } as { id: string; number: number; subject: string } | null,
      where,
      targets: new PageTargets(ctx.db, cr.head_revision_id ?? cr.revision_initial, where),
    };
  }
  const { space, role } = await loadSpace(ctx, caller, at.spaceId);
  return {
    space,
    viewer: { userId: authorOf(caller), role } satisfies Viewer,
    thread: { spaceId: space.id, changeRequestId: null } satisfies Thread,
    changeRequest: null as { id: string; number: number; subject: string } | null,
    where: `space ${space.id}`,
    targets: new PageTargets(ctx.db, space.revision_id, "the space's current revision"),
  };
}

export type OpenThread = Awaited<ReturnType<typeof openThread>>;

/**
 * The thread a DELETE acts on, or undefined when the caller cannot see it (or it does not exist): nothing is
 * there for them to delete, and deleting what is not there succeeds (204).
 */
export async function openThreadToDelete(ctx: AppContext, caller: Caller, at: ThreadLocator): Promise<OpenThread | undefined> {
  try {
    return await openThread(ctx, caller, at);
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

export function groupBySubject(reactions: readonly ReactionView[]): Map<string, ReactionView[]> {
  const out = new Map<string, ReactionView[]>();
  for (const r of reactions) out.set(r.subject_id, [...(out.get(r.subject_id) ?? []), r]);
  return out;
}

/** A page of comments at once: one query for reply counts, one for reactions, each target page read once. */
async function presentComments(ctx: AppContext, open: OpenThread, rows: readonly CommentView[], format: Format) {
  const ids = rows.map((r) => r.id);
  const [reactions, repliers] = await Promise.all([reactionsOf(ctx.db, ids), repliersOf(ctx.db, ids)]);
  const bySubject = groupBySubject(reactions);
  const repliersByComment = new Map<string, ReplierView[]>();
  for (const r of repliers) repliersByComment.set(r.comment_id, [...(repliersByComment.get(r.comment_id) ?? []), r]);
  return Promise.all(
    rows.map(async (row) =>
      presentComment(ctx.config, row, open.viewer, {
        body: await presentBody(ctx.db, row.body, format),
        replies: Number(row.reply_count ?? 0),
        repliers: repliersByComment.get(row.id) ?? [],
        reactions: bySubject.get(row.id) ?? [],
        page: await open.targets.of(row),
      }),
    ),
  );
}

export async function loadComment(ctx: AppContext, open: OpenThread, commentId: string): Promise<CommentView> {
  const comment = await findComment(ctx.db, open.thread, commentId);
  if (!comment) throw notFound(`No comment ${commentId} in ${open.where}`);
  return comment;
}

async function presentOne(ctx: AppContext, open: OpenThread, commentId: string, format: Format) {
  const [presented] = await presentComments(ctx, open, [await loadComment(ctx, open, commentId)], format);
  return presented!;
}

/** The comment row locked for the rest of the transaction; 404 when it is not (or no longer) in the thread. */
export async function lockedComment(db: Executor, open: OpenThread, commentId: string, mode: 'update' | 'share'): Promise<CommentRow> {
  const row = await lockComment(db, open.thread, commentId, mode);
  if (!row) throw notFound(`No comment ${commentId} in ${open.where}`);
  return row;
}

function eventPayload(open: OpenThread, ids: Record<string, string>) {
  return { spaceId: open.space.id, ...(open.thread.changeRequestId ? { changeRequestId: open.thread.changeRequestId } : {}), ...ids };
}

export function record(ctx: AppContext, db: Executor, open: OpenThread, type: string, ids: Record<string, string>) {
  return recordEvent(db, ctx.clock, type, open.space.organization_id, eventPayload(open, ids));
}

/**
 * What a page of comments is read from: the comments with their replies and reactions, the names of the people
 * on them, and the pages they point at (the revision is in the key; its versions guard a read racing a write).
 */
const COMMENT_PAGE_TABLES = ['comments', 'comment_replies', 'comment_reactions', 'users', 'page_versions'];

/**
 * A page of the thread's comments as JSON text, written by `serialize` (the route's response serializer). Kept
 * per list, page, format and viewer (their role and id decide `permissions`) until a write to what it shows
 * (platform/read-cache.ts serializedRead): people read a discussion far more often than they post to it.
 */
export async function listThreadCommentsJson(ctx: AppContext, caller: Caller, at: ThreadLocator, query: ListCommentsQueryValue, serialize: (page: unknown) => string): Promise<string> {
  const open = await openThread(ctx, caller, at);
  const status = query.status ?? 'all';
  const order = query.order ?? 'desc';
  const authors = [...new Set(query.authors ?? [])].sort();
  const filter: CommentFilter = {
    spaceId: open.thread.spaceId,
    changeRequestId: open.thread.changeRequestId,
    status: status === 'all' ? undefined : status,
    pageId: query.targetPage,
    authors,
  };
  // The filters are part of the list's identity: a cursor of one listing is refused by another.
  const listKey = ['comments', open.thread.spaceId, open.thread.changeRequestId ?? '', status, order, query.targetPage ?? '', authors.join(',')].join(':');
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const key = JSON.stringify([ctx.config.publicUrl, listKey, query.page ?? '', page.limit, query.format ?? 'document', open.viewer.userId, open.viewer.role, open.targets.revisionId]);
  return serializedRead(ctx.db, 'comments:pages', COMMENT_PAGE_TABLES, key, async () => {
    const [rows, count] = await Promise.all([listComments(ctx.db, filter, order, page), countComments(ctx.db, filter)]);
    const presented = await presentComments(ctx, open, rows.slice(0, page.limit), query.format);
    return serialize(
      ctx.cursors.close(
        listKey,
        page,
        rows.map((row, i) => ({ row, item: presented[i] })),
        count,
        ({ row }) => [row.posted_at, row.id],
        ({ item }) => item!,
      ),
    );
  });
}

export async function postComment(ctx: AppContext, caller: Caller, at: ThreadLocator, body: PostCommentValue, format: Format) {
  const open = await openThread(ctx, caller, at);
  const { row, view, notices } = await newComment(ctx, caller, open, body);
  await ctx.db.transaction().execute((trx) => insertNewComment(ctx, trx, open, row, notices));
  return presentNewComment(ctx, open, view, format);
}

/**
 * A comment ready to be written to the thread, checked (the caller may take part, the body and target are
 * valid) but not written: `insertNewComment` writes it in the caller's transaction, which may write more (a
 * review and its comment are one write).
 */
export async function newComment(ctx: AppContext, caller: Caller, open: OpenThread, body: PostCommentValue, field = 'body/body') {
  assertCanTakePart(open.viewer.role, 'Commenting');
  const target = await open.targets.forPost(body.page, body.node);
  const document = await documentOfBody(body.body, field);
  const now = isoNow(ctx.clock);
  const row: CommentRow = {
    id: newId(),
    space_id: open.thread.spaceId,
    change_request_id: open.thread.changeRequestId,
    author_id: authorOf(caller),
    body: JSON.stringify(document),
    status: 'open',
    revision_id: open.targets.revisionId,
    ...target,
    table_cell: body.tableCell ? JSON.stringify({ record: body.tableCell.record, definition: body.tableCell.definition }) : null,
    posted_at: now,
    edited_at: null,
    resolved_at: null,
    resolved_by: null,
  };
  const author = await cachedUserById(ctx, row.author_id);
  // Presented from what is written, with its author as the caller's requests see them (cached): a new comment
  // has no replies, reactions or resolver yet, so reading it back (two joined queries) would tell nothing more.
  // The row's fields last: on Node 20, fields added after a leading spread cost about a microsecond each.
  const view: CommentView = {
    author_name: author?.display_name ?? null,
    author_email: author?.email ?? null,
    author_photo: author?.photo_url ?? null,
    resolver_name: null,
    resolver_email: null,
    resolver_photo: null,
    reply_count: 0,
    ...row,
  };
  const notices = await mentionNotices(ctx, { document, actorId: row.author_id, place: placeOf(open, row.page_id), commentId: row.id });
  return { row, view, notices };
}

/** Where a thread's comment is, for the notices it causes. */
export function placeOf(open: OpenThread, pageId: string | null | undefined): NoticePlace {
  return { organizationId: open.space.organization_id, space: open.space, changeRequest: open.changeRequest, pageId: pageId ?? null };
}

export async function insertNewComment(ctx: AppContext, trx: Executor, open: OpenThread, row: CommentRow, notices: readonly Notice[] = []): Promise<void> {
  await insertComment(trx, row);
  await writeNotices(ctx, trx, notices);
  await record(ctx, trx, open, 'comment_created', { commentId: row.id });
}

export async function presentNewComment(ctx: AppContext, open: OpenThread, view: CommentView, format: Format) {
  return presentComment(ctx.config, view, open.viewer, { body: await presentBody(ctx.db, view.body, format), replies: 0, repliers: [], reactions: [], page: await open.targets.of(view) });
}

/** Comments of the thread by id, presented for the caller in one batch (the comments of a page of reviews). */
export async function presentThreadComments(ctx: AppContext, open: OpenThread, ids: readonly string[], format: Format) {
  const rows = await findComments(ctx.db, open.thread, ids);
  const presented = await presentComments(ctx, open, rows, format);
  return new Map(rows.map((row, i) => [row.id, presented[i]!]));
}

export async function getComment(ctx: AppContext, caller: Caller, at: ThreadLocator, commentId: string, format: Format) {
  const open = await openThread(ctx, caller, at);
  return presentOne(ctx, open, commentId, format);
}

/** Adding and removing the same emoji in one request has no meaning to pick; it is refused. */
export function reactionChanges(body: { addedReactions?: string[] | undefined; removedReactions?: string[] | undefined }) {
  const added = [...new Set(body.addedReactions ?? [])];
  const removed = [...new Set(body.removedReactions ?? [])];
  const both = added.filter((emoji) => removed.includes(emoji));
  if (both.length > 0) throw badRequest(`body/removedReactions: ${both.join(', ')} is also in body/addedReactions`);
  return { added, removed, any: added.length + removed.length > 0 };
}

/** Sets `resolved` on a thread; what is already so stays as it was (its resolvedAt and resolvedBy too). */
export function resolutionChanges(row: CommentRow, resolved: boolean, callerId: string, now: string): Partial<CommentRow> {
  if (resolved && row.status !== 'resolved') return { status: 'resolved', resolved_at: now, resolved_by: callerId };
  if (!resolved && row.status === 'resolved') return { status: 'open', resolved_at: null, resolved_by: null };
  return {};
}

export async function updateThreadComment(ctx: AppContext, caller: Caller, at: ThreadLocator, commentId: string, body: UpdateCommentValue, format: Format) {
  const open = await openThread(ctx, caller, at);
  const role: Role | null = open.viewer.role;
  const reactions = reactionChanges(body);
  if (reactions.any) assertCanTakePart(role, 'Reacting to a comment');
  if (body.resolved !== undefined) assertCanTakePart(role, body.resolved ? 'Resolving a comment' : 'Reopening a comment');
  const document = body.body !== undefined ? await documentOfBody(body.body, 'body/body') : undefined;
  const now = isoNow(ctx.clock);
  await ctx.db.transaction().execute(async (trx) => {
    // Reactions alone only share the lock: many people may react at once; a delete waits for them.
    const changesComment = document !== undefined || body.resolved !== undefined;
    const row = await lockedComment(trx, open, commentId, changesComment ? 'update' : 'share');
    let changes: Partial<CommentRow> = {};
    if (document !== undefined) {
      assertCanEdit(role, authorOf(caller), row.author_id, 'a comment');
      changes = { body: JSON.stringify(document), edited_at: now };
    }
    if (body.resolved !== undefined) changes = { ...changes, ...resolutionChanges(row, body.resolved, authorOf(caller), now) };
    if (Object.keys(changes).length > 0) await updateComment(trx, row.id, changes);
    await addReactions(trx, { id: row.id, commentId: row.id }, reactions.added, authorOf(caller), now);
    await removeReactions(trx, row.id, reactions.removed, authorOf(caller));
    if (Object.keys(changes).length > 0 || reactions.any) {
      await record(ctx, trx, open, 'comment_updated', { commentId: row.id, ...(changes.status ? { status: changes.status } : {}) });
    }
  });
  return presentOne(ctx, open, commentId, format);
}

/** Deletes the comment with its replies; a comment that is not there is already deleted. */
export async function deleteThreadComment(ctx: AppContext, caller: Caller, at: ThreadLocator, commentId: string): Promise<void> {
  const open = await openThreadToDelete(ctx, caller, at);
  if (!open) return;
  await ctx.db.transaction().execute(async (trx) => {
    const row = await lockComment(trx, open.thread, commentId, 'update');
    if (!row) return;
    assertCanDelete(open.viewer.role, authorOf(caller), row.author_id, 'a comment');
    await deleteComment(trx, row.id);
    await record(ctx, trx, open, 'comment_deleted', { commentId: row.id });
  });
}

/** The people taking part in the discussion, as members of the space's organization, by user id. */
export async function listThreadCommenters(ctx: AppContext, caller: Caller, at: ThreadLocator, query: { page?: string; limit?: number }) {
  const open = await openThread(ctx, caller, at);
  const listKey = `commenters:${open.thread.spaceId}:${open.thread.changeRequestId ?? ''}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const [rows, count] = await Promise.all([
    listCommenters(ctx.db, open.space.organization_id, open.thread, page),
    countCommenters(ctx.db, open.space.organization_id, open.thread),
  ]);
  // Commenters are members: the same object, with the same true counts, as the member list shows.
  const counts = await memberCounts(ctx, await OrgAccess.load(ctx.db, open.space.organization_id, caller), rows);
  return ctx.cursors.close(listKey, page, rows, count, (row) => [row.user_id], (row) => presentMember(ctx.config, row, counts.get(row.user_id)!));
}
