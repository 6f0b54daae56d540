import { Type, type TSchema } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../platform/app-type.ts';
import { callerOf } from '../../platform/auth.ts';
import { sendJsonText } from '../../platform/json-text.ts';
import { errors, listOf, ListQuery, NoContent } from '../../platform/schemas.ts';
import {
  Comment,
  Commenter,
  CommentReply,
  FormatQuery,
  ListCommentsQuery,
  ListRepliesQuery,
  PostCommentBody,
  PostReplyBody,
  UpdateChangeRequestReplyBody,
  UpdateCommentBody,
  UpdateReplyBody,
  type ListCommentsQueryValue,
  type PostCommentValue,
  type UpdateCommentValue,
  type UpdateReplyValue,
  type CommentBodyValue,
} from './schemas.ts';
import { deleteThreadComment, getComment, listThreadCommenters, listThreadCommentsJson, postComment, updateThreadComment, type Format, type ThreadLocator } from './service.ts';
import { deleteCommentReply, getCommentReply, listCommentReplies, postCommentReply, updateCommentReply } from './replies.ts';

const tags = ['comments'];
const Id = Type.String({ minLength: 1 });

/**
 * The same operations exist on a space's discussion and on a change request's; one table registers both,
 * with the official operation ids. A change request is named by its id or its number.
 */
const variants = [
  {
    prefix: '/spaces/:spaceId',
    params: { spaceId: Id },
    what: 'the space',
    suffix: 'InSpace',
    updateReplyBody: UpdateReplyBody as TSchema,
  },
  {
    prefix: '/spaces/:spaceId/change-requests/:changeRequestId',
    params: { spaceId: Id, changeRequestId: Type.String({ minLength: 1, description: 'The change request id or its number' }) },
    what: 'a change request',
    suffix: 'InChangeRequest',
    updateReplyBody: UpdateChangeRequestReplyBody as TSchema,
  },
] as const;

type Params = { spaceId: string; changeRequestId?: string; commentId: string; commentReplyId: string };
const params = (request: FastifyRequest) => request.params as Params;
const locator = (request: FastifyRequest): ThreadLocator => ({ spaceId: params(request).spaceId, changeRequestId: params(request).changeRequestId });
const format = (request: FastifyRequest) => (request.query as { format?: Format }).format;

export async function commentRoutes(app: App) {
  for (const v of variants) {
    const comments = `${v.prefix}/comments`;
    const comment = `${comments}/:commentId`;
    const replies = `${comment}/replies`;
    const reply = `${replies}/:commentReplyId`;
    const threadParams = Type.Object(v.params);
    const commentParams = Type.Object({ ...v.params, commentId: Id });
    const replyParams = Type.Object({ ...v.params, commentId: Id, commentReplyId: Id });

    app.get(
      comments,
      {
        schema: {
          operationId: `listComments${v.suffix}`,
          tags,
          summary: `The comments of ${v.what}, newest first by default, filtered by status, page and authors`,
          params: threadParams,
          querystring: ListCommentsQuery,
          response: { 200: listOf(Comment), ...errors(400, 401, 404) },
        },
      },
      async (request, reply) => {
        const json = await listThreadCommentsJson(app.ctx, callerOf(request), locator(request), request.query as ListCommentsQueryValue, (page) => String(reply.serialize(page)));
        return sendJsonText(reply, json);
      },
    );

    app.post(
      comments,
      {
        schema: {
          operationId: `postComment${v.suffix}`,
          tags,
          summary: `Post a comment on ${v.what}, optionally about one of its pages (and a node of that page)`,
          params: threadParams,
          querystring: FormatQuery,
          body: PostCommentBody,
          response: { 200: Comment, ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => postComment(app.ctx, callerOf(request), locator(request), request.body as PostCommentValue, format(request)),
    );

    app.get(
      comment,
      {
        schema: {
          operationId: `getComment${v.suffix}`,
          tags,
          summary: `A comment of ${v.what}`,
          params: commentParams,
          querystring: FormatQuery,
          response: { 200: Comment, ...errors(400, 401, 404) },
        },
      },
      async (request) => getComment(app.ctx, callerOf(request), locator(request), params(request).commentId, format(request)),
    );

    app.put(
      comment,
      {
        schema: {
          operationId: `updateComment${v.suffix}`,
          tags,
          summary: 'Edit the body (author), resolve or reopen the thread, add or remove the caller’s reactions',
          params: commentParams,
          querystring: FormatQuery,
          body: UpdateCommentBody,
          response: { 200: Comment, ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => updateThreadComment(app.ctx, callerOf(request), locator(request), params(request).commentId, request.body as UpdateCommentValue, format(request)),
    );

    app.delete(
      comment,
      {
        schema: {
          operationId: `deleteComment${v.suffix}`,
          tags,
          summary: 'Delete a comment and its replies (its author or a space admin); 204 also when it did not exist',
          params: commentParams,
          response: { 204: NoContent, ...errors(401, 403, 404) },
        },
      },
      async (request, replyTo) => {
        await deleteThreadComment(app.ctx, callerOf(request), locator(request), params(request).commentId);
        return replyTo.status(204).send();
      },
    );

    app.get(
      replies,
      {
        schema: {
          operationId: `listCommentReplies${v.suffix}`,
          tags,
          summary: 'The replies to a comment, oldest first',
          params: commentParams,
          querystring: ListRepliesQuery,
          response: { 200: listOf(CommentReply), ...errors(400, 401, 404) },
        },
      },
      async (request) => listCommentReplies(app.ctx, callerOf(request), locator(request), params(request).commentId, request.query as { page?: string; limit?: number; format?: Format }),
    );

    app.post(
      replies,
      {
        schema: {
          operationId: `postCommentReply${v.suffix}`,
          tags,
          summary: 'Reply to a comment',
          params: commentParams,
          querystring: FormatQuery,
          body: PostReplyBody,
          response: { 200: CommentReply, ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => postCommentReply(app.ctx, callerOf(request), locator(request), params(request).commentId, request.body as { body: CommentBodyValue }, format(request)),
    );

    app.get(
      reply,
      {
        schema: {
          operationId: `getCommentReply${v.suffix}`,
          tags,
          summary: 'A reply to a comment',
          params: replyParams,
          querystring: FormatQuery,
          response: { 200: CommentReply, ...errors(400, 401, 404) },
        },
      },
      async (request) => getCommentReply(app.ctx, callerOf(request), locator(request), params(request).commentId, params(request).commentReplyId, format(request)),
    );

    app.put(
      reply,
      {
        schema: {
          operationId: `updateCommentReply${v.suffix}`,
          tags,
          summary:
            v.suffix === 'InChangeRequest'
              ? 'Edit a reply (author), add or remove the caller’s reactions, or resolve or reopen its thread'
              : 'Edit a reply (author), add or remove the caller’s reactions',
          params: replyParams,
          querystring: FormatQuery,
          body: v.updateReplyBody,
          response: { 200: CommentReply, ...errors(400, 401, 403, 404) },
        },
      },
      async (request) =>
        updateCommentReply(app.ctx, callerOf(request), locator(request), params(request).commentId, params(request).commentReplyId, request.body as UpdateReplyValue, format(request)),
    );

    app.delete(
      reply,
      {
        schema: {
          operationId: `deleteCommentReply${v.suffix}`,
          tags,
          summary: 'Delete a reply (its author or a space admin); 204 also when it did not exist',
          params: replyParams,
          response: { 204: NoContent, ...errors(401, 403, 404) },
        },
      },
      async (request, replyTo) => {
        await deleteCommentReply(app.ctx, callerOf(request), locator(request), params(request).commentId, params(request).commentReplyId);
        return replyTo.status(204).send();
      },
    );

    app.get(
      `${v.prefix}/commenters`,
      {
        schema: {
          operationId: `listCommenters${v.suffix}`,
          tags,
          summary: `The members who commented or replied in ${v.what}`,
          params: threadParams,
          querystring: ListQuery,
          response: { 200: listOf(Commenter), ...errors(400, 401, 404) },
        },
      },
      async (request) => listThreadCommenters(app.ctx, callerOf(request), locator(request), request.query as { page?: string; limit?: number }),
    );
  }
}
