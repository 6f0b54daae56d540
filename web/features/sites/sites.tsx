import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, isNotFound } from '../../api/client.ts';
import { keys, organizationQuery, sitesQuery, spacesQuery } from '../../api/queries.ts';
import type { Site } from '../../api/types.ts';
import { TextField } from '../../ui/text-field.tsx';
import { Checkbox } from '../../ui/choices.tsx';
import { ErrorNote, NotFound, Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';
import { visibilityLabel } from './visibility.ts';
import { Button } from '../../ui/button.tsx';

/** An organization's sites: each with its visibility and whether it is published, and a form to create one from spaces. */
export default function SitesScreen() {
  const { orgId = '' } = useParams();
  const organization = useQuery(organizationQuery(orgId));
  const sites = useQuery(sitesQuery(orgId));
  useTitle(organization.data ? `Sites · ${organization.data.title}` : 'Sites');
  if (isNotFound(organization.error)) return <main id="main" className="app-main"><NotFound what="organization" /></main>;
  return (
    <main id="main" className="app-main">
      <h1>Sites</h1>
      <CreateSiteForm orgId={orgId} />
      {sites.isPending ? <Skeleton lines={4} label="Loading the sites" /> : null}
      <ErrorNote error={sites.error} />
      {sites.data && sites.data.length === 0 ? <p>No site yet: create one from the spaces it publishes.</p> : null}
      {sites.data && sites.data.length > 0 ? (
        <ul className="row-list" aria-label="Sites">
          {sites.data.map((site) => (
            <li key={site.id}>
              <Link to={`/o/${orgId}/sites/${site.id}`}>{site.title}</Link>
              <span className="badge">{visibilityLabel(site.visibility)}</span>
              <span className={site.published ? 'badge badge-open' : 'badge'}>{site.published ? 'Published' : 'Not published'}</span>
              {site.urls.published ? <a href={site.urls.published} target="_blank" rel="noreferrer">{site.urls.published}</a> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </main>
  );
}

function CreateSiteForm({ orgId }: { orgId: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const spaces = useQuery(spacesQuery(orgId));
  const [title, setTitle] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const create = useMutation({
    mutationFn: () => api<Site>('POST', `/orgs/${orgId}/sites`, { body: { title, spaces: chosen } }),
    onSuccess: async (site) => {
      await queryClient.invalidateQueries({ queryKey: keys.sites(orgId), exact: true });
      await navigate(`/o/${orgId}/sites/${site.id}`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const toggle = (spaceId: string, on: boolean) => setChosen((ids) => (on ? [...ids, spaceId] : ids.filter((id) => id !== spaceId)));
  return (
    <section aria-labelledby="create-site-title" className="panel">
      <h2 id="create-site-title">Create a site</h2>
      <form onSubmit={submit}>
        <TextField label="Site title" required minLength={2} maxLength={128} value={title} onChange={(e) => setTitle(e.target.value)} />
        <fieldset className="choice-list">
          <legend>Spaces it publishes</legend>
          {spaces.isPending ? <Skeleton lines={2} label="Loading the spaces" /> : null}
          <ErrorNote error={spaces.error} />
          {spaces.data?.map((space) => (
            <Checkbox key={space.id} label={space.title} checked={chosen.includes(space.id)} onCheckedChange={(on) => toggle(space.id, on)} />
          ))}
        </fieldset>
        <Button variant="primary" type="submit" disabled={create.isPending}>Create site</Button>
      </form>
      <ErrorNote error={create.error} />
    </section>
  );
}
