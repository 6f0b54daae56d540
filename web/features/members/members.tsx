import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { allPages, api, errorMessage, isNotFound } from '../../api/client.ts';
import { keys, meQuery, organizationQuery } from '../../api/queries.ts';
import type { OrganizationMember } from '../../api/types.ts';
import { TextField } from '../../ui/text-field.tsx';
import { placeError } from '../../ui/use-submit.ts';
import { ErrorNote, NotFound, Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';
import { InviteLinks } from './invite-links.tsx';
import { useIsAdmin } from './use-is-admin.ts';
import { ROLE_OPTIONS, choiceOf, roleOf, type RoleChoice } from './roles.ts';
import { Badge } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { AlertDialog } from '../../ui/dialogs.tsx';
import { DisableToggle } from './disable-toggle.tsx';
import { Select } from '../../ui/select.tsx';

// The filter's "all": a listbox holds no empty value.
const ALL = 'all';

interface Invitation { userId: string; email: string; role: string | null; emailed: boolean; url?: string; expiresAt?: string; pending?: boolean }

/**
 * An organization's members: invite by e-mail with a role (with a one-time link to hand over) or by invite link,
 * send a new invitation link, change roles, remove; filter by role and search by name or e-mail (the list
 * operation's `role` and `search`).
 */
export default function MembersScreen() {
  const { orgId = '' } = useParams();
  const organization = useQuery(organizationQuery(orgId));
  const [role, setRole] = useState<RoleChoice | typeof ALL>(ALL);
  const [search, setSearch] = useState('');
  const filter = { role: role === ALL ? undefined : role, search: useDeferredValue(search.trim()) || undefined };
  const members = useQuery({
    queryKey: [...keys.members(orgId), 'list', filter],
    queryFn: ({ signal }) => allPages<OrganizationMember>(`/orgs/${orgId}/members`, filter, signal),
    placeholderData: (previous) => previous,
  });
  const me = useQuery(meQuery());
  useTitle(organization.data ? `Members · ${organization.data.title}` : 'Members');
  // Only admins invite, change roles and remove (the API answers 403 to others): the others see the list.
  const isAdmin = useIsAdmin(orgId);
  if (isNotFound(organization.error)) return <main id="main" className="app-main"><NotFound what="organization" /></main>;
  return (
    <main id="main" className="app-main">
      <h1>Members</h1>
      {isAdmin ? <InviteForm orgId={orgId} /> : null}
      {isAdmin ? <InviteLinks orgId={orgId} /> : null}
      <div className="people-filters" role="search" aria-label="Filter the members">
        <TextField label="Search by name or e-mail" type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        <Select label="Filter by role" value={role} onValueChange={setRole} options={[{ value: ALL, label: 'All roles' }, ...ROLE_OPTIONS]} />
      </div>
      {members.isPending ? <Skeleton lines={5} label="Loading the members" /> : null}
      <ErrorNote error={members.error} />
      {members.data ? (
        <table className="members-table">
          <caption className="sr-only">Members of {organization.data?.title}</caption>
          <thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Role</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
          <tbody>
            {members.data.length === 0 ? <tr><td colSpan={4}>No member matches.</td></tr> : null}
            {members.data.map((member) => <MemberRow key={member.id} orgId={orgId} member={member} isMe={member.id === me.data?.id} isAdmin={isAdmin} />)}
          </tbody>
        </table>
      ) : null}
    </main>
  );
}

function InviteForm({ orgId }: { orgId: string }) {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<RoleChoice>('read');
  const invite = useMutation({
    mutationFn: () => api<Invitation>('POST', '/auth/invitations', { body: { organizationId: orgId, email, role: roleOf(role) } }),
    onSuccess: () => {
      setEmail('');
      return queryClient.invalidateQueries({ queryKey: keys.members(orgId) });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate();
  };
  const refused = placeError(invite.error, ['email']);
  return (
    <section aria-labelledby="invite-title" className="panel">
      <h2 id="invite-title">Invite a member</h2>
      <form onSubmit={submit} className="inline-form">
        <TextField label="Email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} error={refused.fields.email} />
        <Select label="Role" value={role} onValueChange={setRole} options={ROLE_OPTIONS} />
        <Button variant="primary" type="submit" disabled={invite.isPending}>Invite</Button>
      </form>
      <ErrorNote error={refused.form} />
      {invite.data ? <InvitationResult invitation={invite.data} /> : null}
    </section>
  );
}

function InvitationResult({ invitation }: { invitation: Invitation }) {
  const [copied, setCopied] = useState(false);
  if (!invitation.url) return <p role="status">{invitation.email} is a member with an account of their own: they sign in as usual, no link is needed.</p>;
  if (invitation.pending) {
    // The address has an account nobody proved to be its owner's: membership waits for the link's proof.
    return (
      <div role="status" className="invitation">
        <p>
          The invitation of {invitation.email} is pending: an account with this address exists, but its owner has not proven the address yet. They become a member when they open this link
          {invitation.emailed ? ' (an e-mail is on its way)' : ''}:
        </p>
        <input readOnly aria-label="Invitation link" value={invitation.url} onFocus={(e) => e.target.select()} />
      </div>
    );
  }
  const copy = async () => {
    await navigator.clipboard.writeText(invitation.url!);
    setCopied(true);
  };
  return (
    <div role="status" className="invitation">
      <p>
        {invitation.email} is invited{invitation.emailed ? ' (an e-mail is on its way)' : ''}. Hand them this link, valid until{' '}
        {invitation.expiresAt ? new Date(invitation.expiresAt).toLocaleDateString() : 'it is used'}:
      </p>
      <input readOnly aria-label="Invitation link" value={invitation.url} onFocus={(e) => e.target.select()} />
      <Button onClick={copy}>{copied ? 'Copied' : 'Copy link'}</Button>
    </div>
  );
}

function MemberRow({ orgId, member, isMe, isAdmin }: { orgId: string; member: OrganizationMember; isMe: boolean; isAdmin: boolean }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: keys.members(orgId) });
  const change = async (choice: RoleChoice) => {
    setError(undefined);
    try {
      await api('PATCH', `/orgs/${orgId}/members/${member.id}`, { body: { role: roleOf(choice) } });
      await refresh();
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  // disabled is Quire's extension of the official update: the member stays, shut out until enabled again.
  const setDisabled = useMutation({
    mutationFn: (disabled: boolean) => api('PATCH', `/orgs/${orgId}/members/${member.id}`, { body: { disabled } }),
    onSuccess: refresh,
  });
  const remove = useMutation({ mutationFn: () => api('DELETE', `/orgs/${orgId}/members/${member.id}`), onSuccess: refresh });
  const name = member.user.displayName;
  return (
    <tr>
      <td>
        <Link to={`/o/${orgId}/members/${member.id}`}>{member.user.displayName}</Link>{isMe ? ' (you)' : ''}
        {member.disabled ? <> <Badge tone="warning">disabled</Badge></> : null}
      </td>
      <td>{member.user.email}</td>
      <td>
        {isAdmin ? (
          <Select label={`Role of ${name}`} hideLabel size="sm" value={choiceOf(member.role)} onValueChange={(choice) => void change(choice)} options={ROLE_OPTIONS} />
        ) : (
          choiceOf(member.role)
        )}
        {error ? <p role="alert" className="error-note">{error}</p> : null}
      </td>
      <td>
        <div className="row-actions">
          {isAdmin && !isMe && member.user.email ? <ResendInvitation orgId={orgId} member={member} /> : null}
          {isAdmin && !isMe ? (
            <DisableToggle name={name} disabled={member.disabled} busy={setDisabled.isPending} error={setDisabled.error} enable={() => setDisabled.mutate(false)} disable={() => setDisabled.mutateAsync(true)} />
          ) : null}
          {isAdmin ? (
            <AlertDialog
              title={`Remove ${name} from the organization?`}
              description="They lose access to its spaces at once. Invite them again to bring them back."
              confirm={`Remove ${name}`}
              error={remove.error}
              onConfirm={() => remove.mutateAsync()}
              trigger={<Button variant="danger" size="sm">Remove {name}</Button>}
            />
          ) : null}
        </div>
        {setDisabled.error && !setDisabled.variables ? <ErrorNote error={setDisabled.error} /> : null}
      </td>
    </tr>
  );
}

/**
 * A new invitation link for a member (createInvitation again: it mails the link when mail is set up). Quire adds
 * an invited person as a member at once, so there is no pending invitation to revoke: removing the member does it.
 */
function ResendInvitation({ orgId, member }: { orgId: string; member: OrganizationMember }) {
  const resend = useMutation({
    mutationFn: () => api<Invitation>('POST', '/auth/invitations', { body: { organizationId: orgId, email: member.user.email, role: member.role ?? null } }),
  });
  return (
    <>
      <Button variant="ghost" size="sm" disabled={resend.isPending} onClick={() => resend.mutate()}>Resend invitation to {member.user.displayName}</Button>
      <ErrorNote error={resend.error} />
      {resend.data ? <InvitationResult invitation={resend.data} /> : null}
    </>
  );
}
