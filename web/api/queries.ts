import { queryOptions } from '@tanstack/react-query';
import { allPages, api, type ListPage } from './client.ts';
import type {
  ChangeRequest, Collection, IdentityProvider, Integration, IntegrationInstallation, OpenAPISpec, Organization, OrganizationMember, Revision,
  RevisionPageDocument, SearchPageResult, SearchSpaceResult, OrganizationTeam, Site, Space, TranslationSettings, TrashedSpace, User, UserToken, BrowserSessionInfo,
} from './types.ts';

/*
 * Every read of the app: one query key and one fetch per API resource, so a screen that changes something
 * knows exactly which keys to refresh (`queryClient.invalidateQueries({ queryKey: keys.spaces(orgId) })`).
 * Keys nest: `['org', id]` is the prefix of every list of that organization.
 */
export const keys = {
  me: ['me'] as const,
  organizations: ['organizations'] as const,
  organization: (orgId: string) => ['org', orgId] as const,
  collections: (orgId: string) => ['org', orgId, 'collections'] as const,
  spaces: (orgId: string) => ['org', orgId, 'spaces'] as const,
  trash: (orgId: string) => ['org', orgId, 'trash'] as const,
  members: (orgId: string) => ['org', orgId, 'members'] as const,
  member: (orgId: string, userId: string) => ['org', orgId, 'members', userId] as const,
  teams: (orgId: string) => ['org', orgId, 'teams'] as const,
  team: (orgId: string, teamId: string) => ['org', orgId, 'teams', teamId] as const,
  site: (orgId: string, siteId: string) => ['org', orgId, 'sites', siteId] as const,
  sites: (orgId: string) => ['org', orgId, 'sites'] as const,
  openApiSpec: (orgId: string, slug: string) => ['org', orgId, 'openapi', slug] as const,
  translation: (orgId: string, id: string) => ['org', orgId, 'translations', id] as const,
  installation: (orgId: string, name: string) => ['org', orgId, 'installations', name] as const,
  integration: (name: string) => ['integration', name] as const,
  collection: (collectionId: string) => ['collection', collectionId] as const,
  space: (spaceId: string) => ['space', spaceId] as const,
  revision: (spaceId: string) => ['space', spaceId, 'revision'] as const,
  page: (spaceId: string, pageId: string) => ['space', spaceId, 'page', pageId] as const,
  /** A file of the space (`target` 'live') or of one of its change requests (`cr-<id>`), read by id. */
  file: (spaceId: string, target: string, fileId: string) => ['space', spaceId, 'files', target, fileId] as const,
  changeRequests: (spaceId: string, status: string) => ['space', spaceId, 'change-requests', status] as const,
  changeRequest: (spaceId: string, number: string) => ['space', spaceId, 'change-request', number] as const,
  search: (scope: string, query: string) => ['search', scope, query] as const,
  tokens: ['user', 'tokens'] as const,
  sessions: ['user', 'sessions'] as const,
  providers: ['auth', 'providers'] as const,
};

export const meQuery = () => queryOptions({ queryKey: keys.me, queryFn: ({ signal }) => api<User>('GET', '/user', { signal }), retry: false, staleTime: 60_000 });

/** Another person as the API shows them (getUserById): who wrote a revision, say. Names change seldom: kept a few minutes. */
export const userQuery = (userId: string) =>
  queryOptions({ queryKey: ['users', userId] as const, queryFn: ({ signal }) => api<User>('GET', `/users/${userId}`, { signal }), staleTime: 5 * 60_000 });

export const organizationsQuery = () =>
  queryOptions({ queryKey: keys.organizations, queryFn: ({ signal }) => allPages<{ object: string } & Organization>('/orgs', {}, signal) });

export const organizationQuery = (orgId: string) =>
  queryOptions({ queryKey: keys.organization(orgId), queryFn: ({ signal }) => api<Organization>('GET', `/orgs/${orgId}`, { signal }) });

export const collectionsQuery = (orgId: string) =>
  queryOptions({ queryKey: keys.collections(orgId), queryFn: ({ signal }) => allPages<Collection>(`/orgs/${orgId}/collections`, {}, signal) });

export const spacesQuery = (orgId: string) =>
  queryOptions({ queryKey: keys.spaces(orgId), queryFn: ({ signal }) => allPages<Space>(`/orgs/${orgId}/spaces`, {}, signal) });

/** The organization's deleted spaces, newest first, until they are purged (listSpacesInTrash). */
export const trashQuery = (orgId: string) =>
  queryOptions({ queryKey: keys.trash(orgId), queryFn: ({ signal }) => allPages<TrashedSpace>(`/orgs/${orgId}/trash/spaces`, {}, signal) });

export const collectionQuery = (collectionId: string) =>
  queryOptions({ queryKey: keys.collection(collectionId), queryFn: ({ signal }) => api<Collection>('GET', `/collections/${collectionId}`, { signal }) });

export const spaceQuery = (spaceId: string) =>
  queryOptions({ queryKey: keys.space(spaceId), queryFn: ({ signal }) => api<Space>('GET', `/spaces/${spaceId}`, { signal }) });

/** The current revision: the whole page tree (no documents), which the sidebar, breadcrumbs and paths use. */
export const revisionQuery = (spaceId: string) =>
  queryOptions({ queryKey: keys.revision(spaceId), queryFn: ({ signal }) => api<Revision>('GET', `/spaces/${spaceId}/content`, { signal }), staleTime: 30_000 });

export const pageQuery = (spaceId: string, pageId: string) =>
  queryOptions({
    queryKey: keys.page(spaceId, pageId),
    queryFn: ({ signal }) => api<RevisionPageDocument>('GET', `/spaces/${spaceId}/content/page/${pageId}`, { query: { format: 'document' }, signal }),
    staleTime: 30_000,
  });

export const changeRequestsQuery = (spaceId: string, status: string) =>
  queryOptions({
    queryKey: keys.changeRequests(spaceId, status),
    queryFn: ({ signal }) => api<ListPage<ChangeRequest>>('GET', `/spaces/${spaceId}/change-requests`, { query: { status: status === 'all' ? undefined : status, limit: 100 }, signal }),
  });

export const changeRequestQuery = (spaceId: string, number: string) =>
  queryOptions({ queryKey: keys.changeRequest(spaceId, number), queryFn: ({ signal }) => api<ChangeRequest>('GET', `/spaces/${spaceId}/change-requests/${number}`, { signal }) });

/** One RevisionSemanticChange of getChangeRequestChanges. */
export interface SemanticChange {
  type: string;
  page?: { id: string; title: string; path?: string; type: string };
  attributes?: Record<string, { before?: unknown; after?: unknown }>;
  parent?: { before?: { title: string }; after?: { title: string } };
  file?: { name: string };
}

/**
 * getChangeRequestChanges: every change, for the list of changed pages. The server preloads this exact URL (and
 * the space's and the change request's) with the screen's page (src/features/web-app/first-reads.ts).
 */
export const changeRequestChangesQuery = (spaceId: string, number: string) =>
  queryOptions({
    queryKey: [...keys.changeRequest(spaceId, number), 'changes'] as const,
    queryFn: ({ signal }) => api<{ changes: SemanticChange[]; more?: number }>('GET', `/spaces/${spaceId}/change-requests/${number}/changes`, { query: { limit: 1000 }, signal }),
  });

export const membersQuery = (orgId: string) =>
  queryOptions({ queryKey: keys.members(orgId), queryFn: ({ signal }) => allPages<OrganizationMember>(`/orgs/${orgId}/members`, {}, signal) });

export const memberQuery = (orgId: string, userId: string) =>
  queryOptions({ queryKey: keys.member(orgId, userId), queryFn: ({ signal }) => api<OrganizationMember>('GET', `/orgs/${orgId}/members/${userId}`, { signal }) });

export const teamsQuery = (orgId: string) =>
  queryOptions({ queryKey: keys.teams(orgId), queryFn: ({ signal }) => allPages<OrganizationTeam>(`/orgs/${orgId}/teams`, {}, signal) });

export const teamQuery = (orgId: string, teamId: string) =>
  queryOptions({ queryKey: keys.team(orgId, teamId), queryFn: ({ signal }) => api<OrganizationTeam>('GET', `/orgs/${orgId}/teams/${teamId}`, { signal }) });

export const sitesQuery = (orgId: string) =>
  queryOptions({ queryKey: keys.sites(orgId), queryFn: ({ signal }) => allPages<Site>(`/orgs/${orgId}/sites`, {}, signal) });

export const siteQuery = (orgId: string, siteId: string) =>
  queryOptions({ queryKey: keys.site(orgId, siteId), queryFn: ({ signal }) => api<Site>('GET', `/orgs/${orgId}/sites/${siteId}`, { signal }) });

export const openApiSpecQuery = (orgId: string, slug: string) =>
  queryOptions({ queryKey: keys.openApiSpec(orgId, slug), queryFn: ({ signal }) => api<OpenAPISpec>('GET', `/orgs/${orgId}/openapi/${slug}`, { signal }) });

export const translationQuery = (orgId: string, id: string) =>
  queryOptions({ queryKey: keys.translation(orgId, id), queryFn: ({ signal }) => api<TranslationSettings>('GET', `/orgs/${orgId}/translations/${id}`, { signal }) });

export const integrationQuery = (name: string) =>
  queryOptions({ queryKey: keys.integration(name), queryFn: ({ signal }) => api<Integration>('GET', `/integrations/${name}`, { signal }) });

/** An integration's installation in an organization: the installations list filtered to that organization. */
export const installationQuery = (orgId: string, name: string, installationId: string) =>
  queryOptions({
    queryKey: [...keys.installation(orgId, name), installationId],
    queryFn: ({ signal }) => api<IntegrationInstallation>('GET', `/integrations/${name}/installations/${installationId}`, { signal }),
  });

/** Ctrl/Cmd-K: the pages of one space (searchSpaceContent) or of every space of an organization (searchOrganizationContent). */
export const spaceSearchQuery = (spaceId: string, query: string) =>
  queryOptions({
    queryKey: keys.search(`space:${spaceId}`, query),
    queryFn: ({ signal }) => api<ListPage<SearchPageResult>>('GET', `/spaces/${spaceId}/search`, { query: { query, limit: 20 }, signal }),
    enabled: query.trim().length > 0,
    staleTime: 10_000,
  });

export const organizationSearchQuery = (orgId: string, query: string) =>
  queryOptions({
    queryKey: keys.search(`org:${orgId}`, query),
    queryFn: ({ signal }) => api<ListPage<SearchSpaceResult>>('GET', `/orgs/${orgId}/search`, { query: { query, limit: 20 }, signal }),
    enabled: query.trim().length > 0,
    staleTime: 10_000,
  });

export const tokensQuery = () => queryOptions({ queryKey: keys.tokens, queryFn: ({ signal }) => api<ListPage<UserToken>>('GET', '/user/tokens', { signal }) });

export const sessionsQuery = () =>
  queryOptions({ queryKey: keys.sessions, queryFn: ({ signal }) => api<ListPage<BrowserSessionInfo>>('GET', '/auth/sessions', { signal }) });

export const providersQuery = () =>
  queryOptions({ queryKey: keys.providers, queryFn: ({ signal }) => api<ListPage<IdentityProvider>>('GET', '/auth/providers', { signal }), retry: false, staleTime: 300_000 });
