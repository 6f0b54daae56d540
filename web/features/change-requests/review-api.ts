import { queryOptions } from '@tanstack/react-query';
import type { ChangeRequestRequestedReviewer, ChangeRequestReview, UserContributor } from '@gitbook/api';
import type { Document } from '../../../src/features/content/document/types.ts';
import { api, type ListPage } from '../../api/client.ts';
import { keys } from '../../api/queries.ts';

// The list of changed pages is read by the route as it opens (routes.tsx), so its query lives with the app's.
export { changeRequestChangesQuery as changesQuery, type SemanticChange } from '../../api/queries.ts';

/*
 * The reads and writes of reviewing one change request, through the public API (the official operation ids in
 * the comments). Every key starts with the change request's, so one invalidation refreshes the whole screen.
 */

export type { ChangeRequestRequestedReviewer, ChangeRequestReview, UserContributor };

/** A conflict of a merge or an update, as the API describes it (a `content` one carries the marked markdown). */
export interface MergeConflictReport {
  type: 'page' | 'file' | 'variable';
  kind: string;
  message: string;
  pageId?: string;
  markedText?: string;
}

export interface MergeAnswer {
  revision: string;
  result: 'merge' | 'update' | 'conflicts';
  conflicts?: MergeConflictReport[];
}

const base = (spaceId: string, number: string) => `/spaces/${spaceId}/change-requests/${number}`;
const key = (spaceId: string, number: string, ...rest: string[]) => [...keys.changeRequest(spaceId, number), ...rest] as const;

/** getReviewsByChangeRequestId: the current reviews (a newer one of the same reviewer supersedes the older). */
export const reviewsQuery = (spaceId: string, number: string) =>
  queryOptions({
    queryKey: key(spaceId, number, 'reviews'),
    queryFn: ({ signal }) => api<ListPage<ChangeRequestReview>>('GET', `${base(spaceId, number)}/reviews`, { query: { outdated: false, format: 'markdown', limit: 100 }, signal }),
  });

/** getRequestedReviewersByChangeRequestId */
export const requestedReviewersQuery = (spaceId: string, number: string) =>
  queryOptions({
    queryKey: key(spaceId, number, 'requested-reviewers'),
    queryFn: ({ signal }) => api<ListPage<ChangeRequestRequestedReviewer>>('GET', `${base(spaceId, number)}/requested-reviewers`, { query: { limit: 100 }, signal }),
  });

/** getContributorsByChangeRequestId */
export const contributorsQuery = (spaceId: string, number: string) =>
  queryOptions({
    queryKey: key(spaceId, number, 'contributors'),
    queryFn: ({ signal }) => api<ListPage<UserContributor>>('GET', `${base(spaceId, number)}/contributors`, { signal }),
  });

/** Who has which page of the change request open in an editor (getChangeRequestPresence, an extension of Quire's). */
export interface ChangeRequestPresence {
  items: { page: { id: string; title: string }; people: { user: { id: string; displayName: string }; access: 'edit' | 'view' }[] }[];
}

/** Every few seconds while the screen is open: people come and go in the editor, and nothing announces it to this screen. */
export const PRESENCE_REFRESH_MS = 5_000;

export const presenceQuery = (spaceId: string, number: string) =>
  queryOptions({
    queryKey: key(spaceId, number, 'presence'),
    queryFn: ({ signal }) => api<ChangeRequestPresence>('GET', `${base(spaceId, number)}/presence`, { signal }),
    refetchInterval: PRESENCE_REFRESH_MS,
  });

/** getPageDocumentInRevisionById; a page that is not in the revision reads as no document (it was added or deleted). */
export const revisionDocumentQuery = (spaceId: string, revisionId: string, pageId: string) =>
  queryOptions({
    queryKey: ['space', spaceId, 'revision-document', revisionId, pageId] as const,
    queryFn: async ({ signal }) => {
      try {
        return await api<Document>('GET', `/spaces/${spaceId}/revisions/${revisionId}/page/${pageId}/document`, { signal });
      } catch (error) {
        if ((error as { status?: number }).status === 404) return null;
        throw error;
      }
    },
    // A revision never changes.
    staleTime: Infinity,
  });

export const reviewApi = {
  update: (spaceId: string, number: string, body: { subject?: string; description?: Document; status?: 'draft' | 'open' | 'archived' }) => api('PATCH', base(spaceId, number), { body }),
  submitReview: (spaceId: string, number: string, status: 'approved' | 'changes-requested', comment: string) =>
    api('POST', `${base(spaceId, number)}/reviews`, { body: { status, ...(comment.trim() ? { comment: { markdown: comment } } : {}) } }),
  requestReviewers: (spaceId: string, number: string, users: string[]) => api('POST', `${base(spaceId, number)}/requested-reviewers`, { body: { users } }),
  removeReviewer: (spaceId: string, number: string, userId: string) => api('DELETE', `${base(spaceId, number)}/requested-reviewers/${userId}`),
  merge: (spaceId: string, number: string) => api<MergeAnswer>('POST', `${base(spaceId, number)}/merge`),
  updateFromMain: (spaceId: string, number: string) => api<MergeAnswer>('POST', `${base(spaceId, number)}/update`),
  writeContent: (spaceId: string, number: string, changes: unknown[]) => api('POST', `${base(spaceId, number)}/content`, { body: { changes } }),
};
