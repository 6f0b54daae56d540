import type { Config } from '../../config.ts';
import { apiUrl } from '../../platform/urls.ts';
import type { Role } from '../access/roles.ts';
import { presentUser } from '../users/present.ts';
import { commentPermissions } from './policy.ts';
import type { CommentView, ReactionView, ReplierView, ReplyView, Thread } from './store.ts';

/** A body as the caller asked for it: the JSON document, or its markdown. */
export type PresentedBody = { document: unknown } | { markdown: string };

/** The page a comment is about, as it is now (or as it was, when it is gone). */
export interface PageTarget {
  id: string;
  title: string;
  emoji?: string;
  icon?: string;
  createdAt?: string;
  updatedAt?: string;
  path: string;
  outdated: boolean;
}

/** The caller and their role on the space: what `permissions` are computed for. */
export interface Viewer {
  userId: string;
  role: Role | null;
}

/** A user who may since have been removed from the server still has a name to show. */
function person(config: Config, id: string, name: string | null, email: string | null, photo: string | null) {
  return presentUser(config, { id, display_name: name ?? 'Deleted user', email, photo_url: photo });
}

export function threadPath(thread: Thread): string {
  return thread.changeRequestId === null ? `/spaces/${thread.spaceId}` : `/spaces/${thread.spaceId}/change-requests/${thread.changeRequestId}`;
}

/** Reactions grouped per emoji, in the order each emoji first came; users in the order they reacted. */
export function presentReactions(config: Config, reactions: readonly ReactionView[]) {
  const byEmoji = new Map<string, { emoji: string; count: number; users: { user: ReturnType<typeof person>; reactedAt: string }[] }>();
  for (const r of reactions) {
    let group = byEmoji.get(r.emoji);
    if (!group) byEmoji.set(r.emoji, (group = { emoji: r.emoji, count: 0, users: [] }));
    group.count += 1;
    group.users.push({ user: person(config, r.user_id, r.display_name, r.email, r.photo_url), reactedAt: r.reacted_at });
  }
  return [...byEmoji.values()];
}

export interface CommentExtras {
  body: PresentedBody;
  replies: number;
  /** Who replied, one per person (none for a comment without replies). */
  repliers: readonly ReplierView[];
  reactions: readonly ReactionView[];
  page: PageTarget | undefined;
}

export function presentComment(config: Config, comment: CommentView, viewer: Viewer, extras: CommentExtras) {
  const thread: Thread = { spaceId: comment.space_id, changeRequestId: comment.change_request_id };
  const resolved = comment.status === 'resolved' && comment.resolved_at !== null && comment.resolved_by !== null;
  return {
    object: 'comment' as const,
    id: comment.id,
    postedBy: person(config, comment.author_id, comment.author_name, comment.author_email, comment.author_photo),
    postedAt: comment.posted_at,
    ...(comment.edited_at ? { editedAt: comment.edited_at } : {}),
    reactions: presentReactions(config, extras.reactions),
    replies: extras.replies,
    repliers: extras.repliers.map((r) => ({ user: person(config, r.author_id, r.display_name, r.email, r.photo_url), count: Number(r.count), updatedAt: r.last_posted_at })),
    body: extras.body,
    // Not led by a spread: on Node 20, fields added after a leading spread cost about a microsecond each.
    target: {
      space: comment.space_id,
      revision: comment.revision_id,
      ...(comment.node_id ? { node: { id: comment.node_id, ...(comment.node_preview ? { preview: comment.node_preview } : {}) } } : {}),
      ...(comment.table_cell ? { tableCell: JSON.parse(comment.table_cell) as { record: string; definition: string } } : {}),
      ...(comment.change_request_id ? { changeRequest: comment.change_request_id } : {}),
      ...(extras.page ? { page: extras.page } : {}),
    },
    urls: { location: apiUrl(config, `${threadPath(thread)}/comments/${comment.id}`) },
    permissions: commentPermissions(viewer.role, viewer.userId, comment.author_id),
    ...(resolved
      ? {
          status: 'resolved' as const,
          resolvedAt: comment.resolved_at!,
          resolvedBy: person(config, comment.resolved_by!, comment.resolver_name, comment.resolver_email, comment.resolver_photo),
        }
      : { status: 'open' as const }),
  };
}

export function presentReply(config: Config, thread: Thread, reply: ReplyView, viewer: Viewer, extras: { body: PresentedBody; reactions: readonly ReactionView[] }) {
  return {
    object: 'comment-reply' as const,
    id: reply.id,
    postedBy: person(config, reply.author_id, reply.author_name, reply.author_email, reply.author_photo),
    postedAt: reply.posted_at,
    ...(reply.edited_at ? { editedAt: reply.edited_at } : {}),
    reactions: presentReactions(config, extras.reactions),
    body: extras.body,
    urls: { location: apiUrl(config, `${threadPath(thread)}/comments/${reply.comment_id}/replies/${reply.id}`) },
    permissions: commentPermissions(viewer.role, viewer.userId, reply.author_id),
  };
}

/**
 * A commenter as the organization member they are. This server has no teams yet and grants no per-space
 * permissions to individuals, so both counts are 0.
 */
