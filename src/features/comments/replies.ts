import { type AppContext, type Caller, authorOf } from '../../platform/context.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { isoNow } from '../../platform/clock.ts';
import { documentOfBody, presentBody } from './bodies.ts';
import { assertCanDelete, assertCanEdit, assertCanTakePart } from './policy.ts';
import { presentReply } from './present.ts';
import type { CommentBodyValue, UpdateReplyValue } from './schemas.ts';
import {
  groupBySubject,
  loadComment,
  lockedComment,
  openThread,
  openThreadToDelete,
  reactionChanges,
  record,
  resolutionChanges,
  type Format,
  type OpenThread,
  type ThreadLocator,
  placeOf,
} from './service.ts';
import { mentionNotices, writeNotices, type Notice } from '../notifications/service.ts';
import {
  addReactions,
  deleteReply,
  findReply,
  insertReply,
  listReplies,
  lockComment,
  lockReply,
  reactionsOf,
  removeReactions,
  replyCounts,
  updateComment,
  updateReply,
  type ReplyView,
} from './store.ts';

async function presentReplies(ctx: AppContext, open: OpenThread, rows: readonly ReplyView[], format: Format) {
  const bySubject = groupBySubject(await reactionsOf(ctx.db, rows.map((r) => r.id)));
  return Promise.all(
    rows.map(async (row) => presentReply(ctx.config, open.thread, row, open.viewer, { body: await presentBody(ctx.db, row.body, format), reactions: bySubject.get(row.id) ?? [] })),
  );
}

async function presentOne(ctx: AppContext, open: OpenThread, commentId: string, replyId: string, format: Format) {
  const comment = await loadComment(ctx, open, commentId);
  const reply = await findReply(ctx.db, comment.id, replyId);
  if (!reply) throw notFound(`No reply ${replyId} to comment ${commentId}`);
  const [presented] = await presentReplies(ctx, open, [reply], format);
  return presented!;
}

export async function listCommentReplies(ctx: AppContext, caller: Caller, at: ThreadLocator, commentId: string, query: { page?: string; limit?: number; format?: Format }) {
  const open = await openThread(ctx, caller, at);
  const comment = await loadComment(ctx, open, commentId);
  const listKey = `comment-replies:${comment.id}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const [rows, counts] = await Promise.all([listReplies(ctx.db, comment.id, page), replyCounts(ctx.db, [comment.id])]);
  const presented = await presentReplies(ctx, open, rows.slice(0, page.limit), query.format);
  return ctx.cursors.close(
    listKey,
    page,
    rows.map((row, i) => ({ row, item: presented[i] })),
    counts.get(comment.id) ?? 0,
    ({ row }) => [row.posted_at, row.id],
    ({ item }) => item!,
  );
}

export async function postCommentReply(ctx: AppContext, caller: Caller, at: ThreadLocator, commentId: string, body: { body: CommentBodyValue }, format: Format) {
  const open = await openThread(ctx, caller, at);
  assertCanTakePart(open.viewer.role, 'Replying to a comment');
  const document = await documentOfBody(body.body, 'body/body');
  const id = newId();
  const now = isoNow(ctx.clock);
  const actorId = authorOf(caller);
  const mentions = await mentionNotices(ctx, { document, actorId, place: placeOf(open, null), commentId });
  await ctx.db.transaction().execute(async (trx) => {
    const comment = await lockedComment(trx, open, commentId, 'share');
    await insertReply(trx, { id, comment_id: comment.id, author_id: actorId, body: JSON.stringify(document), posted_at: now, edited_at: null });
    await record(ctx, trx, open, 'comment_reply_created', { commentId: comment.id, replyId: id });
    // The thread's author hears of the reply; a person mentioned in it, of the mention (one notice each).
    const place = placeOf(open, comment.page_id);
    const reply: Notice = { userId: comment.author_id, kind: 'reply', actorId, place, commentId: comment.id, what: 'replied to your comment on' };
    await writeNotices(ctx, trx, [...(comment.author_id ? [reply] : []), ...mentions.map((m) => ({ ...m, place }))]);
  });
  return presentOne(ctx, open, commentId, id, format);
}

export async function getCommentReply(ctx: AppContext, caller: Caller, at: ThreadLocator, commentId: string, replyId: string, format: Format) {
  const open = await openThread(ctx, caller, at);
  return presentOne(ctx, open, commentId, replyId, format);
}

/** Edits, reactions, and on change requests `resolved`, which resolves or reopens the thread the reply is in. */
export async function updateCommentReply(ctx: AppContext, caller: Caller, at: ThreadLocator, commentId: string, replyId: string, body: UpdateReplyValue, format: Format) {
  const open = await openThread(ctx, caller, at);
  const role = open.viewer.role;
  // The spec gives `resolved` to replies of change requests only; silently ignoring it elsewhere would mislead.
  if (body.resolved !== undefined && open.thread.changeRequestId === null) {
    throw badRequest('body/resolved is only for replies in change requests; resolve a space comment with PUT on the comment');
  }
  const reactions = reactionChanges(body);
  if (reactions.any) assertCanTakePart(role, 'Reacting to a reply');
  if (body.resolved !== undefined) assertCanTakePart(role, body.resolved ? 'Resolving a comment' : 'Reopening a comment');
  const document = body.body !== undefined ? await documentOfBody(body.body, 'body/body') : undefined;
  const now = isoNow(ctx.clock);
  await ctx.db.transaction().execute(async (trx) => {
    const comment = await lockedComment(trx, open, commentId, body.resolved !== undefined ? 'update' : 'share');
    const reply = await lockReply(trx, comment.id, replyId);
    if (!reply) throw notFound(`No reply ${replyId} to comment ${commentId}`);
    let changed = reactions.any;
    if (document !== undefined) {
      assertCanEdit(role, authorOf(caller), reply.author_id, 'a reply');
      await updateReply(trx, reply.id, { body: JSON.stringify(document), edited_at: now });
      changed = true;
    }
    if (body.resolved !== undefined) {
      const changes = resolutionChanges(comment, body.resolved, authorOf(caller), now);
      if (Object.keys(changes).length > 0) {
        await updateComment(trx, comment.id, changes);
        await record(ctx, trx, open, 'comment_updated', { commentId: comment.id, status: changes.status! });
      }
    }
    await addReactions(trx, { id: reply.id, commentId: comment.id }, reactions.added, authorOf(caller), now);
    await removeReactions(trx, reply.id, reactions.removed, authorOf(caller));
    if (changed) await record(ctx, trx, open, 'comment_reply_updated', { commentId: comment.id, replyId: reply.id });
  });
  return presentOne(ctx, open, commentId, replyId, format);
}

/** A reply (or its comment) that is not there is already deleted. */
export async function deleteCommentReply(ctx: AppContext, caller: Caller, at: ThreadLocator, commentId: string, replyId: string): Promise<void> {
  const open = await openThreadToDelete(ctx, caller, at);
  if (!open) return;
  await ctx.db.transaction().execute(async (trx) => {
    const comment = await lockComment(trx, open.thread, commentId, 'share');
    const reply = comment ? await lockReply(trx, comment.id, replyId) : undefined;
    if (!comment || !reply) return;
    assertCanDelete(open.viewer.role, authorOf(caller), reply.author_id, 'a reply');
    await deleteReply(trx, reply.id);
    await record(ctx, trx, open, 'comment_reply_deleted', { commentId: comment.id, replyId: reply.id });
  });
}
