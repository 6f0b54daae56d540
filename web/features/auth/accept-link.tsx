import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api, errorMessage } from '../../api/client.ts';
import { keys } from '../../api/queries.ts';
import type { AuthLink, SignedIn } from '../../api/types.ts';
import { TextField } from '../../ui/text-field.tsx';
import { Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';
import { Button } from '../../ui/button.tsx';

const HEADINGS = { invite: 'Join', reset: 'Choose a new password', 'first-start': 'Set up Quire', verify: 'Confirm your e-mail address' } as const;

/** A one-time link (an invitation, a password reset, the first start): the person chooses a password and is signed in. */
export default function AcceptLink() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const link = useQuery({ queryKey: ['auth', 'link', token], queryFn: ({ signal }) => api<AuthLink>('GET', `/auth/links/${encodeURIComponent(token)}`, { signal }), retry: false });
  const [displayName, setDisplayName] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const heading = link.data ? (link.data.kind === 'invite' ? `Join ${link.data.organization?.title ?? 'the organization'}` : HEADINGS[link.data.kind]) : 'Your link';
  useTitle(heading);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await api<SignedIn>('POST', `/auth/links/${encodeURIComponent(token)}`, { body: { password, ...(displayName ? { displayName } : {}) } });
      await queryClient.invalidateQueries({ queryKey: keys.me });
      const orgId = link.data?.organization?.id;
      navigate(orgId ? `/o/${orgId}` : '/', { replace: true });
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" className="auth-screen">
      <h1>{heading}</h1>
      {link.isPending ? <Skeleton lines={3} /> : null}
      {link.error ? <p role="alert" className="error-note">{errorMessage(link.error)}</p> : null}
      {link.data ? (
        <form onSubmit={submit} className="auth-form">
          <p>
            For <strong>{link.data.email}</strong>
            {link.data.role ? <> as <strong>{link.data.role}</strong></> : null}
          </p>
          {link.data.kind !== 'reset' ? <TextField label="Your name" autoComplete="name" value={displayName} onChange={(e) => setDisplayName(e.target.value)} /> : null}
          <TextField label="Password" type="password" autoComplete="new-password" required minLength={8} hint="At least 8 characters" value={password} onChange={(e) => setPassword(e.target.value)} />
          {error ? <p role="alert" className="error-note">{error}</p> : null}
          <Button variant="primary" type="submit" disabled={busy}>
            {link.data.kind === 'invite' ? 'Accept invitation' : 'Save password'}
          </Button>
        </form>
      ) : null}
    </main>
  );
}
