import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { allPages, api, ApiError, errorMessage } from '../../api/client.ts';
import { ErrorNote, Skeleton } from '../../ui/states.tsx';
import { ROLE_CHOICES, choiceOf, roleOf, type RoleChoice } from './roles.ts';
import { Button } from '../../ui/button.tsx';

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
  const id = useId();
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
        <div className="field">
          <label htmlFor={`${id}-role`}>Role of the link</label>
          <select id={`${id}-role`} value={role} onChange={(e) => setRole(e.target.value as RoleChoice)}>
            {ROLE_CHOICES.map((r) => <option key={r} value={r}>{r}</option>)}
          </select>
        </div>
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
  const revoke = async () => {
    setError(undefined);
    try {
      await api('DELETE', `/orgs/${orgId}/link-invites/${link.id}`);
      await onRevoked();
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  return (
    <li>
      <input readOnly aria-label={`Invite link (${role})`} value={url} onFocus={(e) => e.target.select()} />
      <Button onClick={() => void copy()}>{copied ? 'Copied' : 'Copy'}</Button>
      <Button variant="ghost" size="sm" onClick={() => void revoke()}>Revoke the {role} link</Button>
      {error ? <p role="alert" className="error-note">{error}</p> : null}
    </li>
  );
}
