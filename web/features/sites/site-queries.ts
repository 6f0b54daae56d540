import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { allPages, api } from '../../api/client.ts';
import { keys } from '../../api/queries.ts';
import type { Site } from '../../api/types.ts';
import type { ShareLink, SiteAdaptiveSchema, SiteCustomizationSettings, SitePublishingAuth } from '@gitbook/api';
// 0.202.0's structure (external links among the sections) and redirects (drafts, web addresses), which the pinned client (0.143) does not type.
import type { SiteRedirect, SiteStructure } from '@gitbook/api-latest';

/*
 * The reads of a site's screens, each under the site's key (`keys.site`), so a change to the site refreshes
 * them all with one `invalidateSite`.
 */
export const sitePath = (orgId: string, siteId: string) => `/orgs/${orgId}/sites/${siteId}`;

const part = (orgId: string, siteId: string, name: string, ...rest: string[]) => [...keys.site(orgId, siteId), name, ...rest] as const;

export const structureQuery = (orgId: string, siteId: string) =>
  queryOptions({ queryKey: part(orgId, siteId, 'structure'), queryFn: ({ signal }) => api<SiteStructure>('GET', `${sitePath(orgId, siteId)}/structure`, { signal }) });

export const shareLinksQuery = (orgId: string, siteId: string) =>
  queryOptions({ queryKey: part(orgId, siteId, 'share-links'), queryFn: ({ signal }) => allPages<ShareLink>(`${sitePath(orgId, siteId)}/share-links`, {}, signal) });

/** The live redirects, or the drafts (kept, not applied, until published). */
export const redirectsQuery = (orgId: string, siteId: string, draft = false) =>
  queryOptions({
    queryKey: part(orgId, siteId, draft ? 'draft-redirects' : 'redirects'),
    queryFn: ({ signal }) => allPages<SiteRedirect>(`${sitePath(orgId, siteId)}/redirects`, draft ? { draft: 'true' } : {}, signal),
  });

export const customizationQuery = (orgId: string, siteId: string) =>
  queryOptions({
    queryKey: part(orgId, siteId, 'customization'),
    queryFn: ({ signal }) => api<SiteCustomizationSettings>('GET', `${sitePath(orgId, siteId)}/customization`, { signal }),
  });

export const siteSpaceCustomizationQuery = (orgId: string, siteId: string, siteSpaceId: string) =>
  queryOptions({
    queryKey: part(orgId, siteId, 'customization', siteSpaceId),
    queryFn: ({ signal }) => api<SiteCustomizationSettings>('GET', `${sitePath(orgId, siteId)}/site-spaces/${siteSpaceId}/customization`, { signal }),
  });

export const publishingAuthQuery = (orgId: string, siteId: string) =>
  queryOptions({
    queryKey: part(orgId, siteId, 'publishing-auth'),
    queryFn: ({ signal }) => api<SitePublishingAuth>('GET', `${sitePath(orgId, siteId)}/publishing/auth`, { signal }),
  });

export const adaptiveSchemaQuery = (orgId: string, siteId: string) =>
  queryOptions({
    queryKey: part(orgId, siteId, 'adaptive-schema'),
    queryFn: ({ signal }) => api<SiteAdaptiveSchema>('GET', `${sitePath(orgId, siteId)}/adaptive-schema`, { signal }),
  });

/** After any change to a site: the site, its structure, links, customization… and the organization's list. */
export const invalidateSite = (queryClient: QueryClient, orgId: string, siteId: string) =>
  Promise.all([queryClient.invalidateQueries({ queryKey: keys.site(orgId, siteId) }), queryClient.invalidateQueries({ queryKey: keys.sites(orgId), exact: true })]);

/** What each tab of the site screen is given. */
export interface SiteTabProps {
  orgId: string;
  site: Site;
}
