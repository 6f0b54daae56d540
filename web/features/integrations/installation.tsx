import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, isNotFound } from '../../api/client.ts';
import { installationQuery, integrationQuery, keys } from '../../api/queries.ts';
import type { Integration, IntegrationInstallation } from '../../api/types.ts';
import { ErrorNote, NotFound, Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';
import { ContentKitView } from './contentkit/contentkit-view.tsx';
import { InstallationEvents } from './installation-events.tsx';
import { installationInQuery } from './integrations-api.ts';
import { InstallationReach } from './installation-reach.tsx';
import { SchemaConfiguration } from './schema-configuration.tsx';
import './integrations.css';
import { Button } from '../../ui/button.tsx';
import { AlertDialog } from '../../ui/dialogs.tsx';

/**
 * An integration installed in an organization: its configuration (the integration's own ContentKit screen, or
 * a form from its configuration schema), the spaces and sites it is on, the events sent for it, and uninstall.
 */
export default function InstallationScreen() {
  const { orgId = '', integrationName = '', installationId = '' } = useParams();
  const integration = useQuery(integrationQuery(integrationName));
  const installation = useQuery(installationQuery(orgId, integrationName, installationId));
  useTitle(integration.data ? `${integration.data.title} · Integrations` : 'Integration');
  if (isNotFound(installation.error) || isNotFound(integration.error)) return <main id="main" className="app-main"><NotFound what="installation" /></main>;
  return (
    <main id="main" className="app-main">
      <p className="kind"><Link to={`/o/${orgId}/integrations`}>Integrations</Link></p>
      {installation.isPending || integration.isPending ? <Skeleton lines={4} label="Loading the installation" /> : null}
      <ErrorNote error={installation.error ?? integration.error} />
      {installation.data && integration.data ? (
        <>
          <h1>{integration.data.title}</h1>
          <dl className="facts">
            <div><dt>Status</dt><dd>{installation.data.status === 'pending' ? 'Pending: its configuration is not complete' : installation.data.status}</dd></div>
            <div><dt>Integration</dt><dd><Link to={`/integrations/${integrationName}`}>{integrationName}</Link></dd></div>
            <div><dt>Scopes</dt><dd>{integration.data.scopes.join(', ') || 'none'}</dd></div>
          </dl>
          <Configuration orgId={orgId} integration={integration.data} installation={installation.data} />
          <InstallationReach orgId={orgId} integration={integration.data} installation={installation.data} />
          <InstallationEvents orgId={orgId} integrationName={integrationName} installationId={installationId} />
          <Uninstall orgId={orgId} integration={integration.data} installationId={installationId} />
        </>
      ) : null}
    </main>
  );
}

function Configuration({ orgId, integration, installation }: { orgId: string; integration: Integration; installation: IntegrationInstallation }) {
  const queryClient = useQueryClient();
  const [done, setDone] = useState(false);
  const account = (integration.configurations as { account?: Record<string, unknown> } | undefined)?.account;
  const refresh = () => queryClient.invalidateQueries({ queryKey: keys.installation(orgId, integration.name) });
  if (!account) return null;
  return (
    <section className="panel" aria-labelledby="configuration-title">
      <h2 id="configuration-title">Configuration</h2>
      {typeof account.componentId === 'string' ? (
        <>
          {done ? <p role="status">Configuration saved.</p> : null}
          <ContentKitView
            integration={integration.name}
            componentId={account.componentId}
            // What GitBook gives an account configuration component: the installation with its configuration.
            props={{ installation: { configuration: installation.configuration } }}
            context={{ type: 'configuration_account', theme: document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light', organizationId: orgId }}
            onComplete={() => {
              setDone(true);
              void refresh();
            }}
          />
        </>
      ) : (
        <SchemaConfiguration schema={account} configuration={installation.configuration as Record<string, unknown>}
          save={(configuration) => api('PATCH', `/integrations/${integration.name}/installations/${installation.id}`, { body: { configuration } }).then(refresh)} />
      )}
    </section>
  );
}

function Uninstall({ orgId, integration, installationId }: { orgId: string; integration: Integration; installationId: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const uninstall = useMutation({
    mutationFn: () => api('DELETE', `/integrations/${integration.name}/installations/${installationId}`),
    onSuccess: async () => {
      // The catalogue may hold what it read before the install: told at once that there is none, it never
      // offers "Open" for what is gone, nor shows a stale answer while it reads again.
      queryClient.setQueryData(installationInQuery(orgId, integration.name).queryKey, null);
      await queryClient.invalidateQueries({ queryKey: keys.installation(orgId, integration.name) });
      await navigate(`/o/${orgId}/integrations`);
    },
  });
  return (
    <section className="panel" aria-labelledby="uninstall-title">
      <h2 id="uninstall-title">Uninstall</h2>
      <p>Removes {integration.title} from this organization, its spaces and sites; its access ends at once.</p>
      <AlertDialog
        title={`Uninstall ${integration.title} from this organization?`}
        description="It is removed from the organization, its spaces and sites, and its access ends at once."
        confirm={`Uninstall ${integration.title}`}
        error={uninstall.error}
        onConfirm={() => uninstall.mutateAsync()}
        trigger={<Button variant="danger">Uninstall {integration.title}</Button>}
      />
    </section>
  );
}
