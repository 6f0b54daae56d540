import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { OrganizationTeamMember } from '@gitbook/api';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { allPages, api, errorMessage, isNotFound } from '../../api/client.ts';
import { keys, membersQuery, teamQuery } from '../../api/queries.ts';
import type { OrganizationTeam } from '../../api/types.ts';
import { TextField } from '../../ui/text-field.tsx';
import { EmptyState, ErrorNote, NotFound, Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';
import { Button } from '../../ui/button.tsx';
import { AlertDialog } from '../../ui/dialogs.tsx';
import { Select, type SelectOption } from '../../ui/select.tsx';

type TeamRole = 'owner' | 'member';
/** The official Team carries what the caller may do with it. */
type Team = OrganizationTeam & { permissions?: { admin: boolean } };

/** A team: rename or delete it, and its members (add, remove, make owner: owners manage the team's members). */
export default function TeamScreen() {
  const { orgId = '', teamId = '' } = useParams();
  const team = useQuery(teamQuery(orgId, teamId));
  const membersKey = [...keys.team(orgId, teamId), 'members'];
  const teamMembers = useQuery({ queryKey: membersKey, queryFn: ({ signal }) => allPages<OrganizationTeamMember>(`/orgs/${orgId}/teams/${teamId}/members`, {}, signal) });
  const canManage = Boolean((team.data as Team | undefined)?.permissions?.admin);
  useTitle(team.data?.title ?? 'Team');
  if (isNotFound(team.error)) return <main id="main" className="app-main"><NotFound what="team" /></main>;
  return (
    <main id="main" className="app-main">
      {team.isPending ? <Skeleton lines={2} label="Loading the team" /> : null}
      <ErrorNote error={team.error} />
      {team.data ? (
        <>
          <h1>{team.data.title}</h1>
          <p className="muted">{team.data.members} {team.data.members === 1 ? 'member' : 'members'} · created {new Date(team.data.createdAt).toLocaleDateString()}</p>
          {canManage ? <TeamSettings orgId={orgId} team={team.data} /> : null}
        </>
      ) : null}
      <section aria-labelledby="team-members-title">
        <h2 id="team-members-title">Members</h2>
        {canManage ? <AddMember orgId={orgId} teamId={teamId} inTeam={new Set((teamMembers.data ?? []).map((m) => m.organization.user.id))} /> : null}
        {teamMembers.isPending ? <Skeleton lines={3} label="Loading the team's members" /> : null}
        <ErrorNote error={teamMembers.error} />
        {teamMembers.data && teamMembers.data.length === 0 ? (
          <EmptyState headingLevel={3} title="Nobody in this team yet">
            <p>The team’s members share its access to spaces and collections.{canManage ? ' Add the first one above.' : ''}</p>
          </EmptyState>
        ) : null}
        {teamMembers.data && teamMembers.data.length > 0 ? (
          <table className="members-table">
            <thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Team role</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
            <tbody>
              {teamMembers.data.map((m) => <TeamMemberRow key={m.organization.user.id} orgId={orgId} teamId={teamId} member={m} canManage={canManage} />)}
            </tbody>
          </table>
        ) : null}
      </section>
      <p><Link to={`/o/${orgId}/teams`}>All teams</Link></p>
    </main>
  );
}

function useRefreshTeam(orgId: string, teamId: string) {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: keys.team(orgId, teamId) });
    await queryClient.invalidateQueries({ queryKey: keys.teams(orgId), exact: true });
  };
}

function TeamSettings({ orgId, team }: { orgId: string; team: OrganizationTeam }) {
  const refresh = useRefreshTeam(orgId, team.id);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [title, setTitle] = useState(team.title);
  const [error, setError] = useState<string>();
  const rename = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    try {
      await api('PATCH', `/orgs/${orgId}/teams/${team.id}`, { body: { title } });
      await refresh();
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  const [removeError, setRemoveError] = useState<unknown>();
  const remove = async () => {
    setRemoveError(undefined);
    try {
      await api('DELETE', `/orgs/${orgId}/teams/${team.id}`);
    } catch (e) {
      // Shown in the confirmation, which stays open to retry or cancel.
      setRemoveError(e);
      throw e;
    }
    queryClient.removeQueries({ queryKey: keys.team(orgId, team.id) });
    await queryClient.invalidateQueries({ queryKey: keys.teams(orgId), exact: true });
    navigate(`/o/${orgId}/teams`);
  };
  return (
    <section aria-labelledby="team-settings-title" className="panel">
      <h2 id="team-settings-title">Settings</h2>
      <form onSubmit={rename} className="inline-form">
        <TextField label="Team name" required maxLength={64} value={title} onChange={(e) => setTitle(e.target.value)} />
        <Button type="submit">Rename</Button>
        <AlertDialog
          title={`Delete the team ${team.title}?`}
          description="Its members lose what it was given; they stay members of the organization."
          confirm="Delete team"
          onConfirm={remove}
          error={removeError}
          trigger={<Button variant="danger">Delete team</Button>}
        />
      </form>
      {error ? <p role="alert" className="error-note">{error}</p> : null}
    </section>
  );
}

const TEAM_ROLE_OPTIONS: SelectOption<TeamRole>[] = [{ value: 'member', label: 'member' }, { value: 'owner', label: 'owner' }];

function AddMember({ orgId, teamId, inTeam }: { orgId: string; teamId: string; inTeam: Set<string> }) {
  const members = useQuery(membersQuery(orgId));
  const refresh = useRefreshTeam(orgId, teamId);
  const [userId, setUserId] = useState('');
  const [role, setRole] = useState<TeamRole>('member');
  const [error, setError] = useState<string>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    try {
      await api('PUT', `/orgs/${orgId}/teams/${teamId}/members/${userId}`, { body: { role } });
      setUserId('');
      await refresh();
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  const candidates = (members.data ?? []).filter((m) => !inTeam.has(m.user.id));
  return (
    <form onSubmit={submit} className="inline-form" aria-label="Add a member to the team">
      <Select
        label="Member to add"
        placeholder="Choose…"
        value={userId}
        onValueChange={setUserId}
        options={candidates.map((m) => ({ value: m.user.id, label: `${m.user.displayName}${m.user.email ? ` (${m.user.email})` : ''}` }))}
      />
      <Select label="Team role" value={role} onValueChange={setRole} options={TEAM_ROLE_OPTIONS} />
      <Button variant="primary" type="submit" disabled={!userId}>Add to team</Button>
      <ErrorNote error={members.error} />
      {error ? <p role="alert" className="error-note">{error}</p> : null}
    </form>
  );
}

function TeamMemberRow({ orgId, teamId, member, canManage }: { orgId: string; teamId: string; member: OrganizationTeamMember; canManage: boolean }) {
  const refresh = useRefreshTeam(orgId, teamId);
  const [error, setError] = useState<string>();
  const user = member.organization.user;
  const path = `/orgs/${orgId}/teams/${teamId}/members/${user.id}`;
  const run = async (action: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await action();
      await refresh();
      return true;
    } catch (e) {
      setError(errorMessage(e));
      return false;
    }
  };
  return (
    <tr>
      <td><Link to={`/o/${orgId}/members/${user.id}`}>{user.displayName}</Link></td>
      <td>{user.email}</td>
      <td>
        {canManage ? (
          <Select label={`Team role of ${user.displayName}`} hideLabel size="sm" value={member.team.role} onValueChange={(role) => void run(() => api('PUT', path, { body: { role } }))} options={TEAM_ROLE_OPTIONS} />
        ) : (
          member.team.role
        )}
        {error ? <p role="alert" className="error-note">{error}</p> : null}
      </td>
      <td>
        {canManage ? (
          <AlertDialog
            title={`Remove ${user.displayName} from the team?`}
            description="They lose what the team was given; they stay a member of the organization."
            confirm="Remove from team"
            onConfirm={() => run(() => api('DELETE', path))}
            error={error}
            trigger={<Button variant="danger" size="sm">Remove {user.displayName} from the team</Button>}
          />
        ) : null}
      </td>
    </tr>
  );
}
