import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { allPages } from '../../api/client.ts';
import { organizationQuery, sitesQuery, spacesQuery, teamsQuery } from '../../api/queries.ts';
import type { OpenAPISpec, TranslationSettings } from '../../api/types.ts';
import { appPath } from '../../ui/app-path.ts';
import { buttonClass } from '../../ui/button.tsx';
import { EmptyState, ErrorNote, Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';
import { FirstSteps } from './first-steps.tsx';

/** An organization: what it publishes and who works in it, each linking to its own screen. */
export default function OrganizationHome() {
  const { orgId = '' } = useParams();
  const organization = useQuery(organizationQuery(orgId));
  useTitle(organization.data?.title);
  const spaces = useQuery(spacesQuery(orgId));
  const sites = useQuery(sitesQuery(orgId));
  const teams = useQuery(teamsQuery(orgId));
  const specs = useQuery({ queryKey: ['org', orgId, 'openapi'], queryFn: ({ signal }) => allPages<OpenAPISpec>(`/orgs/${orgId}/openapi`, {}, signal) });
  const translations = useQuery({ queryKey: ['org', orgId, 'translations'], queryFn: ({ signal }) => allPages<TranslationSettings>(`/orgs/${orgId}/translations`, {}, signal) });
  const firstSteps = spaces.data?.length === 0;
  return (
    <main id="main" className="app-main">
      {organization.isPending ? <Skeleton lines={1} /> : <h1>{organization.data?.title ?? 'Organization'}</h1>}
      <ErrorNote error={organization.error} />
      {/* A new organization, with no space yet, is shown its first actions; afterwards, what it publishes. */}
      {firstSteps ? <FirstSteps orgId={orgId} /> : <p>Open a space in the sidebar, or create one with “New space”.</p>}
      {/* The first steps already offer to publish a site: no second "Publish a site" under them. */}
      {firstSteps && sites.data?.length === 0 ? null : (
        <LinkList
          title="Sites"
          query={sites}
          item={(s) => ({ id: s.id, title: s.title, app: s.urls.app })}
          empty={{ title: 'No site yet', text: 'A site publishes spaces as a documentation website, public or for signed-in visitors.', action: 'Publish a site', to: `/o/${orgId}/sites` }}
        />
      )}
      <LinkList
        title="Teams"
        query={teams}
        item={(t) => ({ id: t.id, title: t.title, app: `/app/o/${orgId}/teams/${t.id}` })}
        empty={{ title: 'No team yet', text: 'A team gives several members the same access to spaces and collections at once.', action: 'Create a team', to: `/o/${orgId}/teams` }}
      />
      <LinkList
        title="OpenAPI specifications"
        query={specs}
        item={(s) => ({ id: s.id, title: s.slug, app: s.urls.app })}
        empty={{ title: 'No OpenAPI specification yet', text: 'An OpenAPI specification becomes an API reference that pages can show.', action: 'Add a specification', to: `/o/${orgId}/openapi` }}
      />
      <LinkList
        title="Translations"
        query={translations}
        item={(t) => ({ id: t.id, title: t.title, app: `/app/o/${orgId}/translations/${t.id}` })}
        empty={{ title: 'No translation yet', text: 'A translation keeps a space in other languages, a space for each.', action: 'Set up a translation', to: `/o/${orgId}/translations` }}
      />
    </main>
  );
}

interface Empty { title: string; text: string; action: string; to: string }

function LinkList<T>({ title, query, item, empty }: { title: string; query: UseQueryResult<T[]>; item: (value: T) => { id: string; title: string; app: string }; empty: Empty }) {
  const id = `list-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {query.isPending ? <Skeleton lines={2} /> : null}
      <ErrorNote error={query.error} />
      {query.data && query.data.length === 0 ? (
        <EmptyState headingLevel={3} title={empty.title} action={<Link className={buttonClass('secondary')} to={empty.to}>{empty.action}</Link>}>
          <p>{empty.text}</p>
        </EmptyState>
      ) : null}
      {query.data && query.data.length > 0 ? (
        <ul className="card-list">
          {query.data.map(item).map((entry) => (
            <li key={entry.id}><Link className="card" to={appPath(entry.app)}>{entry.title}</Link></li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
