import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type RequestOptions } from '../../api/client.ts';
import { invalidateSite, sitePath } from './site-queries.ts';

/**
 * One change to a site through the API (`path` below the site's), after which every read of the site is
 * refreshed. Each form or row has its own, so a failure shows next to what failed.
 */
export function useSiteChange<T = unknown>(orgId: string, siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ method, path, body }: { method: string; path: string; body?: RequestOptions['body'] }) => api<T>(method, `${sitePath(orgId, siteId)}${path}`, { body }),
    onSuccess: () => invalidateSite(queryClient, orgId, siteId),
  });
}
