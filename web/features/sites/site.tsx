import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { NavLink, useParams } from 'react-router';
import { api, isNotFound } from '../../api/client.ts';
import { siteQuery } from '../../api/queries.ts';
import type { Site } from '../../api/types.ts';
import { ErrorNote, NotFound, Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';
import { invalidateSite, sitePath } from './site-queries.ts';
import { visibilityLabel } from './visibility.ts';
import { Button, buttonClass } from '../../ui/button.tsx';
import { Badge } from '../../ui/badge.tsx';

/* Each tab is its own chunk: opening a site loads its structure editor, not the customization form too. */
const TABS = [
  { path: '', label: 'Structure', Tab: lazy(() => import('./site-structure.tsx')) },
  { path: 'customization', label: 'Customization', Tab: lazy(() => import('./site-customization.tsx')) },
  { path: 'sharing', label: 'Sharing', Tab: lazy(() => import('./site-sharing.tsx')) },
  { path: 'redirects', label: 'Redirects', Tab: lazy(() => import('./site-redirects.tsx')) },
  { path: 'access', label: 'Domain and access', Tab: lazy(() => import('./site-access.tsx')) },
  { path: 'questions', label: 'Questions', Tab: lazy(() => import('./site-questions.tsx')) },
] as const;

/** A site: its structure, customization, sharing, redirects, domain and visitor access, and what readers asked, one tab each; publish and unpublish above them. */
export default function SiteScreen() {
  const { orgId = '', siteId = '', tab = '' } = useParams();
  const site = useQuery(siteQuery(orgId, siteId));
  useTitle(site.data ? `${site.data.title} · Sites` : 'Site');
  if (isNotFound(site.error)) return <main id="main" className="app-main"><NotFound what="site" /></main>;
  const current = TABS.find((t) => t.path === tab);
  return (
    <main id="main" className="app-main site-screen">
      {site.isPending ? <Skeleton lines={2} label="Loading the site" /> : null}
      <ErrorNote error={site.error} />
      {site.data ? <SiteHeader orgId={orgId} site={site.data} /> : null}
      <nav aria-label="Site" className="space-tabs site-tabs">
        {TABS.map((t) => (
          <NavLink key={t.path} to={`/o/${orgId}/sites/${siteId}${t.path ? `/${t.path}` : ''}`} end>{t.label}</NavLink>
        ))}
      </nav>
      {!current ? <NotFound what="tab of a site" /> : null}
      {current && site.data ? (
        <Suspense fallback={<Skeleton lines={4} label={`Loading ${current.label.toLowerCase()}`} />}>
          <current.Tab orgId={orgId} site={site.data} />
        </Suspense>
      ) : null}
    </main>
  );
}

function SiteHeader({ orgId, site }: { orgId: string; site: Site }) {
  const queryClient = useQueryClient();
  const publish = useMutation({
    mutationFn: () => api<Site>('POST', `${sitePath(orgId, site.id)}/${site.published ? 'unpublish' : 'publish'}`),
    onSuccess: () => invalidateSite(queryClient, orgId, site.id),
  });
  return (
    <header className="site-screen-header">
      <div>
        <h1>{site.title}</h1>
        <p className="muted">
          <Badge tone="info">{visibilityLabel(site.visibility)}</Badge>{' '}
          <Badge tone={site.published ? 'success' : 'neutral'}>{site.published ? 'Published' : 'Not published'}</Badge>
        </p>
      </div>
      <div className="header-end">
        {site.urls.published ? (
          <a className={buttonClass()} href={site.urls.published} target="_blank" rel="noreferrer">Open the published site</a>
        ) : null}
        <Button variant={site.published ? 'secondary' : 'primary'} loading={publish.isPending} onClick={() => publish.mutate()}>
          {site.published ? 'Unpublish' : 'Publish'}
        </Button>
      </div>
      <ErrorNote error={publish.error} />
    </header>
  );
}
