import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { isNotFound } from '../../api/client.ts';
import { keys } from '../../api/queries.ts';
import type { RevisionFile } from '../../api/types.ts';
import type { EditorFiles } from '../editor/contract.ts';
import { targetName, type EditTarget } from './edit-target.ts';
import { readFile } from './editing-api.ts';

export type TargetFiles = EditorFiles & {
  /** A file just uploaded: shown at once, before the tree is read again. */
  add(file: RevisionFile): void;
};

/**
 * The files the editor shows, for one target: those of the revision the screen holds (the tree's), then any
 * other read once by id into the query cache: one uploaded since, or inserted by someone editing beside this
 * person. A file the target does not have is known as `null` (the editor says so) rather than asked again.
 */
export function targetFiles(queryClient: QueryClient, spaceId: string, target: EditTarget, revisionFiles: readonly RevisionFile[]): TargetFiles {
  const listed = new Map(revisionFiles.map((file) => [file.id, file]));
  const key = (fileId: string) => keys.file(spaceId, targetName(target), fileId);
  return {
    get: (fileId) => listed.get(fileId) ?? queryClient.getQueryData<RevisionFile | null>(key(fileId)),
    load: (fileId) => {
      if (listed.has(fileId)) return;
      void queryClient.prefetchQuery({
        queryKey: key(fileId),
        queryFn: ({ signal }) => readFile(spaceId, target, fileId, signal).catch((error: unknown) => (isNotFound(error) ? null : Promise.reject(error))),
        staleTime: Infinity,
        // Nothing observes these queries (the editor reads them through `get`): the cache keeps them for the page.
        gcTime: Infinity,
      });
    },
    subscribe: (onChange) => queryClient.getQueryCache().subscribe(onChange),
    add: (file) => queryClient.setQueryData(key(file.id), file),
  };
}

export function useTargetFiles(spaceId: string, target: EditTarget, revisionFiles: readonly RevisionFile[]): TargetFiles {
  const queryClient = useQueryClient();
  return useMemo(() => targetFiles(queryClient, spaceId, target, revisionFiles), [queryClient, spaceId, target, revisionFiles]);
}
