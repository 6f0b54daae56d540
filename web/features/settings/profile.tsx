import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, errorMessage } from '../../api/client.ts';
import { keys, meQuery, sessionsQuery } from '../../api/queries.ts';
import { TextField } from '../../ui/text-field.tsx';
import { ErrorNote, Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';
import { Button } from '../../ui/button.tsx';
import { AlertDialog } from '../../ui/dialogs.tsx';

/** The person's profile: who they are, their password, and where they are signed in. */
export default function ProfileScreen() {
  useTitle('Profile');
  const me = useQuery(meQuery());
  return (
    <main id="main" className="app-main">
      <h1>Profile</h1>
      {me.isPending ? <Skeleton lines={2} /> : null}
      <ErrorNote error={me.error} />
      {me.data ? (
        <dl className="facts">
          <dt>Name</dt><dd>{me.data.displayName}</dd>
          <dt>Email</dt><dd>{me.data.email}</dd>
        </dl>
      ) : null}
      <PasswordForm />
      <Sessions />
    </main>
  );
}

function PasswordForm() {
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const change = useMutation({
    mutationFn: () => api('PUT', '/auth/password', { body: { currentPassword, newPassword } }),
    onSuccess: () => {
      setCurrent('');
      setNew('');
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate();
  };
  return (
    <section className="panel" aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <form onSubmit={submit}>
        <TextField label="Current password" type="password" autoComplete="current-password" required value={currentPassword} onChange={(e) => setCurrent(e.target.value)} />
        <TextField label="New password" type="password" autoComplete="new-password" required minLength={8} hint="At least 8 characters" value={newPassword} onChange={(e) => setNew(e.target.value)} />
        <ErrorNote error={change.error} />
        {change.isSuccess ? <p role="status">Your password is changed.</p> : null}
        <Button variant="primary" type="submit" disabled={change.isPending}>Change password</Button>
      </form>
    </section>
  );
}

function Sessions() {
  const queryClient = useQueryClient();
  const sessions = useQuery(sessionsQuery());
  const [error, setError] = useState<{ id: string; message: string } | null>(null);
  const revoke = async (id: string) => {
    setError(null);
    try {
      await api('DELETE', `/auth/sessions/${id}`);
      await queryClient.invalidateQueries({ queryKey: keys.sessions });
    } catch (e) {
      setError({ id, message: errorMessage(e) });
      // The dialog stays open with the message.
      throw e;
    }
  };
  return (
    <section className="panel" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Where you are signed in</h2>
      {sessions.isPending ? <Skeleton lines={2} /> : null}
      <ErrorNote error={sessions.error} />
      <ul className="row-list">
        {(sessions.data?.items ?? []).map((session) => (
          <li key={session.id}>
            <span>{session.userAgent ?? 'Unknown browser'}{session.current ? ' (this browser)' : ''}</span>
            <span className="muted">signed in {new Date(session.createdAt).toLocaleString()} · last seen {new Date(session.lastSeenAt).toLocaleString()}</span>
            {!session.current ? (
              <AlertDialog
                title="Sign out this session?"
                description={`${session.userAgent ?? 'That browser'} is signed out at once and has to sign in again.`}
                confirm="Sign out the session"
                onConfirm={() => revoke(session.id)}
                error={error?.id === session.id ? error.message : undefined}
                trigger={<Button>Sign out this session</Button>}
              />
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
