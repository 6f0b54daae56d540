import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { keys } from '../../api/queries.ts';
import type { Collection, Space } from '../../api/types.ts';

/** createSpace: a new space of the organization, at its top level or in a collection (`parent`). */
export function postSpace(orgId: string, input: { title: string; parent?: string }): Promise<Space> {
  return api<Space>('POST', `/orgs/${orgId}/spaces`, { body: input });
}

/*
 * What the sidebar changes, each refreshing the lists it touched, so the screen follows without a reload.
 */
export function useSidebarActions(orgId: string) {
  const queryClient = useQueryClient();
  const refresh = async (spaceId?: string) => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: keys.collections(orgId) }),
      queryClient.invalidateQueries({ queryKey: keys.spaces(orgId) }),
      queryClient.invalidateQueries({ queryKey: keys.trash(orgId) }),
      spaceId ? queryClient.invalidateQueries({ queryKey: keys.space(spaceId) }) : undefined,
    ]);
  };
  return {
    createSpace: useMutation({
      mutationFn: (input: { title: string; parent?: string }) => postSpace(orgId, input),
      onSuccess: () => refresh(),
    }),
    createCollection: useMutation({
      mutationFn: (input: { title: string; parent?: string }) => api<Collection>('POST', `/orgs/${orgId}/collections`, { body: input }),
      onSuccess: () => refresh(),
    }),
    rename: useMutation({
      mutationFn: ({ kind, id, title }: { kind: 'space' | 'collection'; id: string; title: string }) => api('PATCH', kind === 'space' ? `/spaces/${id}` : `/collections/${id}`, { body: { title } }),
      onSuccess: (_data, input) => Promise.all([refresh(input.kind === 'space' ? input.id : undefined), queryClient.invalidateQueries({ queryKey: keys.collection(input.id) })]),
    }),
    move: useMutation({
      mutationFn: ({ kind, id, parent }: { kind: 'space' | 'collection'; id: string; parent: string | null }) => api('POST', kind === 'space' ? `/spaces/${id}/move` : `/collections/${id}/move`, { body: { parent } }),
      onSuccess: (_data, input) => refresh(input.kind === 'space' ? input.id : undefined),
    }),
    remove: useMutation({
      mutationFn: ({ kind, id }: { kind: 'space' | 'collection'; id: string }) => api('DELETE', kind === 'space' ? `/spaces/${id}` : `/collections/${id}`),
      onSuccess: (_data, input) => refresh(input.kind === 'space' ? input.id : undefined),
    }),
    restore: useMutation({
      mutationFn: (spaceId: string) => api('POST', `/spaces/${spaceId}/restore`),
      onSuccess: (_data, spaceId) => refresh(spaceId),
    }),
  };
}
