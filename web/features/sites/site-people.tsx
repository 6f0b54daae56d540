import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { User } from '@gitbook/api';
import { allPages } from '../../api/client.ts';
import { keys, membersQuery, teamsQuery } from '../../api/queries.ts';
import type { OrganizationTeam } from '../../api/types.ts';
import { ErrorNote, Skeleton } from '../../ui/states.tsx';
import { Button } from '../../ui/button.tsx';
import { AlertDialog } from '../../ui/dialogs.tsx';
import { Select } from '../../ui/select.tsx';
import { LEVELS, type Level } from '../sharing/access-reasons.ts';
import { sitePath } from './site-queries.ts';
import { useSiteChange } from './use-site-change.ts';

/*
 * Who may open a site in the app and what they may do with it (the official site-permissions operations): roles
 * given on the site to members and teams (give, change, take away), and everyone who holds a role, with where it
 * comes from (the aggregate's `origin`). The lists are under the site's key, so any change refreshes them.
 */

/** An item of listUserPermissionsInSite / listTeamPermissionsInSite. */
interface UserGrant { permission: Level; user: User }
interface TeamGrant { permission: Level; team: OrganizationTeam }
/** An item of listPermissionsAggregateInSite (0.202.0). */
interface Holder {
  permission: Level;
  user: User;
  origin: { type: 'organization' } | { type: 'space'; space: string } | { type: 'site'; reason: 'member' | 'team' | 'default'; team?: string };
}

const LEVEL_OPTIONS = LEVELS.map((level) => ({ value: level, label: level }));

const part = (orgId: string, siteId: string, name: string) => [...keys.site(orgId, siteId), 'permissions', name] as const;

function originText(origin: Holder['origin'], teamTitle: (id: string) => string | undefined): string {
  if (origin.type === 'organization') return 'Admin of the organization';
  if (origin.type === 'space') return 'Reads a space the site publishes';
  if (origin.reason === 'team' && origin.team) return `Given to the team ${teamTitle(origin.team) ?? origin.team}`;
  return 'Given on this site';
}

/** The "People" panel of the site's Sharing tab. */
export function SitePeople({ orgId, siteId }: { orgId: string; siteId: string }) {
  const base = `${sitePath(orgId, siteId)}/permissions`;
  const holders = useQuery({ queryKey: part(orgId, siteId, 'aggregate'), queryFn: ({ signal }) => allPages<Holder>(`${base}/aggregate`, {}, signal) });
  const userGrants = useQuery({ queryKey: part(orgId, siteId, 'users'), queryFn: ({ signal }) => allPages<UserGrant>(`${base}/users`, {}, signal) });
  const teamGrants = useQuery({ queryKey: part(orgId, siteId, 'teams'), queryFn: ({ signal }) => allPages<TeamGrant>(`${base}/teams`, {}, signal) });
  const members = useQuery(membersQuery(orgId));
  const teams = useQuery(teamsQuery(orgId));
  const teamTitle = (id: string) => (teams.data ?? []).find((t) => t.id === id)?.title ?? (teamGrants.data ?? []).find((g) => g.team.id === id)?.team.title;
  const loading = userGrants.isPending || teamGrants.isPending;
  const none = !loading && (userGrants.data ?? []).length + (teamGrants.data ?? []).length === 0;

  return (
    <section aria-labelledby="site-people-title" className="panel">
      <h2 id="site-people-title">People</h2>
      <p className="muted">
        Organization admins manage every site; members read a site whose spaces they read. A role given here adds to that: any role
        opens the site in the app, admin manages it (settings, structure, publishing, share links and who has access).
      </p>
      <GrantForm orgId={orgId} siteId={siteId} members={members.data ?? []} teams={teams.data ?? []} />
      <h3 id="site-grants-title">Given on this site</h3>
      <ErrorNote error={userGrants.error ?? teamGrants.error} />
      {none ? <p className="muted">Nobody yet.</p> : null}
      <ul className="share-list" aria-labelledby="site-grants-title">
        {(teamGrants.data ?? []).map((g) => (
          <GrantRow key={`t-${g.team.id}`} orgId={orgId} siteId={siteId} subject="team" id={g.team.id} name={`Team ${g.team.title}`} permission={g.permission} />
        ))}
        {(userGrants.data ?? []).map((g) => (
          <GrantRow key={`u-${g.user.id}`} orgId={orgId} siteId={siteId} subject="user" id={g.user.id} name={g.user.displayName} permission={g.permission} />
        ))}
      </ul>
      <h3 id="site-holders-title">Who has access</h3>
      {holders.isPending ? <Skeleton lines={3} label="Loading who has access" /> : null}
      <ErrorNote error={holders.error} />
      {holders.data ? (
        <table className="members-table" aria-labelledby="site-holders-title">
          <thead><tr><th scope="col">Member</th><th scope="col">Role</th><th scope="col">Why</th></tr></thead>
          <tbody>
            {holders.data.map((h) => (
              <tr key={h.user.id}>
                <td>{h.user.displayName}</td>
                <td>{h.permission}</td>
                <td>{originText(h.origin, teamTitle)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}

function GrantForm({ orgId, siteId, members, teams }: { orgId: string; siteId: string; members: { user: User }[]; teams: { id: string; title: string }[] }) {
  const change = useSiteChange(orgId, siteId);
  const [who, setWho] = useState('');
  const [role, setRole] = useState<Level>('read');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const [subject, subjectId] = who.split(':');
    change.mutate(
      { method: 'POST', path: '/permissions', body: { role, ...(subject === 'team' ? { teams: [subjectId] } : { users: [subjectId] }) } },
      { onSuccess: () => setWho('') },
    );
  };
  return (
    <form onSubmit={submit} className="inline-form" aria-label="Give a role on the site">
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
      <Select label="Role" value={role} onValueChange={setRole} options={LEVEL_OPTIONS} />
      <Button variant="primary" type="submit" disabled={change.isPending || !who}>Give the role</Button>
      <ErrorNote error={change.error} />
    </form>
  );
}

function GrantRow(props: { orgId: string; siteId: string; subject: 'user' | 'team'; id: string; name: string; permission: Level }) {
  const change = useSiteChange(props.orgId, props.siteId);
  // Its own mutation: a failed revoke is said in its dialog, a failed role change beside the row, each once.
  const revoke = useSiteChange(props.orgId, props.siteId);
  const path = `/permissions/${props.subject === 'user' ? 'users' : 'teams'}/${props.id}`;
  return (
    <li>
      <span>{props.name}</span>
      <Select
        label={`Role of ${props.name}`}
        hideLabel
        size="sm"
        value={props.permission}
        onValueChange={(role) => change.mutate({ method: 'PATCH', path, body: { role } })}
        options={LEVEL_OPTIONS}
      />
      <AlertDialog
        title={`Revoke ${props.name}’s access to the site?`}
        description="The site is out of their sight from their next visit, unless the organization or a team still gives them access."
        confirm="Revoke access"
        onConfirm={() => revoke.mutateAsync({ method: 'DELETE', path })}
        error={revoke.error}
        trigger={<Button variant="danger" size="sm" disabled={change.isPending || revoke.isPending}>Revoke {props.name}</Button>}
      />
      <ErrorNote error={change.error} />
    </li>
  );
}
