import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { allPages, api, ApiError } from '../../api/client.ts';
import { ErrorNote, Skeleton } from '../../ui/states.tsx';
import { ROLE_OPTIONS, choiceOf, roleOf, type RoleChoice } from './roles.ts';
import { Button } from '../../ui/button.tsx';
import { AlertDialog } from '../../ui/dialogs.tsx';
import { Select } from '../../ui/select.tsx';

/** The official InviteLinkToOrganization. */
interface InviteLink { object: 'invite'; id: string; role: string | null }

/** Where a link sends people: the join screen of the app, which works before they sign in. */
export const joinUrl = (orgId: string, inviteId: string) => `${location.origin}/app/o/${orgId}/join/${inviteId}`;

/**
 * Shareable invite links (the official link-invites operations): anyone who opens one joins with its role,
 * signing in or creating an account there. Admins only: for others the section is not shown.
 */
export function InviteLinks({ orgId }: { orgId: string }) {
  const queryClient = useQueryClient();
  const key = ['org', orgId, 'invite-links'];
  const links = useQuery({ queryKey: key, queryFn: ({ signal }) => allPages<InviteLink>(`/orgs/${orgId}/link-invites`, {}, signal), retry: false });
  const [role, setRole] = useState<RoleChoice>('read');
  const create = useMutation({
    mutationFn: () => api<InviteLink>('POST', `/orgs/${orgId}/link-invites`, { body: { role: roleOf(role) } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
  if (links.error instanceof ApiError && links.error.status === 403) return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <section aria-labelledby="invite-links-title" className="panel">
      <h2 id="invite-links-title">Invite links</h2>
      <p className="muted">Anyone with a link joins with its role, until it is revoked.</p>
      <form onSubmit={submit} className="inline-form">
        <Select label="Role of the link" value={role} onValueChange={setRole} options={ROLE_OPTIONS} />
        <Button type="submit" disabled={create.isPending}>Create invite link</Button>
      </form>
      <ErrorNote error={create.error} />
      {links.isPending ? <Skeleton lines={2} label="Loading the invite links" /> : null}
      <ErrorNote error={links.error} />
      {links.data && links.data.length > 0 ? (
        <ul className="invite-links">
          {links.data.map((link) => <InviteLinkRow key={link.id} orgId={orgId} link={link} onRevoked={() => queryClient.invalidateQueries({ queryKey: key })} />)}
        </ul>
      ) : null}
    </section>
  );
}

function InviteLinkRow({ orgId, link, onRevoked }: { orgId: string; link: InviteLink; onRevoked: () => Promise<void> }) {
  const [error, setError] = useState<string>();
  const [copied, setCopied] = useState(false);
  const url = joinUrl(orgId, link.id);
  const role = choiceOf(link.role);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      setError('The browser did not allow copying: select the link and copy it');
    }
  };
  const revoke = useMutation({ mutationFn: () => api('DELETE', `/orgs/${orgId}/link-invites/${link.id}`), onSuccess: onRevoked });
  return (
    <li>
      <input readOnly aria-label={`Invite link (${role})`} value={url} onFocus={(e) => e.target.select()} />
      <Button onClick={() => void copy()}>{copied ? 'Copied' : 'Copy'}</Button>
      <AlertDialog
        title={`Revoke the ${role} link?`}
        description="Whoever opens it afterwards is told it no longer works; people who joined with it stay members."
        confirm="Revoke link"
        error={revoke.error}
        onConfirm={() => revoke.mutateAsync()}
        trigger={<Button variant="danger" size="sm">Revoke the {role} link</Button>}
      />
      {error ? <p role="alert" className="error-note">{error}</p> : null}
    </li>
  );
}
