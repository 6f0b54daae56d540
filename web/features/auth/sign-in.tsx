import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { api, errorMessage } from '../../api/client.ts';
import { keys, providersQuery } from '../../api/queries.ts';
import type { SignedIn } from '../../api/types.ts';
import { TextField } from '../../ui/text-field.tsx';
import { useTitle } from '../../ui/title.ts';
import { safeReturnTo } from './return-to.ts';
import { Button, buttonClass } from '../../ui/button.tsx';

/** Sign in with an e-mail and a password, or through an organization's identity provider. */
export default function SignIn() {
  useTitle('Sign in');
  const [params] = useSearchParams();
  const returnTo = safeReturnTo(params.get('returnTo'));
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const providers = useQuery(providersQuery());
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [resetSent, setResetSent] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await api<SignedIn>('POST', '/auth/sign-in', { body: { email, password } });
      await queryClient.invalidateQueries({ queryKey: keys.me });
      if ('href' in returnTo) location.assign(returnTo.href);
      else navigate(returnTo.route, { replace: true });
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const resetPassword = async () => {
    setError(undefined);
    try {
      await api('POST', '/auth/password-reset', { body: { email } });
      setResetSent(true);
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  return (
    <main id="main" className="auth-screen">
      <h1>Sign in to Quire</h1>
      <form onSubmit={submit} className="auth-form">
        <TextField label="Email" type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <TextField label="Password" type="password" name="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        {error ? <p role="alert" className="error-note">{error}</p> : null}
        <Button variant="primary" type="submit" disabled={busy}>Sign in</Button>
        <Button variant="ghost" size="sm" onClick={resetPassword} disabled={!email}>Forgot password?</Button>
        {resetSent ? <p role="status">If {email} has an account, a link to choose a new password is on its way.</p> : null}
      </form>
      {providers.data && providers.data.items.length > 0 ? (
        <section aria-labelledby="sso-title" className="sso">
          <h2 id="sso-title">Or with your organization</h2>
          <ul>
            {providers.data.items.map((provider) => {
              const url = new URL(provider.signInUrl, location.origin);
              url.searchParams.set('returnTo', 'href' in returnTo ? returnTo.href : `/app${returnTo.route === '/' ? '' : returnTo.route}`);
              return (
                <li key={provider.id}>
                  <a className={buttonClass()} href={url.href}>Sign in with {provider.label}</a>
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}
    </main>
  );
}
