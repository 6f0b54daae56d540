import { queryOptions } from '@tanstack/react-query';
import { api, type ListPage } from '../../api/client.ts';
import { keys } from '../../api/queries.ts';

/*
 * Where comment threads live: a change request's discussion (the review screen, and the editor when edits go to
 * a change request) or the space's own (the editor of a live space). Both have the same operations under their
 * path (listCommentsInSpace / listCommentsInChangeRequest, and their replies and updates), so the threads'
 * components take a place and work the same on either.
 */

export interface CommentPlace {
  /** The API path the comments are under: `/spaces/{id}` or `/spaces/{id}/change-requests/{number}`. */
  path: string;
  /** The query key every read of this place starts with, so one invalidation refreshes them all. */
  key: readonly unknown[];
}

export const changeRequestComments = (spaceId: string, number: string): CommentPlace => ({
  path: `/spaces/${spaceId}/change-requests/${number}`,
  key: keys.changeRequest(spaceId, number),
});

export const spaceComments = (spaceId: string): CommentPlace => ({ path: `/spaces/${spaceId}`, key: ['space', spaceId, 'comments'] });

/** A comment or reply as read with `format=markdown`: the body is its markdown. */
export interface Thread {
  id: string;
  postedBy: { id: string; displayName: string };
  postedAt: string;
  body: { markdown?: string };
  replies: number;
  reactions: { emoji: string; count: number; users: { user: { id: string } }[] }[];
  status: 'open' | 'resolved';
  target: { node?: { id: string; preview?: string }; page?: { id: string; title: string; outdated: boolean } };
  permissions: { edit: boolean; reply?: boolean; delete: boolean };
}

export interface Reply {
  id: string;
  postedBy: { id: string; displayName: string };
  postedAt: string;
  body: { markdown?: string };
}

/** The comments on one page, oldest first, bodies as markdown. */
export const pageThreadsQuery = (place: CommentPlace, pageId: string) =>
  queryOptions({
    queryKey: [...place.key, 'comments', pageId] as const,
    queryFn: ({ signal }) => api<ListPage<Thread>>('GET', `${place.path}/comments`, { query: { targetPage: pageId, order: 'asc', format: 'markdown', limit: 100 }, signal }),
  });

export const repliesQuery = (place: CommentPlace, commentId: string, count: number) =>
  queryOptions({
    queryKey: [...place.key, 'comments', 'replies', commentId, String(count)] as const,
    queryFn: ({ signal }) => api<ListPage<Reply>>('GET', `${place.path}/comments/${commentId}/replies`, { query: { format: 'markdown', limit: 100 }, signal }),
    enabled: count > 0,
  });

export const commentApi = {
  post: (place: CommentPlace, body: { page: string; node?: string; markdown: string }) =>
    api<Thread>('POST', `${place.path}/comments`, { body: { page: body.page, ...(body.node ? { node: body.node } : {}), body: { markdown: body.markdown } } }),
  reply: (place: CommentPlace, commentId: string, markdown: string) => api('POST', `${place.path}/comments/${commentId}/replies`, { body: { body: { markdown } } }),
  update: (place: CommentPlace, commentId: string, body: { resolved?: boolean; addedReactions?: string[]; removedReactions?: string[] }) =>
    api('PUT', `${place.path}/comments/${commentId}`, { body }),
};
