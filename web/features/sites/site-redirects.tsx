import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
// 0.202.0's structure and redirects (drafts and web addresses too).
import type { SiteRedirect, SiteRedirectDestination, SiteStructure } from '@gitbook/api-latest';
import { revisionQuery } from '../../api/queries.ts';
import { TextField } from '../../ui/text-field.tsx';
import { indexPages, type TreePage } from '../pages/page-tree.ts';
import { EmptyState, ErrorNote, Skeleton } from '../../ui/states.tsx';
import { redirectsQuery, structureQuery, type SiteTabProps } from './site-queries.ts';
import { sectionsOf, siteSpacesOf, variantLabel } from './structure-order.ts';
import { useSiteChange } from './use-site-change.ts';
import { Button } from '../../ui/button.tsx';
import { AlertDialog } from '../../ui/dialogs.tsx';
import { Select } from '../../ui/select.tsx';
import { RedirectImportForm } from './redirect-import-form.tsx';

/** The site's redirects: an old path of the site and the section, variant, page or web address it now sends visitors to. */
export default function SiteRedirectsTab({ orgId, site }: SiteTabProps) {
  const redirects = useQuery(redirectsQuery(orgId, site.id));
  const drafts = useQuery(redirectsQuery(orgId, site.id, true));
  const structure = useQuery(structureQuery(orgId, site.id));
  return (
    <section aria-labelledby="redirects-title">
      <h2 id="redirects-title">Redirects</h2>
      <p className="muted">A path of the site that sends visitors elsewhere, for pages that moved.</p>
      {structure.data ? <RedirectForm orgId={orgId} siteId={site.id} structure={structure.data} label="Add a redirect" /> : null}
      {structure.data ? <RedirectImportForm orgId={orgId} siteId={site.id} structure={structure.data} /> : null}
      {redirects.isPending || structure.isPending ? <Skeleton lines={3} label="Loading the redirects" /> : null}
      <ErrorNote error={redirects.error ?? drafts.error ?? structure.error} />
      {redirects.data && redirects.data.length === 0 ? (
        <EmptyState headingLevel={3} title="No redirect yet">
          <p>When a page moves, a redirect sends its old address to the new one, so links and bookmarks keep working. Add one above, or import a list.</p>
        </EmptyState>
      ) : null}
      {redirects.data && structure.data ? (
        <ul className="row-list" aria-label="Redirects">
          {redirects.data.map((redirect) => <RedirectRow key={redirect.id} orgId={orgId} siteId={site.id} redirect={redirect} structure={structure.data} />)}
        </ul>
      ) : null}
      {drafts.data && drafts.data.length > 0 && structure.data ? (
        <>
          <h3>Drafts</h3>
          <p className="muted">Kept, and not applied, until published; publishing one replaces the live redirect from the same path.</p>
          <ul className="row-list" aria-label="Draft redirects">
            {drafts.data.map((redirect) => <RedirectRow key={redirect.id} orgId={orgId} siteId={site.id} redirect={redirect} structure={structure.data} />)}
          </ul>
        </>
      ) : null}
    </section>
  );
}

const EXTERNAL = 'external';

/** The places a redirect can send to, as select values: `section:<id>`, `space:<id>` (a page is chosen beside a variant) or a web address. */
function destinations(structure: SiteStructure) {
  return [
    ...sectionsOf(structure).map((s) => ({ value: `section:${s.id}`, label: `Section ${s.title}` })),
    ...siteSpacesOf(structure).map((v) => ({ value: `space:${v.siteSpace.id}`, label: `Variant ${variantLabel(v)}` })),
    { value: EXTERNAL, label: 'A web address' },
  ];
}

interface Choices {
  /** `section:<id>`, `space:<id>` or `external`. */
  where: string;
  /** In a variant, which page ('' for its first). */
  pageId: string;
  /** A web address's URL. */
  url: string;
}

function choicesOf(d: SiteRedirectDestination): Choices {
  if (d.kind === 'site-section') return { where: `section:${d.siteSectionId}`, pageId: '', url: '' };
  if (d.kind === 'site-space') return { where: `space:${d.siteSpaceId}`, pageId: '', url: '' };
  if (d.kind === 'site-page') return { where: `space:${d.siteSpaceId}`, pageId: d.pageId, url: '' };
  return { where: EXTERNAL, pageId: '', url: d.url };
}

function destinationOf({ where, pageId, url }: Choices): SiteRedirectDestination {
  const [kind, id = ''] = where.split(':');
  if (kind === EXTERNAL) return { kind: 'external', url: url.trim() };
  if (kind === 'section') return { kind: 'site-section', siteSectionId: id };
  if (pageId) return { kind: 'site-page', siteSpaceId: id, pageId };
  return { kind: 'site-space', siteSpaceId: id };
}

const NO_CHOICE: Choices = { where: '', pageId: '', url: '' };

// "Its first page" in the listbox, which holds no empty value; the form keeps '' for it.
const FIRST_PAGE = 'first';

/** The readable pages of a variant's space, in reading order, for the page select. */
function PageSelect({ spaceId, value, onChange }: { spaceId: string; value: string; onChange: (pageId: string) => void }) {
  const revision = useQuery(revisionQuery(spaceId));
  const pages = revision.data ? indexPages(revision.data.pages as TreePage[]).order : [];
  const gone = value && revision.data && !pages.some((page) => page.id === value) ? [{ value, label: 'A page no longer in the space' }] : [];
  return (
    <>
      <Select
        label="Page"
        value={value || FIRST_PAGE}
        onValueChange={(pageId) => onChange(pageId === FIRST_PAGE ? '' : pageId)}
        disabled={revision.isPending}
        options={[{ value: FIRST_PAGE, label: 'Its first page' }, ...pages.map((page) => ({ value: page.id, label: page.title })), ...gone]}
      />
      <ErrorNote error={revision.error} />
    </>
  );
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
  const [source, setSource] = useState(redirect?.source ?? '');
  const [choice, setChoice] = useState(redirect ? choicesOf(redirect.destination) : NO_CHOICE);
  const variant = choice.where.startsWith('space:') ? siteSpacesOf(structure).find((v) => `space:${v.siteSpace.id}` === choice.where) : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = { source: source.trim(), destination: destinationOf(choice) };
    change.mutate(redirect ? { method: 'PATCH', path: `/redirects/${redirect.id}`, body } : { method: 'POST', path: '/redirects', body }, {
      onSuccess: () => {
        if (!redirect) {
          setSource('');
          setChoice(NO_CHOICE);
        }
        onDone?.();
      },
    });
  };
  return (
    <form className={redirect ? 'inline-form' : 'panel inline-form'} onSubmit={submit} aria-label={label}>
      <TextField label="From path" hint="Like /old/page" required maxLength={512} value={source} onChange={(e) => setSource(e.target.value)} />
      <Select label="To" placeholder="Choose where" value={choice.where} onValueChange={(where) => setChoice((c) => ({ ...NO_CHOICE, where, url: c.url }))} options={destinations(structure)} />
      {variant ? <PageSelect spaceId={variant.siteSpace.space.id} value={choice.pageId} onChange={(pageId) => setChoice((c) => ({ ...c, pageId }))} /> : null}
      {choice.where === EXTERNAL ? (
        <TextField label="Web address" type="url" placeholder="https://" required maxLength={2048} value={choice.url} onChange={(e) => setChoice((c) => ({ ...c, url: e.target.value }))} />
      ) : null}
      <Button type="submit" disabled={change.isPending || !choice.where}>{redirect ? 'Save redirect' : 'Add redirect'}</Button>
      {onDone ? <Button variant="ghost" size="sm" onClick={onDone}>Cancel</Button> : null}
      <ErrorNote error={change.error} />
    </form>
  );
}

function PageTitle({ spaceId, pageId }: { spaceId: string; pageId: string }) {
  const revision = useQuery(revisionQuery(spaceId));
  const page = revision.data ? indexPages(revision.data.pages as TreePage[]).byId.get(pageId) : undefined;
  return <>{page ? `Page ${page.title}` : 'A page'}</>;
}

function RedirectRow({ orgId, siteId, redirect, structure }: { orgId: string; siteId: string; redirect: SiteRedirect; structure: SiteStructure }) {
  const change = useSiteChange(orgId, siteId);
  const publish = useSiteChange(orgId, siteId);
  const [editing, setEditing] = useState(false);
  const destination = redirect.destination;
  const where = destinations(structure).find((o) => o.value === choicesOf(destination).where)?.label ?? 'a place no longer in the site';
  const variant = destination.kind === 'site-page' ? siteSpacesOf(structure).find((v) => v.siteSpace.id === destination.siteSpaceId) : undefined;
  const to =
    destination.kind === 'external' ? <a href={destination.url} target="_blank" rel="noopener noreferrer">{destination.url}</a>
    : variant && destination.kind === 'site-page' ? <><PageTitle spaceId={variant.siteSpace.space.id} pageId={destination.pageId} /> in {where}</>
    : where;
  if (editing) return <li><RedirectForm orgId={orgId} siteId={siteId} structure={structure} label={`Edit the redirect from ${redirect.source}`} redirect={redirect} onDone={() => setEditing(false)} /></li>;
  return (
    <li>
      <code>{redirect.source}</code> → <span>{to}</span>
      {redirect.draft ? (
        <Button variant="ghost" size="sm" loading={publish.isPending} onClick={() => publish.mutate({ method: 'PUT', path: '/redirects', body: { redirects: [{ source: redirect.source, intent: 'publish' }] } })}>
          Publish the draft from {redirect.source}
        </Button>
      ) : null}
      <Button variant="ghost" size="sm" onClick={() => setEditing(true)}>Edit the redirect from {redirect.source}</Button>
      <AlertDialog
        title={`Delete the redirect from ${redirect.source}?`}
        description="Readers who follow a link to that address get the page it names, or “Not found”, from now on."
        confirm="Delete redirect"
        onConfirm={() => change.mutateAsync({ method: 'DELETE', path: `/redirects/${redirect.id}` })}
        error={change.error}
        trigger={<Button variant="ghost" size="sm">Delete the redirect from {redirect.source}</Button>}
      />
      <ErrorNote error={publish.error} />
    </li>
  );
}
