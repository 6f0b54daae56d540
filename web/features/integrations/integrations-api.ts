import { queryOptions } from '@tanstack/react-query';
import { allPages, api, type ListPage } from '../../api/client.ts';
import { keys } from '../../api/queries.ts';
import type { Integration, IntegrationInstallation } from '../../api/types.ts';

/*
 * The reads of the integrations screens through the public API (official operation ids in the comments). Keys
 * extend the organization's and the integration's, so one invalidation refreshes a whole screen.
 */

/** The official IntegrationEvent with Quire's `delivery` (docs/integration-events.md). */
export interface InstallationEvent {
  id: string;
  installationId?: string;
  createdAt: string;
  payload: { type: string } & Record<string, unknown>;
  status: 'success' | 'failed';
  delivery: { state: 'pending' | 'success' | 'failed' | 'skipped'; attempts: number; nextAttemptAt?: string; deliveredAt?: string };
}

export interface InstallationEventDetail {
  event: InstallationEvent;
  trace: { logs: { message: string; timestamp: string; level: string }[] };
}

/** A space or site an installation is on (IntegrationSpaceInstallation / IntegrationSiteInstallation). */
export interface ContentInstallation {
  space?: string;
  site?: string;
  status: string;
  configuration: Record<string, unknown>;
}

/** listIntegrations with its official `search` filter: the integrations the person may install. */
export const integrationsQuery = (search: string) =>
  queryOptions({
    queryKey: ['integrations', search] as const,
    queryFn: ({ signal }) => api<ListPage<Integration>>('GET', '/integrations', { query: { search: search.trim() || undefined, limit: 100 }, signal }),
    staleTime: 30_000,
  });

/** The organization's installation of one integration, if any (listIntegrationInstallations, filtered to it). */
export const installationInQuery = (orgId: string, name: string) =>
  queryOptions({
    queryKey: [...keys.installation(orgId, name), 'mine'] as const,
    queryFn: async ({ signal }) => {
      const all = await allPages<IntegrationInstallation>(`/integrations/${name}/installations`, {}, signal);
      return all.find((installation) => installation.target.organization === orgId) ?? null;
    },
  });

/** listIntegrationInstallationSpaces / …Sites: where the installation is. */
export const installedOnQuery = (orgId: string, name: string, installationId: string, kind: 'spaces' | 'sites') =>
  queryOptions({
    queryKey: [...keys.installation(orgId, name), installationId, kind] as const,
    queryFn: ({ signal }) => allPages<ContentInstallation>(`/integrations/${name}/installations/${installationId}/${kind}`, {}, signal),
  });

/** listIntegrationInstallationEvents (Quire's): the installation's deliveries, newest first. */
export const installationEventsQuery = (orgId: string, name: string, installationId: string) =>
  queryOptions({
    queryKey: [...keys.installation(orgId, name), installationId, 'events'] as const,
    queryFn: ({ signal }) => api<ListPage<InstallationEvent>>('GET', `/integrations/${name}/installations/${installationId}/events`, { query: { limit: 50 }, signal }),
    // Deliveries happen in the background (the worker runs every second): the log follows them.
    refetchInterval: 3000,
  });

export const installationEventQuery = (orgId: string, name: string, installationId: string, eventId: string) =>
  queryOptions({
    queryKey: [...keys.installation(orgId, name), installationId, 'events', eventId] as const,
    queryFn: ({ signal }) => api<InstallationEventDetail>('GET', `/integrations/${name}/installations/${installationId}/events/${eventId}`, { signal }),
  });
