import { queryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import type { Revision } from '../../api/types.ts';
import { indexPages, type TreePage } from '../pages/page-tree.ts';

/*
 * A space's history through the public API: GitBook's API lists no revisions, so the history walks each revision's
 * first parent back from the current one (getCurrentRevision, then getRevisionById), a few at a time.
 */

const HISTORY_STEP = 15;

export const revisionByIdQuery = (spaceId: string, revisionId: string) =>
  queryOptions({
    queryKey: ['space', spaceId, 'revisions', revisionId] as const,
    queryFn: ({ signal }) => api<Revision>('GET', `/spaces/${spaceId}/revisions/${revisionId}`, { signal }),
    staleTime: Infinity,
  });

export function useHistory(spaceId: string) {
  return useInfiniteQuery({
    queryKey: ['space', spaceId, 'history'] as const,
    initialPageParam: '',
    queryFn: async ({ pageParam, signal }) => {
      const revisions: Revision[] = [];
      let next: Revision | undefined = pageParam
        ? await api<Revision>('GET', `/spaces/${spaceId}/revisions/${pageParam}`, { signal })
        : await api<Revision>('GET', `/spaces/${spaceId}/content`, { signal });
      while (next && revisions.length < HISTORY_STEP) {
        revisions.push(next);
        const parent: string | undefined = next.parents[0];
        next = parent && revisions.length < HISTORY_STEP ? await api<Revision>('GET', `/spaces/${spaceId}/revisions/${parent}`, { signal }) : undefined;
      }
      const last = revisions[revisions.length - 1];
      return { revisions, older: revisions.length === HISTORY_STEP ? last?.parents[0] : undefined };
    },
    getNextPageParam: (page) => page.older,
  });
}

/** The pages of a revision that have a document, in reading order, with their titles. */
export function documentPages(revision: Revision | undefined): TreePage[] {
  return revision ? indexPages((revision.pages as unknown) as TreePage[]).order : [];
}
