import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useId, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../../api/client.ts';
import { keys } from '../../api/queries.ts';
import type { Integration, IntegrationInstallation } from '../../api/types.ts';
import { ErrorNote, Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';
import { installationInQuery, integrationsQuery } from './integrations-api.ts';
import './integrations.css';
import { Button, buttonClass } from '../../ui/button.tsx';

/** The integrations an organization may install (listIntegrations, searched by name or title), each with its installation there. */
export default function IntegrationsScreen() {
  const { orgId = '' } = useParams();
  const searchId = useId();
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search);
  const integrations = useQuery(integrationsQuery(deferred));
  useTitle('Integrations');
  return (
    <main id="main" className="app-main">
      <h1>Integrations</h1>
      <div className="field">
        <label htmlFor={searchId}>Search integrations</label>
        <input id={searchId} type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
      </div>
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
  const installation = useQuery(installationInQuery(orgId, integration.name));
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const install = useMutation({
    mutationFn: () => api<IntegrationInstallation>('POST', `/integrations/${integration.name}/installations`, { body: { organization: orgId } }),
    onSuccess: async (created) => {
      queryClient.setQueryData(installationInQuery(orgId, integration.name).queryKey, created);
      await queryClient.invalidateQueries({ queryKey: keys.installation(orgId, integration.name) });
      await navigate(`/o/${orgId}/integrations/${integration.name}/installations/${created.id}`);
    },
  });
  return (
    <li className="integration-row">
      <div>
        <strong>{integration.title}</strong> <span className="muted">{integration.name}</span>
        {integration.description ? <p className="muted">{integration.description}</p> : null}
        <ErrorNote error={install.error ?? installation.error} />
      </div>
      {installation.isPending || installation.data === undefined ? (
        // Not known yet, or not known at all (the error says why): neither "Open" nor "Install" would be true.
        installation.isPending ? <span className="muted">…</span> : null
      ) : installation.data ? (
        <span className="integration-installed">
          <span className="muted">Installed</span>
          <Link className={buttonClass()} to={`/o/${orgId}/integrations/${integration.name}/installations/${installation.data.id}`} aria-label={`Open ${integration.title}`}>
            Open
          </Link>
        </span>
      ) : (
        <Button variant="primary" disabled={install.isPending} onClick={() => install.mutate()} aria-label={`Install ${integration.title}`}>
          Install
        </Button>
      )}
    </li>
  );
}
