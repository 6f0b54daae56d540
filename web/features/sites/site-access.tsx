import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { SitePublishingAuth } from '@gitbook/api';
import { TextField } from '../../ui/text-field.tsx';
import { Switch } from '../../ui/choices.tsx';
import { ErrorNote, Skeleton } from '../../ui/states.tsx';
import { schemaProblem } from './adaptive-schema.ts';
import { adaptiveSchemaQuery, publishingAuthQuery, type SiteTabProps } from './site-queries.ts';
import { useSiteChange } from './use-site-change.ts';
import { Button } from '../../ui/button.tsx';
import { AlertDialog } from '../../ui/dialogs.tsx';

/** Where the site answers (basename, custom hostname) and who reads it how: visitor authentication and adaptive content. */
export default function SiteAccessTab({ orgId, site }: SiteTabProps) {
  return (
    <>
      <Address orgId={orgId} site={site} />
      <VisitorAuth orgId={orgId} siteId={site.id} />
      <AdaptiveContent orgId={orgId} site={site} />
    </>
  );
}

function Address({ orgId, site }: SiteTabProps) {
  const change = useSiteChange(orgId, site.id);
  const [basename, setBasename] = useState(site.basename ?? '');
  const [hostname, setHostname] = useState(site.hostname ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate({
      method: 'PATCH',
      path: '',
      body: { ...(basename.trim() && basename.trim() !== site.basename ? { basename: basename.trim() } : {}), hostname: hostname.trim() ? hostname.trim().toLowerCase() : null },
    });
  };
  return (
    <section aria-labelledby="address-title" className="panel">
      <h2 id="address-title">Address</h2>
      <form onSubmit={submit}>
        <TextField label="Basename" hint="The site's name in its URL: /sites/<basename>/" value={basename} onChange={(e) => setBasename(e.target.value)} />
        <TextField
          label="Custom hostname"
          hint="Like docs.example.com, whose DNS points at this server; the site then answers at its root. Empty for none."
          value={hostname}
          onChange={(e) => setHostname(e.target.value)}
        />
        <Button type="submit" disabled={change.isPending}>Save address</Button>
      </form>
      <ErrorNote error={change.error} />
      {site.urls.published ? <p>Published at <a href={site.urls.published} target="_blank" rel="noreferrer">{site.urls.published}</a></p> : null}
    </section>
  );
}

function VisitorAuth({ orgId, siteId }: { orgId: string; siteId: string }) {
  const auth = useQuery(publishingAuthQuery(orgId, siteId));
  return (
    <section aria-labelledby="visitor-auth-title" className="panel">
      <h2 id="visitor-auth-title">Visitor authentication</h2>
      <p className="muted">
        For the “Visitor authentication” visibility: your sign-in sends visitors to the site with a token (<code>?jwt_token=</code>) signed with this
        private key (HS256), or with a key your JWKS URL publishes.
      </p>
      {auth.isPending ? <Skeleton lines={3} label="Loading the visitor authentication" /> : null}
      <ErrorNote error={auth.error} />
      {auth.data ? <VisitorAuthForm orgId={orgId} siteId={siteId} auth={auth.data as SitePublishingAuth & { jwksUrl?: string }} /> : null}
    </section>
  );
}

function VisitorAuthForm({ orgId, siteId, auth }: { orgId: string; siteId: string; auth: SitePublishingAuth & { jwksUrl?: string } }) {
  const change = useSiteChange(orgId, siteId);
  const regenerate = useSiteChange(orgId, siteId);
  const [fallbackURL, setFallbackURL] = useState(auth.fallbackURL ?? '');
  const [jwksUrl, setJwksUrl] = useState(auth.jwksUrl ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate({ method: 'PATCH', path: '/publishing/auth', body: { fallbackURL: fallbackURL.trim() || null, jwksUrl: jwksUrl.trim() || null } });
  };
  return (
    <>
      <div className="inline-form">
        <TextField label="Private key" readOnly value={auth.privateKey} onFocus={(e) => e.target.select()} />
        <AlertDialog
          title="Replace the private key?"
          description="Tokens signed with the old key stop working: whatever signs visitors' tokens needs the new one."
          confirm="Replace the key"
          onConfirm={() => regenerate.mutateAsync({ method: 'POST', path: '/publishing/auth/regenerate' })}
          error={regenerate.error}
          trigger={<Button>Regenerate the key</Button>}
        />
      </div>
      <ErrorNote error={regenerate.error} />
      <form onSubmit={submit}>
        <TextField label="Sign-in URL" type="url" hint="Where visitors without a token are sent to sign in" value={fallbackURL} onChange={(e) => setFallbackURL(e.target.value)} />
        <TextField label="JWKS URL" type="url" hint="Public keys that verify tokens instead of the private key (optional)" value={jwksUrl} onChange={(e) => setJwksUrl(e.target.value)} />
        <Button type="submit" disabled={change.isPending}>Save visitor authentication</Button>
      </form>
      <ErrorNote error={change.error} />
    </>
  );
}

function AdaptiveContent({ orgId, site }: SiteTabProps) {
  const schema = useQuery(adaptiveSchemaQuery(orgId, site.id));
  const toggle = useSiteChange(orgId, site.id);
  return (
    <section aria-labelledby="adaptive-title" className="panel">
      <h2 id="adaptive-title">Adaptive content</h2>
      <Switch
        label="Show content by the visitor’s claims (conditions on sections, variants and links)"
        checked={site.adaptiveContent?.enabled ?? false}
        disabled={toggle.isPending}
        onCheckedChange={(enabled) => toggle.mutate({ method: 'PATCH', path: '', body: { adaptiveContent: { enabled } } })}
      />
      <ErrorNote error={toggle.error} />
      {schema.isPending ? <Skeleton lines={3} label="Loading the adaptive schema" /> : null}
      <ErrorNote error={schema.error} />
      {schema.data ? <SchemaEditor key={schema.data.updatedAt} orgId={orgId} siteId={site.id} jsonSchema={schema.data.jsonSchema} /> : null}
    </section>
  );
}

function SchemaEditor({ orgId, siteId, jsonSchema }: { orgId: string; siteId: string; jsonSchema: unknown }) {
  const change = useSiteChange(orgId, siteId);
  const [text, setText] = useState(() => JSON.stringify(jsonSchema, null, 2));
  const problem = schemaProblem(text);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!problem) change.mutate({ method: 'PUT', path: '/adaptive-schema', body: { jsonSchema: JSON.parse(text) } });
  };
  return (
    <form onSubmit={submit}>
      <div className="field">
        <label htmlFor="adaptive-schema">Claims schema (JSON schema)</label>
        <textarea id="adaptive-schema" className="code-textarea" rows={12} spellCheck={false} value={text} aria-invalid={Boolean(problem)} aria-describedby="adaptive-schema-problem" onChange={(e) => setText(e.target.value)} />
        <small id="adaptive-schema-problem" className={problem ? 'error-note' : 'field-hint'} role={problem ? 'alert' : undefined}>
          {problem ?? 'The claims a visitor’s token can carry, as a JSON schema of an object.'}
        </small>
      </div>
      <ErrorNote error={change.error} />
      <Button type="submit" disabled={Boolean(problem) || change.isPending}>Save schema</Button>
    </form>
  );
}
