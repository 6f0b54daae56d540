import { useState, type FormEvent } from 'react';
import type { SiteExternalLink, SiteStructure } from '@gitbook/api-latest';
import { TextField } from '../../ui/text-field.tsx';
import { ErrorNote } from '../../ui/states.tsx';
import { Button } from '../../ui/button.tsx';
import { AlertDialog } from '../../ui/dialogs.tsx';
import { Select } from '../../ui/select.tsx';
import { groupChoices, NO_GROUP } from './structure-order.ts';
import { useSiteChange } from './use-site-change.ts';
import { Badge } from '../../ui/badge.tsx';

/*
 * A site's external links (0.202.0) on its Structure tab: entries of the navigation that lead to another address,
 * at the top level or in a section group. sortSiteStructure cannot move them, so a link stays where it was added;
 * a new group puts it at that group's end. Only a site of sections has them: the server refuses a link to a site
 * of one section, whose navigation is its variants.
 */

/** What a link's form holds; `group` is the Group select's value. */
interface LinkFields {
  title: string;
  url: string;
  group: string;
}

const EMPTY: LinkFields = { title: '', url: '', group: NO_GROUP };

const fieldsOf = (link: SiteExternalLink): LinkFields => ({ title: link.title, url: link.url, group: link.sectionGroup ?? NO_GROUP });

/** The updateSiteExternalLinkById body: only what the person changed, so a link that stays in its group keeps its place. */
function changesOf(link: SiteExternalLink, fields: LinkFields) {
  const before = fieldsOf(link);
  return {
    ...(fields.title !== before.title ? { title: fields.title } : {}),
    ...(fields.url.trim() !== before.url ? { url: fields.url.trim() } : {}),
    ...(fields.group !== before.group ? { parent: fields.group === NO_GROUP ? null : fields.group } : {}),
  };
}

function LinkFieldset({ fields, onChange, structure }: { fields: LinkFields; onChange: (fields: LinkFields) => void; structure: SiteStructure }) {
  const groups = groupChoices(structure);
  return (
    <>
      <TextField label="Link title" required minLength={2} maxLength={128} value={fields.title} onChange={(e) => onChange({ ...fields, title: e.target.value })} />
      <TextField label="URL" hint="An http:// or https:// address" type="url" required maxLength={2048} value={fields.url} onChange={(e) => onChange({ ...fields, url: e.target.value })} />
      {groups.length > 0 ? <Select label="Group" value={fields.group} onValueChange={(group) => onChange({ ...fields, group })} options={groups} /> : null}
    </>
  );
}

export function AddExternalLink({ orgId, siteId, structure }: { orgId: string; siteId: string; structure: SiteStructure }) {
  const change = useSiteChange(orgId, siteId);
  const [fields, setFields] = useState(EMPTY);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = { title: fields.title, url: fields.url.trim(), ...(fields.group !== NO_GROUP ? { parent: fields.group } : {}) };
    change.mutate({ method: 'POST', path: '/external-links', body }, { onSuccess: () => setFields(EMPTY) });
  };
  return (
    <form className="panel" onSubmit={submit} aria-labelledby="add-link-title">
      <h3 id="add-link-title">Add an external link</h3>
      <p className="muted">An entry of the site’s navigation that leads elsewhere: a status page, a blog, the product.</p>
      <div className="inline-form">
        <LinkFieldset fields={fields} onChange={setFields} structure={structure} />
        <Button type="submit" disabled={change.isPending}>Add external link</Button>
      </div>
      <ErrorNote error={change.error} />
    </form>
  );
}

function EditExternalLink({ orgId, siteId, link, structure, onDone }: { orgId: string; siteId: string; link: SiteExternalLink; structure: SiteStructure; onDone: () => void }) {
  const change = useSiteChange(orgId, siteId);
  const [fields, setFields] = useState(() => fieldsOf(link));
  const changes = changesOf(link, fields);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate({ method: 'PATCH', path: `/external-links/${link.id}`, body: changes }, { onSuccess: onDone });
  };
  return (
    <form className="inline-form" onSubmit={submit} aria-label={`Edit the link ${link.title}`}>
      <LinkFieldset fields={fields} onChange={setFields} structure={structure} />
      <Button type="submit" disabled={change.isPending || Object.keys(changes).length === 0}>Save link</Button>
      <Button variant="ghost" size="sm" onClick={onDone}>Cancel</Button>
      <ErrorNote error={change.error} />
    </form>
  );
}

export function ExternalLinkRow({ orgId, siteId, link, structure }: { orgId: string; siteId: string; link: SiteExternalLink; structure: SiteStructure }) {
  const change = useSiteChange(orgId, siteId);
  const [editing, setEditing] = useState(false);
  return (
    <article className="structure-link" aria-label={`External link ${link.title}`}>
      <div className="structure-row">
        <h3>{link.title}</h3>
        <a className="structure-link-url" href={link.url} target="_blank" rel="noopener noreferrer">{link.url}</a>
        <Badge>External link</Badge>
        {link.draft ? <Badge tone="warning">Draft: not shown to visitors</Badge> : null}
        {editing ? null : <Button variant="ghost" size="sm" onClick={() => setEditing(true)}>Edit the link {link.title}</Button>}
        <AlertDialog
          title={`Delete the link ${link.title}?`}
          description="It leaves the site’s navigation; the address it leads to is not touched."
          confirm="Delete link"
          onConfirm={() => change.mutateAsync({ method: 'DELETE', path: `/external-links/${link.id}` })}
          error={change.error}
          trigger={
            <Button variant="ghost" size="sm">
              Delete the link {link.title}
            </Button>
          }
        />
      </div>
      {editing ? <EditExternalLink orgId={orgId} siteId={siteId} link={link} structure={structure} onDone={() => setEditing(false)} /> : null}
    </article>
  );
}
