import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { integrationQuery } from '../../api/queries.ts';
import { External, ResourceScreen } from '../../ui/resource-screen.tsx';

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
    />
  );
}
