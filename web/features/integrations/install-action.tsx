import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { api } from '../../api/client.ts';
import { keys } from '../../api/queries.ts';
import type { Integration, IntegrationInstallation } from '../../api/types.ts';
import { Button, buttonClass } from '../../ui/button.tsx';
import { ErrorNote, Skeleton } from '../../ui/states.tsx';
import { installationInQuery } from './integrations-api.ts';

/**
 * "Install" an integration in an organization, or "Open" its installation there once it is installed: the
 * catalogue's rows and the integration's own page (its `urls.app`) offer the same action. The API's refusal (a
 * member who is not an admin) shows beside it.
 */
export function InstallAction({ orgId, integration }: { orgId: string; integration: Integration }) {
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
    <div className="integration-action">
      {installation.isPending || installation.data === undefined ? (
        // Not known yet, or not known at all (the error says why): neither "Open" nor "Install" would be true.
        installation.isPending ? <Skeleton lines={1} label={`Checking whether ${integration.title} is installed`} /> : null
      ) : installation.data ? (
        <span className="integration-installed">
          <span className="muted">Installed</span>
          <Link className={buttonClass()} to={`/o/${orgId}/integrations/${integration.name}/installations/${installation.data.id}`} aria-label={`Open ${integration.title}`}>
            Open
          </Link>
        </span>
      ) : (
        <Button variant="primary" loading={install.isPending} onClick={() => install.mutate()} aria-label={`Install ${integration.title}`}>
          Install
        </Button>
      )}
      <ErrorNote error={install.error ?? installation.error} />
    </div>
  );
}
