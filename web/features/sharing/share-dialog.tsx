import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OrganizationMember, OrganizationTeamMember, User } from '@gitbook/api';
import { useState, type FormEvent } from 'react';
import { allPages, api, errorMessage } from '../../api/client.ts';
import { collectionQuery, keys, membersQuery, teamsQuery } from '../../api/queries.ts';
import type { OrganizationTeam } from '../../api/types.ts';
import { ErrorNote, Skeleton } from '../../ui/states.tsx';
import { accessReasons, defaultLevelLabel, LEVELS, type DefaultLevel, type Level } from './access-reasons.ts';
import { Button } from '../../ui/button.tsx';
import { AlertDialog, Dialog } from '../../ui/dialogs.tsx';
import { Select } from '../../ui/select.tsx';

export interface ShareTarget {
  kind: 'space' | 'collection';
  id: string;
  title: string;
  orgId: string;
  defaultLevel: DefaultLevel;
  /** The collection it is in. */
  parent?: string | null;
}

/** An item of the official permission lists (listUserPermissionsIn…, listTeamPermissionsIn…, the aggregate). */
interface UserPermission { permission: string; user: User }
interface TeamPermission { permission: string; team: OrganizationTeam }

const LEVEL_OPTIONS = LEVELS.map((level) => ({ value: level, label: level }));

const base = (target: ShareTarget) => `/${target.kind === 'space' ? 'spaces' : 'collections'}/${target.id}`;
const sharingKey = (target: ShareTarget) => [target.kind, target.id, 'sharing'] as const;

/** A "Share" button and its dialog, for the header of a space or collection. */
export function ShareButton({ target }: { target: ShareTarget }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Share</Button>
      {open ? <ShareDialog target={target} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

/**
 * Who can open a space or collection and why (the aggregate list, explained by the grants beside it), grants to
 * members and teams with a level (give, change, take away), and the default level of the organization's members.
 * In the kit's modal Dialog: focus stays inside, Escape closes it.
 */
export function ShareDialog({ target, onClose }: { target: ShareTarget; onClose: () => void }) {
  const queryClient = useQueryClient();
  const key = sharingKey(target);
  const holders = useQuery({ queryKey: [...key, 'aggregate'], queryFn: ({ signal }) => allPages<UserPermission>(`${base(target)}/permissions/aggregate`, {}, signal) });
  const userGrants = useQuery({ queryKey: [...key, 'users'], queryFn: ({ signal }) => allPages<UserPermission>(`${base(target)}/permissions/users`, {}, signal) });
  const teamGrants = useQuery({ queryKey: [...key, 'teams'], queryFn: ({ signal }) => allPages<TeamPermission>(`${base(target)}/permissions/teams`, {}, signal) });
  const members = useQuery(membersQuery(target.orgId));
  const teams = useQuery(teamsQuery(target.orgId));
  const parent = useQuery({ ...collectionQuery(target.parent ?? ''), enabled: !!target.parent });
  const teamMembers = useQueries({
    queries: (teamGrants.data ?? []).map((grant) => ({
      queryKey: [...keys.team(target.orgId, grant.team.id), 'members'],
      queryFn: ({ signal }: { signal: AbortSignal }) => allPages<OrganizationTeamMember>(`/orgs/${target.orgId}/teams/${grant.team.id}/members`, {}, signal),
    })),
  });
  const [level, setLevel] = useState<DefaultLevel>(target.defaultLevel);

  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const reasons = accessReasons({
    holders: (holders.data ?? []).map((h) => ({ userId: h.user.id, permission: h.permission as Level })),
    userGrants: (userGrants.data ?? []).map((g) => ({ userId: g.user.id, permission: g.permission as Level })),
    teamGrants: (teamGrants.data ?? []).map((g, i) => ({
      teamId: g.team.id,
      title: g.team.title,
      permission: g.permission as Level,
      members: (teamMembers[i]?.data ?? []).map((m) => m.organization.user.id),
    })),
    orgRoles: new Map((members.data ?? []).map((m) => [m.user.id, (m.role ?? null) as Level | null])),
    defaultLevel: level,
    parentTitle: parent.data?.title,
  });
  const loading = holders.isPending || userGrants.isPending || teamGrants.isPending;

  return (
    <Dialog open onOpenChange={(open) => open || onClose()} title={`Share ${target.title}`} size="lg" className="share-dialog">
      <GrantForm target={target} members={members.data ?? []} teams={teams.data ?? []} onDone={refresh} />
      <DefaultLevelForm target={target} level={level} inCollection={!!target.parent} onSaved={async (saved) => {
        setLevel(saved);
        await queryClient.invalidateQueries({ queryKey: target.kind === 'space' ? keys.space(target.id) : keys.collection(target.id) });
        await refresh();
      }} />
      <section aria-labelledby="share-grants">
        <h3 id="share-grants">Given on this {target.kind}</h3>
        <ErrorNote error={userGrants.error ?? teamGrants.error} />
        {!loading && (userGrants.data ?? []).length + (teamGrants.data ?? []).length === 0 ? <p className="muted">Nobody yet: only the default level applies.</p> : null}
        <ul className="share-list">
          {(teamGrants.data ?? []).map((g) => (
            <GrantRow key={`t-${g.team.id}`} target={target} subject="team" id={g.team.id} name={`Team ${g.team.title}`} permission={g.permission as Level} onDone={refresh} />
          ))}
          {(userGrants.data ?? []).map((g) => (
            <GrantRow key={`u-${g.user.id}`} target={target} subject="user" id={g.user.id} name={g.user.displayName} permission={g.permission as Level} onDone={refresh} />
          ))}
        </ul>
      </section>
      <section aria-labelledby="share-access">
        <h3 id="share-access">Who has access</h3>
        {loading ? <Skeleton lines={3} label="Loading who has access" /> : null}
        <ErrorNote error={holders.error} />
        {holders.data ? (
          <table className="members-table">
            <thead><tr><th scope="col">Member</th><th scope="col">Level</th><th scope="col">Why</th></tr></thead>
            <tbody>
              {holders.data.map((h) => (
                <tr key={h.user.id}>
                  <td>{h.user.displayName}</td>
                  <td>{h.permission}</td>
                  <td>{(reasons.get(h.user.id) ?? []).map((r) => r.text).join('; ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </section>
    </Dialog>
  );
}

function GrantForm({ target, members, teams, onDone }: { target: ShareTarget; members: OrganizationMember[]; teams: { id: string; title: string }[]; onDone: () => Promise<void> }) {
  const [who, setWho] = useState('');
  const [role, setRole] = useState<Level>('read');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const [subject, subjectId] = who.split(':');
    setError(undefined);
    setBusy(true);
    try {
      await api('POST', `${base(target)}/permissions`, { body: { role, ...(subject === 'team' ? { teams: [subjectId] } : { users: [subjectId] }) } });
      setWho('');
      await onDone();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} className="inline-form" aria-label="Give access">
      <Select
        label="Member or team"
        placeholder="Choose…"
        value={who}
        onValueChange={setWho}
        options={[
          ...teams.map((t) => ({ value: `team:${t.id}`, label: t.title, group: 'Teams' })),
          ...members.map((m) => ({ value: `user:${m.user.id}`, label: `${m.user.displayName}${m.user.email ? ` (${m.user.email})` : ''}`, group: 'Members' })),
        ]}
      />
      <Select label="Level" value={role} onValueChange={setRole} options={LEVEL_OPTIONS} />
      <Button variant="primary" type="submit" disabled={busy || !who}>Give access</Button>
      {error ? <p role="alert" className="error-note">{error}</p> : null}
    </form>
  );
}

function DefaultLevelForm({ target, level, inCollection, onSaved }: { target: ShareTarget; level: DefaultLevel; inCollection: boolean; onSaved: (level: DefaultLevel) => Promise<void> }) {
  const [error, setError] = useState<string>();
  const choices: DefaultLevel[] = ['inherit', null, ...LEVELS];
  const change = async (value: string) => {
    const next: DefaultLevel = value === 'none' ? null : (value as DefaultLevel);
    setError(undefined);
    try {
      await api('PATCH', base(target), { body: { defaultLevel: next } });
      await onSaved(next);
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  return (
    <>
      <Select
        label="Default level of the organization's members"
        value={level ?? 'none'}
        onValueChange={(value) => void change(value)}
        options={choices.map((c) => ({ value: c ?? 'none', label: defaultLevelLabel(c, inCollection) }))}
      />
      {error ? <p role="alert" className="error-note">{error}</p> : null}
    </>
  );
}

function GrantRow(props: { target: ShareTarget; subject: 'user' | 'team'; id: string; name: string; permission: Level; onDone: () => Promise<void> }) {
  const [error, setError] = useState<string>();
  const path = `${base(props.target)}/permissions/${props.subject === 'user' ? 'users' : 'teams'}/${props.id}`;
  const run = async (action: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await action();
      await props.onDone();
      return true;
    } catch (e) {
      setError(errorMessage(e));
      return false;
    }
  };
  return (
    <li>
      <span>{props.name}</span>
      <Select label={`Level of ${props.name}`} hideLabel size="sm" value={props.permission} onValueChange={(role) => void run(() => api('PATCH', path, { body: { role } }))} options={LEVEL_OPTIONS} />
      <AlertDialog
        title={`Revoke ${props.name}’s access?`}
        description="What this gave them ends now, unless the organization or a team still gives it."
        confirm="Revoke access"
        onConfirm={() => run(() => api('DELETE', path))}
        error={error}
        trigger={<Button variant="danger" size="sm">Revoke {props.name}</Button>}
      />
      {error ? <p role="alert" className="error-note">{error}</p> : null}
    </li>
  );
}
