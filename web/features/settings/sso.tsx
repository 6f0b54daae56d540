import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { allPages, api, isNotFound } from '../../api/client.ts';
import { organizationQuery, teamsQuery } from '../../api/queries.ts';
import { Badge } from '../../ui/badge.tsx';
import { TextArea, TextField } from '../../ui/text-field.tsx';
import { EmptyState, ErrorNote, NotFound, Skeleton } from '../../ui/states.tsx';
import { useSubmit } from '../../ui/use-submit.ts';
import { useTitle } from '../../ui/title.ts';
import { ROLE_OPTIONS, choiceOf, roleOf, type RoleChoice } from '../members/roles.ts';
import { useIsAdmin } from '../members/use-is-admin.ts';
import { SsoDomains } from './sso-domains.tsx';
import { Button, buttonClass } from '../../ui/button.tsx';
import { AlertDialog } from '../../ui/dialogs.tsx';
import { Select } from '../../ui/select.tsx';

/** The official SAMLProvider, with Quire's `status` and `service` (our side's URLs to register with the IdP). */
interface SAMLProvider {
  id: string;
  label: string;
  ssoURL: string;
  entityID: string;
  certificate: string;
  defaultTeam?: { id: string; title: string };
  defaultRole: string | null;
  status: 'active' | 'pending';
  service: { acsURL: string; startURL: string; entityID: string };
}

/** An OpenID Connect provider (Quire's, docs/sso.md). */
interface OIDCProvider {
  id: string;
  label: string;
  issuer: string;
  clientId: string;
  defaultRole: string | null;
  defaultTeam?: { id: string; title: string };
  service: { redirectURL: string; startURL: string };
}

const samlKey = (orgId: string) => ['org', orgId, 'saml'] as const;
const oidcKey = (orgId: string) => ['org', orgId, 'oidc'] as const;
/** A pending provider shows this sign-in URL (the schema requires a URI); the form shows it empty. */
const NO_URL = 'about:blank';

/**
 * Single sign-on of an organization (docs/sso.md): its SAML and OpenID Connect providers, added, edited and
 * deleted here, each with the URLs to register at the identity provider and a link that starts its sign-in in
 * a new tab, to test it. Admins only: the API answers 403 to the others' changes.
 */
export default function SsoSettingsScreen() {
  const { orgId = '' } = useParams();
  const organization = useQuery(organizationQuery(orgId));
  const isAdmin = useIsAdmin(orgId);
  const saml = useQuery({ queryKey: samlKey(orgId), queryFn: ({ signal }) => allPages<SAMLProvider>(`/orgs/${orgId}/saml`, {}, signal) });
  const oidc = useQuery({ queryKey: oidcKey(orgId), queryFn: async ({ signal }) => (await api<{ items: OIDCProvider[] }>('GET', `/orgs/${orgId}/oidc`, { signal })).items });
  useTitle(organization.data ? `Single sign-on · ${organization.data.title}` : 'Single sign-on');
  if (isNotFound(organization.error)) return <main id="main" className="app-main"><NotFound what="organization" /></main>;
  return (
    <main id="main" className="app-main">
      <h1>Single sign-on</h1>
      <p className="muted">People sign in with the organization's identity provider; newcomers join with the provider's default role{' '}and team.</p>
      <section aria-labelledby="saml-title">
        <h2 id="saml-title">SAML providers</h2>
        {saml.isPending ? <Skeleton lines={3} label="Loading the SAML providers" /> : null}
        <ErrorNote error={saml.error} />
        {saml.data?.length === 0 ? (
          <EmptyState headingLevel={3} title="No SAML provider yet">
            <p>A SAML identity provider (Okta, Entra ID, Google Workspace…) signs people in with their work account.{isAdmin ? ' Add one below.' : ''}</p>
          </EmptyState>
        ) : null}
        {(saml.data ?? []).map((p) => <SamlProviderPanel key={p.id} orgId={orgId} provider={p} canEdit={isAdmin} />)}
        {isAdmin ? <AddSaml orgId={orgId} /> : null}
      </section>
      <section aria-labelledby="oidc-title">
        <h2 id="oidc-title">OpenID Connect providers</h2>
        {oidc.isPending ? <Skeleton lines={3} label="Loading the OpenID Connect providers" /> : null}
        <ErrorNote error={oidc.error} />
        {oidc.data?.length === 0 ? (
          <EmptyState headingLevel={3} title="No OpenID Connect provider yet">
            <p>An OpenID Connect provider signs people in with their account there.{isAdmin ? ' Add one below.' : ''}</p>
          </EmptyState>
        ) : null}
        {(oidc.data ?? []).map((p) => <OidcProviderPanel key={p.id} orgId={orgId} provider={p} canEdit={isAdmin} />)}
        {isAdmin ? <AddOidc orgId={orgId} /> : null}
      </section>
      {isAdmin ? <SsoDomains orgId={orgId} /> : null}
    </main>
  );
}

/** A form's submit with the API's message kept next to it (and what was typed kept in the fields). */
function RoleSelect({ label, value, onChange }: { label: string; value: RoleChoice; onChange: (role: RoleChoice) => void }) {
  return <Select label={label} value={value} onValueChange={onChange} options={ROLE_OPTIONS} />;
}

// "No team" in a listbox, which holds no empty value; the form keeps '' for it.
const NO_TEAM = 'none';

function TeamSelect({ orgId, label, value, onChange }: { orgId: string; label: string; value: string; onChange: (teamId: string) => void }) {
  const teams = useQuery(teamsQuery(orgId));
  return (
    <Select
      label={label}
      value={value || NO_TEAM}
      onValueChange={(teamId) => onChange(teamId === NO_TEAM ? '' : teamId)}
      options={[{ value: NO_TEAM, label: 'No team' }, ...(teams.data ?? []).map((t) => ({ value: t.id, label: t.title }))]}
    />
  );
}

function Urls({ children }: { children: ReactNode }) {
  return <dl className="facts">{children}</dl>;
}

function TestSignIn({ provider }: { provider: { label: string; service: { startURL: string } } }) {
  // The sign-in lands back on this screen; a new tab keeps the form as it is.
  const url = `${provider.service.startURL}?returnTo=${encodeURIComponent(location.pathname)}`;
  return <a className={buttonClass()} href={url} target="_blank" rel="noopener">Test sign-in with {provider.label}</a>;
}

function SamlFields({ orgId, value, onChange }: { orgId: string; value: SamlForm; onChange: (form: SamlForm) => void }) {
  const set = (field: keyof SamlForm) => (e: { target: { value: string } }) => onChange({ ...value, [field]: e.target.value });
  return (
    <>
      <TextField label="Name on the sign-in page" required maxLength={30} value={value.label} onChange={set('label')} />
      <TextField label="Identity provider entity ID (issuer)" value={value.entityID} onChange={set('entityID')} />
      <TextField label="Identity provider sign-in URL" type="url" value={value.ssoURL} onChange={set('ssoURL')} />
      <TextArea label="Signing certificate (PEM)" rows={4} value={value.certificate} onChange={set('certificate')} />
      <RoleSelect label="Default role of newcomers" value={value.defaultRole} onChange={(defaultRole) => onChange({ ...value, defaultRole })} />
      <TeamSelect orgId={orgId} label="Default team of newcomers" value={value.defaultTeam} onChange={(defaultTeam) => onChange({ ...value, defaultTeam })} />
    </>
  );
}

interface SamlForm { label: string; entityID: string; ssoURL: string; certificate: string; defaultRole: RoleChoice; defaultTeam: string }
const samlBody = (form: SamlForm) => ({
  label: form.label,
  ...(form.entityID ? { entityID: form.entityID } : {}),
  ...(form.ssoURL ? { ssoURL: form.ssoURL } : {}),
  ...(form.certificate.trim() ? { certificate: form.certificate } : {}),
  defaultRole: roleOf(form.defaultRole),
  defaultTeam: form.defaultTeam,
});
const emptySaml: SamlForm = { label: '', entityID: '', ssoURL: '', certificate: '', defaultRole: 'read', defaultTeam: '' };

function SamlProviderPanel({ orgId, provider, canEdit }: { orgId: string; provider: SAMLProvider; canEdit: boolean }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState<SamlForm>({
    label: provider.label,
    entityID: provider.entityID,
    ssoURL: provider.ssoURL === NO_URL ? '' : provider.ssoURL,
    certificate: provider.certificate,
    defaultRole: choiceOf(provider.defaultRole),
    defaultTeam: provider.defaultTeam?.id ?? '',
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: samlKey(orgId) });
  const save = useSubmit(async () => {
    await api('PATCH', `/orgs/${orgId}/saml/${provider.id}`, { body: samlBody(form) });
    await refresh();
  });
  const remove = useSubmit(async () => {
    await api('DELETE', `/orgs/${orgId}/saml/${provider.id}`);
    await refresh();
  });
  return (
    <article className="panel" aria-labelledby={`saml-${provider.id}`}>
      <h3 id={`saml-${provider.id}`}>{provider.label} <Badge tone={provider.status === 'active' ? 'success' : 'warning'}>{provider.status}</Badge></h3>
      <Urls>
        <dt>Our entity ID (audience)</dt><dd>{provider.service.entityID}</dd>
        <dt>Our ACS URL</dt><dd>{provider.service.acsURL}</dd>
        <dt>Sign-in link</dt><dd>{provider.service.startURL}</dd>
      </Urls>
      {provider.status === 'active' ? <TestSignIn provider={provider} /> : <p className="muted">Set the entity ID, the sign-in URL and the certificate to activate it.</p>}
      {canEdit ? (
        <form onSubmit={(e) => void save.submit(e)} aria-label={`Edit ${provider.label}`}>
          <SamlFields orgId={orgId} value={form} onChange={setForm} />
          {save.error ? <p role="alert" className="error-note">{save.error}</p> : null}
          <div className="form-buttons">
            <Button variant="primary" type="submit" disabled={save.busy}>Save {provider.label}</Button>
            <AlertDialog
              title={`Delete the SAML provider ${provider.label}?`}
              description="People stop signing in through it at once; their accounts and memberships stay."
              confirm={`Delete ${provider.label}`}
              error={remove.error}
              onConfirm={() => remove.submit()}
              trigger={<Button variant="danger">Delete {provider.label}</Button>}
            />
          </div>
        </form>
      ) : null}
    </article>
  );
}

function AddSaml({ orgId }: { orgId: string }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState<SamlForm>(emptySaml);
  const add = useSubmit(async () => {
    await api('POST', `/orgs/${orgId}/saml`, { body: samlBody(form) });
    setForm(emptySaml);
    await queryClient.invalidateQueries({ queryKey: samlKey(orgId) });
  });
  return (
    <form className="panel" onSubmit={(e) => void add.submit(e)} aria-labelledby="add-saml-title">
      <h3 id="add-saml-title">Add a SAML provider</h3>
      <p className="muted">Only the name is needed first: the provider then shows the URLs to register at the identity provider.</p>
      <SamlFields orgId={orgId} value={form} onChange={setForm} />
      {add.error ? <p role="alert" className="error-note">{add.error}</p> : null}
      <Button variant="primary" type="submit" disabled={add.busy}>Add SAML provider</Button>
    </form>
  );
}

interface OidcForm { label: string; issuer: string; clientId: string; clientSecret: string; defaultRole: RoleChoice; defaultTeam: string }
const emptyOidc: OidcForm = { label: '', issuer: '', clientId: '', clientSecret: '', defaultRole: 'read', defaultTeam: '' };

function OidcFields({ orgId, value, onChange, secretRequired }: { orgId: string; value: OidcForm; onChange: (form: OidcForm) => void; secretRequired: boolean }) {
  const set = (field: keyof OidcForm) => (e: { target: { value: string } }) => onChange({ ...value, [field]: e.target.value });
  return (
    <>
      <TextField label="Name on the sign-in page" required maxLength={30} value={value.label} onChange={set('label')} />
      <TextField label="Issuer URL" type="url" required value={value.issuer} onChange={set('issuer')} />
      <TextField label="Client ID" required value={value.clientId} onChange={set('clientId')} />
      <TextField
        label="Client secret"
        type="password"
        autoComplete="off"
        required={secretRequired}
        value={value.clientSecret}
        onChange={set('clientSecret')}
        hint={secretRequired ? undefined : 'Never shown again: leave empty to keep the current one'}
      />
      <RoleSelect label="Default role of newcomers" value={value.defaultRole} onChange={(defaultRole) => onChange({ ...value, defaultRole })} />
      <TeamSelect orgId={orgId} label="Default team of newcomers" value={value.defaultTeam} onChange={(defaultTeam) => onChange({ ...value, defaultTeam })} />
    </>
  );
}

const oidcBody = (form: OidcForm) => ({
  label: form.label,
  issuer: form.issuer,
  clientId: form.clientId,
  ...(form.clientSecret ? { clientSecret: form.clientSecret } : {}),
  defaultRole: roleOf(form.defaultRole),
  defaultTeam: form.defaultTeam,
});

function OidcProviderPanel({ orgId, provider, canEdit }: { orgId: string; provider: OIDCProvider; canEdit: boolean }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState<OidcForm>({ label: provider.label, issuer: provider.issuer, clientId: provider.clientId, clientSecret: '', defaultRole: choiceOf(provider.defaultRole), defaultTeam: provider.defaultTeam?.id ?? '' });
  const refresh = () => queryClient.invalidateQueries({ queryKey: oidcKey(orgId) });
  const save = useSubmit(async () => {
    await api('PATCH', `/orgs/${orgId}/oidc/${provider.id}`, { body: oidcBody(form) });
    setForm((f) => ({ ...f, clientSecret: '' }));
    await refresh();
  });
  const remove = useSubmit(async () => {
    await api('DELETE', `/orgs/${orgId}/oidc/${provider.id}`);
    await refresh();
  });
  return (
    <article className="panel" aria-labelledby={`oidc-${provider.id}`}>
      <h3 id={`oidc-${provider.id}`}>{provider.label}</h3>
      <Urls>
        <dt>Redirect URI to register</dt><dd>{provider.service.redirectURL}</dd>
        <dt>Sign-in link</dt><dd>{provider.service.startURL}</dd>
      </Urls>
      <TestSignIn provider={provider} />
      {canEdit ? (
        <form onSubmit={(e) => void save.submit(e)} aria-label={`Edit ${provider.label}`}>
          <OidcFields orgId={orgId} value={form} onChange={setForm} secretRequired={false} />
          {save.error ? <p role="alert" className="error-note">{save.error}</p> : null}
          <div className="form-buttons">
            <Button variant="primary" type="submit" disabled={save.busy}>Save {provider.label}</Button>
            <AlertDialog
              title={`Delete the OpenID Connect provider ${provider.label}?`}
              description="People stop signing in through it at once; their accounts and memberships stay."
              confirm={`Delete ${provider.label}`}
              error={remove.error}
              onConfirm={() => remove.submit()}
              trigger={<Button variant="danger">Delete {provider.label}</Button>}
            />
          </div>
        </form>
      ) : null}
    </article>
  );
}

function AddOidc({ orgId }: { orgId: string }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState<OidcForm>(emptyOidc);
  const add = useSubmit(async () => {
    await api('POST', `/orgs/${orgId}/oidc`, { body: oidcBody(form) });
    setForm(emptyOidc);
    await queryClient.invalidateQueries({ queryKey: oidcKey(orgId) });
  });
  return (
    <form className="panel" onSubmit={(e) => void add.submit(e)} aria-labelledby="add-oidc-title">
      <h3 id="add-oidc-title">Add an OpenID Connect provider</h3>
      <OidcFields orgId={orgId} value={form} onChange={setForm} secretRequired />
      {add.error ? <p role="alert" className="error-note">{add.error}</p> : null}
      <Button variant="primary" type="submit" disabled={add.busy}>Add OpenID Connect provider</Button>
    </form>
  );
}
