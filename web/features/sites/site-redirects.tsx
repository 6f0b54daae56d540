import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { SiteRedirect, SiteRedirectDestination, SiteStructure } from '@gitbook/api';
import { Field } from '../../ui/field.tsx';
import { ErrorNote, Skeleton } from '../../ui/states.tsx';
import { redirectsQuery, structureQuery, type SiteTabProps } from './site-queries.ts';
import { sectionsOf, siteSpacesOf, variantLabel } from './structure-order.ts';
import { useSiteChange } from './use-site-change.ts';

/** The site's redirects: an old path of the site and the section or variant it now sends visitors to. */
export default function SiteRedirectsTab({ orgId, site }: SiteTabProps) {
  const redirects = useQuery(redirectsQuery(orgId, site.id));
  const structure = useQuery(structureQuery(orgId, site.id));
  return (
    <section aria-labelledby="redirects-title">
      <h2 id="redirects-title">Redirects</h2>
      <p className="muted">A path of the site that sends visitors elsewhere in it, for pages that moved.</p>
      {structure.data ? <RedirectForm orgId={orgId} siteId={site.id} structure={structure.data} label="Add a redirect" /> : null}
      {redirects.isPending || structure.isPending ? <Skeleton lines={3} label="Loading the redirects" /> : null}
      <ErrorNote error={redirects.error ?? structure.error} />
      {redirects.data && redirects.data.length === 0 ? <p>No redirect yet.</p> : null}
      {redirects.data && structure.data ? (
        <ul className="row-list" aria-label="Redirects">
          {redirects.data.map((redirect) => <RedirectRow key={redirect.id} orgId={orgId} siteId={site.id} redirect={redirect} structure={structure.data} />)}
        </ul>
      ) : null}
    </section>
  );
}

/** The places a redirect can send to, as select values: `section:<id>` or `space:<id>`. */
function destinations(structure: SiteStructure) {
  return [
    ...sectionsOf(structure).map((s) => ({ value: `section:${s.id}`, label: `Section ${s.title}` })),
    ...siteSpacesOf(structure).map((v) => ({ value: `space:${v.siteSpace.id}`, label: `Variant ${variantLabel(v)}` })),
  ];
}

const valueOf = (d: SiteRedirectDestination) => (d.kind === 'site-section' ? `section:${d.siteSectionId}` : d.kind === 'site-space' ? `space:${d.siteSpaceId}` : `page:${d.siteSpaceId}:${d.pageId}`);

function destinationOf(value: string): SiteRedirectDestination {
  const [kind, id = '', pageId = ''] = value.split(':');
  if (kind === 'section') return { kind: 'site-section', siteSectionId: id };
  if (kind === 'page') return { kind: 'site-page', siteSpaceId: id, pageId };
  return { kind: 'site-space', siteSpaceId: id };
}

function RedirectForm({ orgId, siteId, structure, label, redirect, onDone }: {
  orgId: string;
  siteId: string;
  structure: SiteStructure;
  label: string;
  redirect?: SiteRedirect;
  onDone?: () => void;
}) {
  const change = useSiteChange(orgId, siteId);
  const id = useId();
  const [source, setSource] = useState(redirect?.source ?? '');
  const [destination, setDestination] = useState(redirect ? valueOf(redirect.destination) : '');
  const options = destinations(structure);
  if (destination.startsWith('page:')) options.push({ value: destination, label: 'A page (kept as it is)' });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = { source: source.trim(), destination: destinationOf(destination) };
    change.mutate(redirect ? { method: 'PATCH', path: `/redirects/${redirect.id}`, body } : { method: 'POST', path: '/redirects', body }, {
      onSuccess: () => {
        if (!redirect) {
          setSource('');
          setDestination('');
        }
        onDone?.();
      },
    });
  };
  return (
    <form className={redirect ? 'inline-form' : 'panel inline-form'} onSubmit={submit} aria-label={label}>
      <Field label="From path" hint="Like /old/page" required maxLength={512} value={source} onChange={(e) => setSource(e.target.value)} />
      <div className="field">
        <label htmlFor={`${id}-to`}>To</label>
        <select id={`${id}-to`} required value={destination} onChange={(e) => setDestination(e.target.value)}>
          <option value="">Choose where</option>
          {options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
        </select>
      </div>
      <button type="submit" className="button" disabled={change.isPending}>{redirect ? 'Save redirect' : 'Add redirect'}</button>
      {onDone ? <button type="button" className="link-button" onClick={onDone}>Cancel</button> : null}
      <ErrorNote error={change.error} />
    </form>
  );
}

function RedirectRow({ orgId, siteId, redirect, structure }: { orgId: string; siteId: string; redirect: SiteRedirect; structure: SiteStructure }) {
  const change = useSiteChange(orgId, siteId);
  const [editing, setEditing] = useState(false);
  const to = destinations(structure).find((o) => o.value === valueOf(redirect.destination))?.label ?? 'a page';
  if (editing) return <li><RedirectForm orgId={orgId} siteId={siteId} structure={structure} label={`Edit the redirect from ${redirect.source}`} redirect={redirect} onDone={() => setEditing(false)} /></li>;
  return (
    <li>
      <code>{redirect.source}</code> → <span>{to}</span>
      <button type="button" className="link-button" onClick={() => setEditing(true)}>Edit the redirect from {redirect.source}</button>
      <button type="button" className="link-button" onClick={() => change.mutate({ method: 'DELETE', path: `/redirects/${redirect.id}` })}>Delete the redirect from {redirect.source}</button>
      <ErrorNote error={change.error} />
    </li>
  );
}
