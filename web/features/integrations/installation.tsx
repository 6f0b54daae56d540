import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { installationQuery } from '../../api/queries.ts';
import { ResourceScreen } from '../../ui/resource-screen.tsx';

/** An integration installed in an organization: on which spaces and sites, with which scopes. */
export default function InstallationScreen() {
  const { orgId = '', integrationName = '', installationId = '' } = useParams();
  const query = useQuery(installationQuery(orgId, integrationName, installationId));
  return (
    <ResourceScreen
      query={query}
      what="installation"
      title={() => `${integrationName} in this organization`}
      facts={(installation) => [
        ['Integration', <Link to={`/integrations/${integrationName}`}>{integrationName}</Link>],
        ['Spaces', installation.space_selection === 'all' ? 'All spaces' : 'Selected spaces'],
        ['Sites', installation.site_selection === 'all' ? 'All sites' : 'Selected sites'],
        ['Status', installation.status],
      ]}
    />
  );
}
