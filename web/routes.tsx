import type { ComponentType } from 'react';
import { createBrowserRouter, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { changeRequestChangesQuery, changeRequestQuery, spaceQuery } from './api/queries.ts';
import { queryClient } from './api/query-client.ts';
import { AppShell } from './features/shell/app-shell.tsx';
import { RouteError } from './features/shell/route-error.tsx';

/*
 * One route per `urls.app` shape the API produces (src/platform/urls.ts callers; docs/web-app.md lists them),
 * each screen loaded when first opened, so the first screen's JavaScript stays small.
 */
const screen = (load: () => Promise<{ default: ComponentType }>) => async () => ({ Component: (await load()).default });

/**
 * A change request's reads start with the navigation, beside the loading of its screen's code, instead of after
 * the screen first renders: the list of changed pages is the long one. Nothing is awaited (the screen shows its
 * own loading and errors), and fresh answers are not asked again.
 */
function startChangeRequestReads({ params }: LoaderFunctionArgs): null {
  const { spaceId = '', number = '' } = params;
  void queryClient.prefetchQuery(spaceQuery(spaceId));
  void queryClient.prefetchQuery(changeRequestQuery(spaceId, number));
  void queryClient.prefetchQuery(changeRequestChangesQuery(spaceId, number));
  return null;
}

/**
 * The block editor's chunk (the largest) starts loading with the navigation to an edit route, beside the screen's
 * code and the space's read, instead of after the page's document was read: opened by its URL, the editor waited
 * for it last (issue 42). From the page view both were fetched ahead already, and this asks nothing.
 */
function startEditorLoad({ params }: LoaderFunctionArgs): null {
  void queryClient.prefetchQuery(spaceQuery(params.spaceId ?? ''));
  void import('./features/editing/body-editor.tsx').then((module) => module.preloadBlockEditor(), () => undefined);
  return null;
}

const routes: RouteObject[] = [
  { path: 'sign-in', lazy: screen(() => import('./features/auth/sign-in.tsx')) },
  { path: 'auth/link/:token', lazy: screen(() => import('./features/auth/accept-link.tsx')) },
  // An invite link works before signing in: the screen offers to sign in or to create an account.
  { path: 'o/:orgId/join/:inviteId', lazy: screen(() => import('./features/auth/join.tsx')) },
  {
    element: <AppShell />,
    errorElement: <RouteError />,
    // Nothing shows while a first visit loads its screen's code (what the router draws without one); said, so that
    // it does not warn on every first visit of a screen whose route reads ahead (a warning costs that screen ~20 ms).
    HydrateFallback: () => null,
    children: [
      { index: true, lazy: screen(() => import('./features/home/home.tsx')) },
      { path: 'settings/profile', lazy: screen(() => import('./features/settings/profile.tsx')) },
      { path: 'settings/tokens', lazy: screen(() => import('./features/settings/tokens.tsx')) },
      { path: 'inbox', lazy: screen(() => import('./features/inbox/inbox.tsx')) },
      { path: 'integrations/:integrationName', lazy: screen(() => import('./features/integrations/integration.tsx')) },
      {
        // An organization's screens share its sidebar (collections and spaces).
        lazy: screen(() => import('./features/organizations/organization-layout.tsx')),
        children: [
          { path: 'o/:orgId', lazy: screen(() => import('./features/organizations/organization-home.tsx')) },
          { path: 'o/:orgId/c/:collectionId', lazy: screen(() => import('./features/spaces/collection.tsx')) },
          { path: 'o/:orgId/s/:spaceId', lazy: screen(() => import('./features/spaces/space.tsx')) },
          { path: 'o/:orgId/settings', lazy: screen(() => import('./features/settings/organization-settings.tsx')) },
          { path: 'o/:orgId/trash', lazy: screen(() => import('./features/organizations/trash-screen.tsx')) },
          { path: 'o/:orgId/import', lazy: screen(() => import('./features/imports/import-screen.tsx')) },
          { path: 'o/:orgId/members', lazy: screen(() => import('./features/members/members.tsx')) },
          { path: 'o/:orgId/members/:userId', lazy: screen(() => import('./features/members/member.tsx')) },
          { path: 'o/:orgId/teams', lazy: screen(() => import('./features/teams/teams.tsx')) },
          { path: 'o/:orgId/settings/sso', lazy: screen(() => import('./features/settings/sso.tsx')) },
          { path: 'o/:orgId/settings/audit', lazy: screen(() => import('./features/settings/audit-log.tsx')) },
          { path: 'o/:orgId/teams/:teamId', lazy: screen(() => import('./features/teams/team.tsx')) },
          { path: 'o/:orgId/sites', lazy: screen(() => import('./features/sites/sites.tsx')) },
          { path: 'o/:orgId/sites/:siteId/:tab?', lazy: screen(() => import('./features/sites/site.tsx')) },
          { path: 'o/:orgId/openapi', lazy: screen(() => import('./features/openapi/specs.tsx')) },
          { path: 'o/:orgId/openapi/:specSlug', lazy: screen(() => import('./features/openapi/spec.tsx')) },
          { path: 'o/:orgId/translations', lazy: screen(() => import('./features/translations/translations.tsx')) },
          { path: 'o/:orgId/translations/:translationId', lazy: screen(() => import('./features/translations/translation.tsx')) },
          { path: 'o/:orgId/integrations', lazy: screen(() => import('./features/integrations/integrations.tsx')) },
          { path: 'o/:orgId/integrations/:integrationName/installations/:installationId', lazy: screen(() => import('./features/integrations/installation.tsx')) },
          // A space's own URLs name no organization: the space says which one (space-route.tsx).
          { path: 's/:spaceId/~/changes', lazy: screen(() => import('./features/change-requests/change-requests.tsx')) },
          { path: 's/:spaceId/~/changes/:number', loader: startChangeRequestReads, lazy: screen(() => import('./features/change-requests/change-request.tsx')) },
          { path: 's/:spaceId/~/edit/:pageId?', loader: startEditorLoad, lazy: screen(() => import('./features/editing/editing-screen.tsx')) },
          { path: 's/:spaceId/~/revisions/:revisionId', lazy: screen(() => import('./features/spaces/revision.tsx')) },
          { path: 's/:spaceId/~/git', lazy: screen(() => import('./features/git-sync/git-sync.tsx')) },
          { path: 's/:spaceId/~/history', lazy: screen(() => import('./features/history/history.tsx')) },
          { path: 's/:spaceId/*', lazy: screen(() => import('./features/spaces/space.tsx')) },
        ],
      },
      { path: '*', lazy: screen(() => import('./features/shell/not-found.tsx')) },
    ],
  },
];

export const router = createBrowserRouter(routes, { basename: '/app' });
