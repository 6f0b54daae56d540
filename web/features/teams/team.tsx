import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { teamQuery } from '../../api/queries.ts';
import { ResourceScreen } from '../../ui/resource-screen.tsx';

export default function TeamScreen() {
  const { orgId = '', teamId = '' } = useParams();
  return (
    <ResourceScreen
      query={useQuery(teamQuery(orgId, teamId))}
      what="team"
      title={(team) => team.title}
      facts={(team) => [['Members', String(team.members)], ['Created', new Date(team.createdAt).toLocaleDateString()]]}
    />
  );
}
