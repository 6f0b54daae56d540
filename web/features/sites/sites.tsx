import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, isNotFound } from '../../api/client.ts';
import { keys, organizationQuery, sitesQuery, spacesQuery } from '../../api/queries.ts';
import type { Site } from '../../api/types.ts';
import { TextField } from '../../ui/text-field.tsx';
import { placeError } from '../../ui/use-submit.ts';
import { Checkbox } from '../../ui/choices.tsx';
import { EmptyState, ErrorNote, NotFound, Skeleton } from '../../ui/states.tsx';
import { Badge } from '../../ui/badge.tsx';
import { Dialog } from '../../ui/dialogs.tsx';
import { useTitle } from '../../ui/title.ts';
import { visibilityLabel } from './visibility.ts';
import { Button } from '../../ui/button.tsx';
import { faPlus } from '@fortawesome/free-solid-svg-icons';

/**
 * An organization's sites, first: each a card with its visibility and whether it is published, opening its screen.
 * "New site" opens a dialog to create one from spaces (the empty screen offers it too).
 */
export default function SitesScreen() {
  const { orgId = '' } = useParams();
  const organization = useQuery(organizationQuery(orgId));
  const sites = useQuery(sitesQuery(orgId));
  const [creating, setCreating] = useState(false);
  useTitle(organization.data ? `Sites · ${organization.data.title}` : 'Sites');
  if (isNotFound(organization.error)) return <main id="main" className="app-main"><NotFound what="organization" /></main>;
  const newSite = <Button variant="primary" icon={faPlus} onClick={() => setCreating(true)}>New site</Button>;
  return (
    <main id="main" className="app-main">
      <div className="screen-head">
        <h1>Sites</h1>
        {sites.data && sites.data.length > 0 ? newSite : null}
      </div>
      {sites.isPending ? <Skeleton lines={4} label="Loading the sites" /> : null}
      <ErrorNote error={sites.error} />
      {sites.data && sites.data.length === 0 ? (
        <EmptyState title="No site yet" action={newSite}>
          <p>A site publishes spaces as a documentation website, public or for signed-in visitors. Create one from the spaces it publishes.</p>
        </EmptyState>
      ) : null}
      {sites.data && sites.data.length > 0 ? (
        <ul className="card-list site-cards" aria-label="Sites">
          {sites.data.map((site) => (
            <li key={site.id} className="site-card">
              <Link className="site-card-title" to={`/o/${orgId}/sites/${site.id}`}>{site.title}</Link>
              <div className="site-card-badges">
                <Badge tone={site.published ? 'success' : 'neutral'}>{site.published ? 'Published' : 'Not published'}</Badge>
                <Badge tone="info">{visibilityLabel(site.visibility)}</Badge>
              </div>
              {site.urls.published ? <a className="site-card-url" href={site.urls.published} target="_blank" rel="noreferrer">{site.urls.published}</a> : null}
            </li>
          ))}
        </ul>
      ) : null}
      <Dialog title="New site" description="A site publishes the spaces you choose as a documentation website." open={creating} onOpenChange={setCreating}>
        <CreateSiteForm orgId={orgId} onCancel={() => setCreating(false)} />
      </Dialog>
    </main>
  );
}

function CreateSiteForm({ orgId, onCancel }: { orgId: string; onCancel: () => void }) {
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
  const refused = placeError(create.error, ['title']);
  const toggle = (spaceId: string, on: boolean) => setChosen((ids) => (on ? [...ids, spaceId] : ids.filter((id) => id !== spaceId)));
  return (
    <form onSubmit={submit} aria-label="New site">
      <TextField label="Site title" required minLength={2} maxLength={128} value={title} onChange={(e) => setTitle(e.target.value)} error={refused.fields.title} autoFocus />
      <fieldset className="choice-list">
        <legend>Spaces it publishes</legend>
        {spaces.isPending ? <Skeleton lines={2} label="Loading the spaces" /> : null}
        <ErrorNote error={spaces.error} />
        {spaces.data?.map((space) => (
          <Checkbox key={space.id} label={space.title} checked={chosen.includes(space.id)} onCheckedChange={(on) => toggle(space.id, on)} />
        ))}
      </fieldset>
      <ErrorNote error={refused.form} />
      <div className="ui-dialog-actions">
        <Button onClick={onCancel}>Cancel</Button>
        <Button variant="primary" type="submit" loading={create.isPending}>Create site</Button>
      </div>
    </form>
  );
}
