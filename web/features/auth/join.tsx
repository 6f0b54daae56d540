import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api, errorMessage, isUnauthorized } from '../../api/client.ts';
import { keys, meQuery, providersQuery } from '../../api/queries.ts';
import type { InviteLinkInfo, SignedIn } from '../../api/types.ts';
import { TextField } from '../../ui/text-field.tsx';
import { Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';
import { Button, buttonClass } from '../../ui/button.tsx';

/*
 * An organization's invite link (`/o/:org/join/:invite`): whoever holds it joins with its role. A signed-in
 * person joins with one button (the official joinOrganizationWithInvite); anyone else signs in first, or
 * creates an account with the link, which joins at once. A revoked link shows the API's message.
 */
export default function Join() {
  const { orgId = '', inviteId = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const invite = useQuery({
    queryKey: ['auth', 'invite-link', orgId, inviteId],
    queryFn: ({ signal }) => api<InviteLinkInfo>('GET', `/auth/invite-links/${encodeURIComponent(orgId)}/${encodeURIComponent(inviteId)}`, { signal }),
    retry: false,
  });
  const me = useQuery(meQuery());
  const organization = invite.data?.organization.title;
  useTitle(organization ? `Join ${organization}` : 'Join an organization');

  const joinPath = `/orgs/${encodeURIComponent(orgId)}/invites/${encodeURIComponent(inviteId)}`;
  const openOrganization = async () => {
    await queryClient.invalidateQueries({ queryKey: keys.organizations });
    await queryClient.invalidateQueries({ queryKey: keys.me });
    navigate(`/o/${orgId}`, { replace: true });
  };
  /** Joins with the link as the person now signed in, then opens the organization. */
  const join = async () => {
    await api('POST', joinPath);
    await openOrganization();
  };
  const signedOut = me.error && isUnauthorized(me.error);

  return (
    <main id="main" className="auth-screen">
      <h1>{organization ? `Join ${organization}` : 'Join an organization'}</h1>
      {invite.isPending || me.isPending ? <Skeleton lines={3} label="Loading the invitation" /> : null}
      {invite.error ? <p role="alert" className="error-note">{errorMessage(invite.error)}</p> : null}
      {invite.data ? (
        <>
          <p>{invite.data.role ? <>This link lets you join as <strong>{invite.data.role}</strong>.</> : <>This link lets you join as a guest.</>}</p>
          {me.data ? <JoinAsMe name={me.data.displayName} organization={invite.data.organization.title} onJoin={join} /> : null}
          {me.error && !signedOut ? <p role="alert" className="error-note">{errorMessage(me.error)}</p> : null}
          {signedOut ? <SignInOrSignUp orgId={orgId} inviteId={inviteId} onSignedIn={join} onSignedUp={openOrganization} /> : null}
        </>
      ) : null}
    </main>
  );
}

function JoinAsMe({ name, organization, onJoin }: { name: string; organization: string; onJoin: () => Promise<void> }) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const click = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await onJoin();
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  };
  return (
    <div className="auth-form">
      <p>You are signed in as <strong>{name}</strong>.</p>
      {error ? <p role="alert" className="error-note">{error}</p> : null}
      <Button variant="primary" onClick={() => void click()} disabled={busy}>Join {organization}</Button>
    </div>
  );
}

function SignInOrSignUp(props: { orgId: string; inviteId: string; onSignedIn: () => Promise<void>; onSignedUp: () => Promise<void> }) {
  const { orgId, inviteId } = props;
  const providers = useQuery(providersQuery());
  const ours = (providers.data?.items ?? []).filter((provider) => provider.organizationId === orgId);
  const here = `/app/o/${orgId}/join/${inviteId}`;
  return (
    <>
      <AccountForm
        title="Sign in to join"
        submitLabel="Sign in and join"
        passwordAutoComplete="current-password"
        submit={async ({ email, password }) => {
          await api<SignedIn>('POST', '/auth/sign-in', { body: { email, password } });
          await props.onSignedIn();
        }}
      />
      <AccountForm
        title="New here? Create an account"
        submitLabel="Create account and join"
        withName
        passwordAutoComplete="new-password"
        submit={async ({ email, password, displayName }) => {
          await api<SignedIn>('POST', `/auth/invite-links/${encodeURIComponent(orgId)}/${encodeURIComponent(inviteId)}/sign-up`, {
            body: { email, password, ...(displayName ? { displayName } : {}) },
          });
          // The account joined with the link as it was created: only the organization is left to open.
          await props.onSignedUp();
        }}
      />
      {ours.length > 0 ? (
        <section aria-labelledby="join-sso-title" className="sso">
          <h2 id="join-sso-title">Or with your organization’s sign-in</h2>
          <ul>
            {ours.map((provider) => {
              const url = new URL(provider.signInUrl, location.origin);
              url.searchParams.set('returnTo', here);
              return <li key={provider.id}><a className={buttonClass()} href={url.href}>Sign in with {provider.label}</a></li>;
            })}
          </ul>
        </section>
      ) : null}
    </>
  );
}

interface AccountInput {
  email: string;
  password: string;
  displayName: string;
}

/** One way in (an account one has, or a new one): what was typed stays when the API refuses it. */
function AccountForm(props: { title: string; submitLabel: string; withName?: boolean; passwordAutoComplete: string; submit: (input: AccountInput) => Promise<void> }) {
  const [input, setInput] = useState<AccountInput>({ email: '', password: '', displayName: '' });
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const set = (field: keyof AccountInput) => (event: { target: { value: string } }) => setInput({ ...input, [field]: event.target.value });
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await props.submit(input);
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  };
  return (
    <form onSubmit={onSubmit} className="auth-form" aria-label={props.title}>
      <h2>{props.title}</h2>
      {props.withName ? <TextField label="Your name" autoComplete="name" value={input.displayName} onChange={set('displayName')} /> : null}
      <TextField label="Email" type="email" autoComplete={props.withName ? 'email' : 'username'} required value={input.email} onChange={set('email')} />
      <TextField
        label="Password"
        type="password"
        autoComplete={props.passwordAutoComplete}
        required
        {...(props.withName ? { minLength: 8, hint: 'At least 8 characters' } : {})}
        value={input.password}
        onChange={set('password')}
      />
      {error ? <p role="alert" className="error-note">{error}</p> : null}
      <Button variant="primary" type="submit" disabled={busy}>{props.submitLabel}</Button>
    </form>
  );
}
