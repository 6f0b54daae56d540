import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { integrationQuery, organizationsQuery } from '../../api/queries.ts';
import type { Integration } from '../../api/types.ts';
import { External, ResourceScreen } from '../../ui/resource-screen.tsx';
import { Select } from '../../ui/select.tsx';
import { ErrorNote } from '../../ui/states.tsx';
import { InstallAction } from './install-action.tsx';

export default function IntegrationScreen() {
  const { integrationName = '' } = useParams();
  return (
    <ResourceScreen
      query={useQuery(integrationQuery(integrationName))}
      what="integration"
      title={(integration) => integration.title}
      facts={(integration) => [
        ['Name', <code>{integration.name}</code>],
        ['Description', integration.description || '—'],
        ['Visibility', integration.visibility],
        ['Scopes', integration.scopes.join(', ') || 'none'],
        ['API', <External href={integration.urls.location} />],
      ]}
    >
      {(integration) => <InstallIn integration={integration} />}
    </ResourceScreen>
  );
}

/** Installs the integration where the catalogue would: in the person's organization, chosen when they have several. */
function InstallIn({ integration }: { integration: Integration }) {
  const organizations = useQuery(organizationsQuery());
  const [chosen, setChosen] = useState<string>();
  const orgs = organizations.data ?? [];
  const orgId = chosen ?? (orgs.length === 1 ? orgs[0]!.id : undefined);
  if (organizations.error) return <ErrorNote error={organizations.error} />;
  if (orgs.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="install-in">
      <h2 id="install-in">Install</h2>
      {orgs.length > 1 ? (
        <Select label="Organization" placeholder="Choose an organization…" value={orgId} onValueChange={setChosen} options={orgs.map((o) => ({ value: o.id, label: o.title }))} />
      ) : null}
      {orgId ? <InstallAction key={orgId} orgId={orgId} integration={integration} /> : null}
    </section>
  );
}
