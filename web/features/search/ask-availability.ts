import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client.ts';

export interface AskAvailability {
  available: boolean;
  byMeaning: boolean;
  message?: string;
}

/** Whether this server answers questions (its operator set a model): screens say Ask is off rather than offer it in vain. */
export const askAvailabilityQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['org', orgId, 'ask-availability'],
    queryFn: ({ signal }) => api<AskAvailability>('GET', `/orgs/${orgId}/ask/availability`, { signal }),
    // The server's settings change only with a restart.
    staleTime: 5 * 60_000,
  });
