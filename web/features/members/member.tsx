import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { allPages, api, errorMessage, isNotFound } from '../../api/client.ts';
import { keys, memberQuery, meQuery } from '../../api/queries.ts';
import type { OrganizationTeam, Space } from '../../api/types.ts';
import { ErrorNote, NotFound, Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';
import { ROLE_OPTIONS, choiceOf, roleOf, type RoleChoice } from './roles.ts';
import { useIsAdmin } from './use-is-admin.ts';
import { Button } from '../../ui/button.tsx';
import { AlertDialog } from '../../ui/dialogs.tsx';
import { DisableToggle } from './disable-toggle.tsx';
import { Select } from '../../ui/select.tsx';

/** The official items of listTeamsOfMember and listSpacesOfMember (src/features/members/schemas.ts). */
interface MemberTeam { team: OrganizationTeam; member: { role: 'owner' | 'member' } }
interface MemberSpace { permission: string; space: Space }

/** One member of an organization: their role (admins change it or remove them), their teams and their spaces. */
export default function MemberScreen() {
  const { orgId = '', userId = '' } = useParams();
  const member = useQuery(memberQuery(orgId, userId));
  const teams = useQuery({ queryKey: [...keys.member(orgId, userId), 'teams'], queryFn: ({ signal }) => allPages<MemberTeam>(`/orgs/${orgId}/members/${userId}/teams`, {}, signal) });
  const spaces = useQuery({ queryKey: [...keys.member(orgId, userId), 'spaces'], queryFn: ({ signal }) => allPages<MemberSpace>(`/orgs/${orgId}/members/${userId}/spaces`, {}, signal) });
  const me = useQuery(meQuery());
  const isAdmin = useIsAdmin(orgId);
  useTitle(member.data?.user.displayName ?? 'Member');
  if (isNotFound(member.error)) return <main id="main" className="app-main"><NotFound what="member" /></main>;
  return (
    <main id="main" className="app-main">
      {member.isPending ? <Skeleton lines={4} label="Loading the member" /> : null}
      <ErrorNote error={member.error} />
      {member.data ? (
        <>
          <h1>{member.data.user.displayName}</h1>
          <dl className="facts">
            <dt>Email</dt><dd>{member.data.user.email}</dd>
            <dt>Role</dt>
            <dd>{isAdmin ? <RoleMenu orgId={orgId} userId={userId} role={choiceOf(member.data.role)} name={member.data.user.displayName} /> : choiceOf(member.data.role)}</dd>
            <dt>Joined</dt><dd>{new Date(member.data.joinedAt).toLocaleDateString()}</dd>
            <dt>Status</dt>
            <dd>
              {member.data.disabled ? "Disabled: cannot open the organization's content" : 'Active'}
              {isAdmin && userId !== me.data?.id ? <MemberAccess orgId={orgId} userId={userId} disabled={member.data.disabled} name={member.data.user.displayName} /> : null}
            </dd>
            {member.data.sso ? (<><dt>Sign-in</dt><dd>Through the organization's single sign-on</dd></>) : null}
          </dl>
          {isAdmin && userId !== me.data?.id ? <RemoveMember orgId={orgId} userId={userId} name={member.data.user.displayName} /> : null}
        </>
      ) : null}
      <section aria-labelledby="member-teams-title">
        <h2 id="member-teams-title">Teams</h2>
        {teams.isPending ? <Skeleton lines={2} label="Loading the teams" /> : null}
        <ErrorNote error={teams.error} />
        {teams.data && teams.data.length === 0 ? <p>In no team.</p> : null}
        <ul>
          {(teams.data ?? []).map(({ team, member: m }) => (
            <li key={team.id}><Link to={`/o/${orgId}/teams/${team.id}`}>{team.title}</Link>{m.role === 'owner' ? ' (owner)' : ''}</li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="member-spaces-title">
        <h2 id="member-spaces-title">Spaces</h2>
        {spaces.isPending ? <Skeleton lines={2} label="Loading the spaces" /> : null}
        <ErrorNote error={spaces.error} />
        {spaces.data && spaces.data.length === 0 ? <p>No space.</p> : null}
        <ul>
          {(spaces.data ?? []).map(({ space, permission }) => (
            <li key={space.id}><Link to={`/o/${orgId}/s/${space.id}`}>{space.title}</Link> · {permission}</li>
          ))}
        </ul>
      </section>
      <p><Link to={`/o/${orgId}/members`}>All members</Link></p>
    </main>
  );
}

function RoleMenu({ orgId, userId, role, name }: { orgId: string; userId: string; role: RoleChoice; name: string }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string>();
  const change = async (choice: RoleChoice) => {
    setError(undefined);
    try {
      await api('PATCH', `/orgs/${orgId}/members/${userId}`, { body: { role: roleOf(choice) } });
      await queryClient.invalidateQueries({ queryKey: keys.members(orgId) });
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  return (
    <>
      <Select label={`Role of ${name}`} hideLabel size="sm" value={role} onValueChange={(choice) => void change(choice)} options={ROLE_OPTIONS} />
      {error ? <p role="alert" className="error-note">{error}</p> : null}
    </>
  );
}

/** Quire's extension of the official update: a disabled member stays, shut out until enabled again. */
function MemberAccess({ orgId, userId, disabled, name }: { orgId: string; userId: string; disabled: boolean; name: string }) {
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: (next: boolean) => api('PATCH', `/orgs/${orgId}/members/${userId}`, { body: { disabled: next } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.members(orgId) }),
  });
  return (
    <div className="form-buttons">
      <DisableToggle name={name} disabled={disabled} busy={toggle.isPending} error={toggle.error} enable={() => toggle.mutate(false)} disable={() => toggle.mutateAsync(true)} />
      {disabled ? <ErrorNote error={toggle.error} /> : null}
    </div>
  );
}

function RemoveMember({ orgId, userId, name }: { orgId: string; userId: string; name: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: () => api('DELETE', `/orgs/${orgId}/members/${userId}`),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: keys.member(orgId, userId) });
      await queryClient.invalidateQueries({ queryKey: keys.members(orgId) });
      navigate(`/o/${orgId}/members`);
    },
  });
  return (
    <p>
      <AlertDialog
        title={`Remove ${name} from the organization?`}
        description="They lose access to its spaces at once. Invite them again to bring them back."
        confirm={`Remove ${name}`}
        error={remove.error}
        onConfirm={() => remove.mutateAsync()}
        trigger={<Button variant="danger">Remove {name} from the organization</Button>}
      />
    </p>
  );
}
