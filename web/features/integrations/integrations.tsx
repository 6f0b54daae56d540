import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { useParams } from 'react-router';
import type { Integration } from '../../api/types.ts';
import { ErrorNote, Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';
import { integrationsQuery } from './integrations-api.ts';
import { InstallAction } from './install-action.tsx';
import './integrations.css';
import { TextField } from '../../ui/text-field.tsx';

/** The integrations an organization may install (listIntegrations, searched by name or title), each with its installation there. */
export default function IntegrationsScreen() {
  const { orgId = '' } = useParams();
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search);
  const integrations = useQuery(integrationsQuery(deferred));
  useTitle('Integrations');
  return (
    <main id="main" className="app-main">
      <h1>Integrations</h1>
      <TextField label="Search integrations" type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
      {integrations.isPending ? <Skeleton lines={4} label="Loading integrations" /> : null}
      <ErrorNote error={integrations.error} />
      {integrations.data ? (
        integrations.data.items.length === 0 ? (
          <p>{deferred.trim() ? `No integration matches “${deferred.trim()}”.` : 'No integration is published yet.'}</p>
        ) : (
          <ul className="integration-list" aria-label="Integrations">
            {integrations.data.items.map((integration) => <IntegrationRow key={integration.name} orgId={orgId} integration={integration} />)}
          </ul>
        )
      ) : null}
    </main>
  );
}

function IntegrationRow({ orgId, integration }: { orgId: string; integration: Integration }) {
  return (
    <li className="integration-row">
      <div>
        <strong>{integration.title}</strong> <span className="muted">{integration.name}</span>
        {integration.description ? <p className="muted">{integration.description}</p> : null}
      </div>
      <InstallAction orgId={orgId} integration={integration} />
    </li>
  );
}
