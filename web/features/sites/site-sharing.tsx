import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import type { ShareLink } from '@gitbook/api';
import { TextField } from '../../ui/text-field.tsx';
import { EmptyState, ErrorNote, Skeleton } from '../../ui/states.tsx';
import { shareLinksQuery, type SiteTabProps } from './site-queries.ts';
import { useSiteChange } from './use-site-change.ts';
import { VISIBILITIES } from './visibility.ts';
import { Button } from '../../ui/button.tsx';
import { AlertDialog } from '../../ui/dialogs.tsx';
import { SitePeople } from './site-people.tsx';
import { Badge } from '../../ui/badge.tsx';

/**
 * Who can read the site (its visibility), who may open it in the app and with which role (People), and its share
 * links: create, copy, deactivate and activate, delete.
 */
export default function SiteSharingTab({ orgId, site }: SiteTabProps) {
  const change = useSiteChange(orgId, site.id);
  // The choice shows at once, not only once the site is read again after the save (a refused one goes back).
  const [chosen, setChosen] = useState<string | null>(null);
  useEffect(() => setChosen(null), [site.visibility]);
  return (
    <>
      <section aria-labelledby="visibility-title" className="panel">
        <h2 id="visibility-title">Visibility</h2>
        <fieldset className="choice-list" disabled={change.isPending}>
          <legend>Who can read the site</legend>
          {VISIBILITIES.map((v) => (
            <label key={v.value}>
              <input
                type="radio"
                name="visibility"
                value={v.value}
                checked={(chosen ?? site.visibility) === v.value}
                onChange={() => {
                  setChosen(v.value);
                  change.mutate({ method: 'PATCH', path: '', body: { visibility: v.value } }, { onError: () => setChosen(null) });
                }}
              />{' '}
              {v.label} <span className="muted">— {v.hint}</span>
            </label>
          ))}
        </fieldset>
        <ErrorNote error={change.error} />
      </section>
      <SitePeople orgId={orgId} siteId={site.id} />
      <ShareLinks orgId={orgId} siteId={site.id} published={site.published} />
    </>
  );
}

function ShareLinks({ orgId, siteId, published }: { orgId: string; siteId: string; published: boolean }) {
  const links = useQuery(shareLinksQuery(orgId, siteId));
  const create = useSiteChange<ShareLink>(orgId, siteId);
  const [name, setName] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ method: 'POST', path: '/share-links', body: { name } }, { onSuccess: () => setName('') });
  };
  return (
    <section aria-labelledby="share-links-title" className="panel">
      <h2 id="share-links-title">Share links</h2>
      <p className="muted">A share link opens a site whose visibility is “Share link” to whoever has it{published ? '' : ', once the site is published'}.</p>
      <form className="inline-form" onSubmit={submit}>
        <TextField label="Share link name" required maxLength={50} value={name} onChange={(e) => setName(e.target.value)} />
        <Button type="submit" disabled={create.isPending}>Create share link</Button>
      </form>
      <ErrorNote error={create.error} />
      {links.isPending ? <Skeleton lines={2} label="Loading the share links" /> : null}
      <ErrorNote error={links.error} />
      {links.data && links.data.length === 0 ? (
        <EmptyState headingLevel={3} title="No share link yet">
          <p>Name a link above for each audience (a customer, a partner): each can be revoked on its own.</p>
        </EmptyState>
      ) : null}
      <ul className="row-list" aria-label="Share links">
        {links.data?.map((link) => <ShareLinkRow key={link.id} orgId={orgId} siteId={siteId} link={link} />)}
      </ul>
    </section>
  );
}

function ShareLinkRow({ orgId, siteId, link }: { orgId: string; siteId: string; link: ShareLink }) {
  const change = useSiteChange(orgId, siteId);
  const [copied, setCopied] = useState(false);
  const name = link.name || 'Unnamed link';
  const url = link.urls.published;
  const copy = async () => {
    if (!url) return;
    await navigator.clipboard.writeText(url);
    setCopied(true);
  };
  return (
    <li>
      <strong>{name}</strong>
      <Badge tone={link.active ? 'success' : 'neutral'}>{link.active ? 'Active' : 'Deactivated'}</Badge>
      {url ? <input readOnly aria-label={`URL of ${name}`} value={url} onFocus={(e) => e.target.select()} className="share-url" /> : null}
      {url ? <Button onClick={() => void copy()}>{copied ? 'Copied' : `Copy ${name}`}</Button> : null}
      <Button disabled={change.isPending} onClick={() => change.mutate({ method: 'PATCH', path: `/share-links/${link.id}`, body: { active: !link.active } })}>
        {link.active ? `Deactivate ${name}` : `Activate ${name}`}
      </Button>
      <AlertDialog
        title={`Delete the share link ${name}?`}
        description="Whoever has it can no longer open the site."
        confirm="Delete share link"
        onConfirm={() => change.mutateAsync({ method: 'DELETE', path: `/share-links/${link.id}` })}
        error={change.error}
        trigger={
          <Button variant="ghost" size="sm">
            Delete {name}
          </Button>
        }
      />
      <ErrorNote error={change.error} />
    </li>
  );
}
