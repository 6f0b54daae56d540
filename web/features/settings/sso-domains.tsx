import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../../api/client.ts';
import { TextField } from '../../ui/text-field.tsx';
import { EmptyState, ErrorNote, Skeleton } from '../../ui/states.tsx';
import { useRequest } from '../../ui/use-submit.ts';
import { Button } from '../../ui/button.tsx';
import { AlertDialog } from '../../ui/dialogs.tsx';
import { Badge } from '../../ui/badge.tsx';

/** A domain of the organization's e-mail addresses (Quire's, docs/sso.md). */
interface VerifiedDomain {
  id: string;
  domain: string;
  verified: boolean;
  verifiedAt?: string;
  txtRecord: { name: string; value: string };
  mailedTo?: string;
}

const domainsKey = (orgId: string) => ['org', orgId, 'sso-domains'] as const;

/**
 * The e-mail domains the organization proved it holds: its identity providers may sign in the existing accounts
 * of those domains. Without one, a provider signs in only the accounts it created or that their owners linked.
 */
export function SsoDomains({ orgId }: { orgId: string }) {
  const domains = useQuery({ queryKey: domainsKey(orgId), queryFn: async ({ signal }) => (await api<{ items: VerifiedDomain[] }>('GET', `/orgs/${orgId}/sso/domains`, { signal })).items });
  return (
    <section aria-labelledby="domains-title">
      <h2 id="domains-title">Verified domains</h2>
      <p className="muted">
        A provider signs in the accounts it created, and accounts whose owners linked it. To let it sign in every existing account of your e-mail domain, verify the domain.
      </p>
      {domains.isPending ? <Skeleton lines={2} label="Loading the verified domains" /> : null}
      <ErrorNote error={domains.error} />
      {domains.data?.length === 0 ? (
        <EmptyState headingLevel={3} title="No verified domain yet">
          <p>Add your e-mail domain below, then prove it with a DNS record.</p>
        </EmptyState>
      ) : null}
      {(domains.data ?? []).map((d) => <DomainPanel key={d.id} orgId={orgId} domain={d} />)}
      <AddDomain orgId={orgId} />
    </section>
  );
}

function DomainPanel({ orgId, domain }: { orgId: string; domain: VerifiedDomain }) {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const request = useRequest();
  const { error, busy } = request;
  const run = (action: () => Promise<unknown>) =>
    request.run(async () => {
      await action();
      await queryClient.invalidateQueries({ queryKey: domainsKey(orgId) });
    });
  const mail = async (event: FormEvent) => {
    event.preventDefault();
    if (await run(() => api('POST', `/orgs/${orgId}/sso/domains/${domain.id}/verify`, { body: { method: 'email', email } }))) setSent(true);
  };
  return (
    <article className="panel" aria-labelledby={`domain-${domain.id}`}>
      <h3 id={`domain-${domain.id}`}>
        {domain.domain} <Badge tone={domain.verified ? 'success' : 'warning'}>{domain.verified ? 'verified' : 'not verified'}</Badge>
      </h3>
      {domain.verified ? null : (
        <>
          <dl className="facts">
            <dt>TXT record name</dt><dd>{domain.txtRecord.name}</dd>
            <dt>TXT record value</dt><dd>{domain.txtRecord.value}</dd>
          </dl>
          <div className="form-buttons">
            <Button variant="primary" disabled={busy} onClick={() => void run(() => api('POST', `/orgs/${orgId}/sso/domains/${domain.id}/verify`, { body: { method: 'dns' } }))}>
              Check the DNS record of {domain.domain}
            </Button>
          </div>
          <form onSubmit={(e) => void mail(e)} className="inline-form" aria-label={`Verify ${domain.domain} by e-mail`}>
            <TextField label={`Or mail a link to an address of ${domain.domain}`} type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
            <Button type="submit" disabled={busy}>Send the link</Button>
          </form>
          {sent ? <p role="status">A link is on its way to {email}: opening it verifies {domain.domain}.</p> : null}
        </>
      )}
      {error ? <p role="alert" className="error-note">{error}</p> : null}
      <AlertDialog
        title={`Remove the domain ${domain.domain}?`}
        description="The organization no longer has it; adding it back means verifying it again."
        confirm="Remove domain"
        onConfirm={() => run(() => api('DELETE', `/orgs/${orgId}/sso/domains/${domain.id}`))}
        trigger={
          <Button variant="danger" disabled={busy}>
            Remove {domain.domain}
          </Button>
        }
      />
    </article>
  );
}

function AddDomain({ orgId }: { orgId: string }) {
  const queryClient = useQueryClient();
  const [domain, setDomain] = useState('');
  const { run, error, busy } = useRequest();
  const add = (event: FormEvent) =>
    run(async () => {
      await api('POST', `/orgs/${orgId}/sso/domains`, { body: { domain } });
      setDomain('');
      await queryClient.invalidateQueries({ queryKey: domainsKey(orgId) });
    }, event);
  return (
    <form className="panel inline-form" onSubmit={(e) => void add(e)} aria-labelledby="add-domain-title">
      <h3 id="add-domain-title">Add a domain</h3>
      <TextField label="Domain" placeholder="example.com" required value={domain} onChange={(e) => setDomain(e.target.value)} />
      {error ? <p role="alert" className="error-note">{error}</p> : null}
      <Button variant="primary" type="submit" disabled={busy}>Add domain</Button>
    </form>
  );
}
