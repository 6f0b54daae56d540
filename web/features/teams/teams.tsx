import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { api, isNotFound } from '../../api/client.ts';
import { keys, organizationQuery, teamsQuery } from '../../api/queries.ts';
import { TextField } from '../../ui/text-field.tsx';
import { useRequest } from '../../ui/use-submit.ts';
import { EmptyState, ErrorNote, NotFound, Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';
import { useIsAdmin } from '../members/use-is-admin.ts';
import { Button } from '../../ui/button.tsx';

/** An organization's teams: each with its count of members; admins create them here. */
export default function TeamsScreen() {
  const { orgId = '' } = useParams();
  const organization = useQuery(organizationQuery(orgId));
  const teams = useQuery(teamsQuery(orgId));
  const isAdmin = useIsAdmin(orgId);
  useTitle(organization.data ? `Teams · ${organization.data.title}` : 'Teams');
  if (isNotFound(organization.error)) return <main id="main" className="app-main"><NotFound what="organization" /></main>;
  return (
    <main id="main" className="app-main">
      <h1>Teams</h1>
      {isAdmin ? <CreateTeam orgId={orgId} /> : null}
      {teams.isPending ? <Skeleton lines={4} label="Loading the teams" /> : null}
      <ErrorNote error={teams.error} />
      {teams.data && teams.data.length === 0 ? (
        <EmptyState title="No team yet">
          <p>A team gives several members the same access to spaces and collections at once.{isAdmin ? ' Name the first one in “Create a team”.' : ' An administrator creates them.'}</p>
        </EmptyState>
      ) : null}
      {teams.data && teams.data.length > 0 ? (
        <table className="members-table">
          <caption className="sr-only">Teams of {organization.data?.title}</caption>
          <thead><tr><th scope="col">Team</th><th scope="col">Members</th><th scope="col">Created</th></tr></thead>
          <tbody>
            {teams.data.map((team) => (
              <tr key={team.id}>
                <td><Link to={`/o/${orgId}/teams/${team.id}`}>{team.title}</Link></td>
                <td>{team.members}</td>
                <td>{new Date(team.createdAt).toLocaleDateString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </main>
  );
}

function CreateTeam({ orgId }: { orgId: string }) {
  const queryClient = useQueryClient();
  const [title, setTitle] = useState('');
  // A refusal naming the title shows beside it; the name typed stays.
  const { run, error, fieldErrors, busy } = useRequest(['title']);
  const submit = (event: FormEvent) =>
    run(async () => {
      await api('PUT', `/orgs/${orgId}/teams`, { body: { title } });
      setTitle('');
      await queryClient.invalidateQueries({ queryKey: keys.teams(orgId) });
    }, event);
  return (
    <section aria-labelledby="create-team-title" className="panel">
      <h2 id="create-team-title">Create a team</h2>
      <form onSubmit={submit} className="inline-form">
        <TextField label="Team name" required maxLength={64} value={title} onChange={(e) => setTitle(e.target.value)} error={fieldErrors.title} />
        <Button variant="primary" type="submit" disabled={busy}>Create team</Button>
      </form>
      {error ? <p role="alert" className="error-note">{error}</p> : null}
    </section>
  );
}
