import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { SiteExternalLink, SiteSection, SiteSectionGroup, SiteSpace, SiteStructure } from '@gitbook/api-latest';
import { spacesQuery } from '../../api/queries.ts';
import { TextField } from '../../ui/text-field.tsx';
import { ErrorNote, Skeleton } from '../../ui/states.tsx';
import { SortableList } from './sortable-list.tsx';
import { structureQuery, type SiteTabProps } from './site-queries.ts';
import { groupChoices, NO_GROUP, sectionsOf, sortMove, type PointerType } from './structure-order.ts';
import { useSiteChange } from './use-site-change.ts';
import { Button } from '../../ui/button.tsx';
import { Select } from '../../ui/select.tsx';
import { AlertDialog } from '../../ui/dialogs.tsx';
import { AddExternalLink, ExternalLinkRow } from './site-external-links.tsx';
import { Checkbox } from '../../ui/choices.tsx';
import { Badge } from '../../ui/badge.tsx';

type Change = ReturnType<typeof useSiteChange>;

const isLink = (item: { object: string }): item is SiteExternalLink => item.object === 'site-external-link';

/**
 * The site's structure: its sections, section groups and external links, each section's variants (site-spaces),
 * in the order visitors see them; drag to reorder, choose the default section and variant, add and remove.
 */
export default function SiteStructureTab({ orgId, site }: SiteTabProps) {
  const structure = useQuery(structureQuery(orgId, site.id));
  const change = useSiteChange(orgId, site.id);
  if (structure.isPending) return <Skeleton lines={4} label="Loading the structure" />;
  if (!structure.data) return <ErrorNote error={structure.error} />;
  const data = structure.data;
  const move = (type: (id: string) => PointerType) => (ids: string[], item: string, over: string) => {
    const body = sortMove(ids, item, over, type);
    return body ? change.mutateAsync({ method: 'PATCH', path: '/structure/sort', body }).catch(() => undefined) : Promise.resolve();
  };
  const typeOfTop = (id: string): PointerType =>
    data.type === 'sections' && data.structure.find((item) => item.id === id)?.object === 'site-section-group' ? 'site-section-group' : 'site-section';
  return (
    <section aria-labelledby="structure-title">
      <h2 id="structure-title">Structure</h2>
      <ErrorNote error={change.error} />
      {data.type === 'siteSpaces' ? (
        <>
          <p className="muted">One section: its variants are the spaces below. Add a section to make it a site of several sections.</p>
          <Variants orgId={orgId} change={change} siteSpaces={data.structure} onMove={move(() => 'site-space')} onDefault={(id) => ({ method: 'PATCH', path: '', body: { defaultSiteSpace: id } })} />
          <AddVariant orgId={orgId} change={change} />
        </>
      ) : (
        <SortableList label="Sections, section groups and external links" items={data.structure} idOf={(item) => item.id} nameOf={(item) => item.title} onMove={move(typeOfTop)} fixed={isLink}>
          {(item) =>
            item.object === 'site-section' ? (
              <Section orgId={orgId} change={change} section={item} structure={data} />
            ) : item.object === 'site-section-group' ? (
              <Group orgId={orgId} siteId={site.id} change={change} group={item} structure={data} />
            ) : (
              <ExternalLinkRow orgId={orgId} siteId={site.id} link={item} structure={data} />
            )
          }
        </SortableList>
      )}
      <AddSection orgId={orgId} change={change} />
      {data.type === 'sections' ? (
        <>
          <AddGroup change={change} structure={data} />
          <AddExternalLink orgId={orgId} siteId={site.id} structure={data} />
        </>
      ) : null}
    </section>
  );
}

function Section({ orgId, change, section, structure }: { orgId: string; change: Change; section: SiteSection; structure: SiteStructure }) {
  const [title, setTitle] = useState(section.title);
  const rename = (event: FormEvent) => {
    event.preventDefault();
    change.mutate({ method: 'PATCH', path: `/sections/${section.id}`, body: { title } });
  };
  const groups = groupChoices(structure);
  const regroup = (groupId: string) => {
    if (groupId) change.mutate({ method: 'POST', path: `/section-groups/${groupId}/sections`, body: { sectionId: section.id } });
    else if (section.sectionGroup) change.mutate({ method: 'DELETE', path: `/section-groups/${section.sectionGroup}/sections/${section.id}` });
  };
  return (
    <article className="structure-section" aria-label={`Section ${section.title}`}>
      <div className="structure-row">
        <h3>{section.title}</h3>
        <span className="muted">/{section.path}</span>
        {section.default ? <Badge tone="success">Default section</Badge> : (
          <Button variant="ghost" size="sm" onClick={() => change.mutate({ method: 'PATCH', path: '', body: { defaultSiteSection: section.id } })}>
            Make {section.title} the default section
          </Button>
        )}
        <AlertDialog
          title={`Delete the section ${section.title}?`}
          description="Its variants go with it; the spaces stay."
          confirm="Delete section"
          onConfirm={() => change.mutateAsync({ method: 'DELETE', path: `/sections/${section.id}` })}
          error={change.error}
          trigger={
            <Button variant="ghost" size="sm">
              Delete section {section.title}
            </Button>
          }
        />
      </div>
      <form className="inline-form" onSubmit={rename}>
        <TextField label={`Title of section ${section.title}`} minLength={2} maxLength={128} required value={title} onChange={(e) => setTitle(e.target.value)} />
        <Button type="submit" disabled={title === section.title}>Rename</Button>
        {groups.length > 0 ? (
          <Select
            label={`Group of ${section.title}`}
            value={section.sectionGroup ?? NO_GROUP}
            onValueChange={(groupId) => regroup(groupId === NO_GROUP ? '' : groupId)}
            options={groups}
          />
        ) : null}
      </form>
      <Variants
        orgId={orgId}
        change={change}
        siteSpaces={section.siteSpaces}
        label={`Variants of ${section.title}`}
        onMove={(ids, item, over) => {
          const body = sortMove(ids, item, over, () => 'site-space');
          return body ? change.mutateAsync({ method: 'PATCH', path: '/structure/sort', body }).catch(() => undefined) : Promise.resolve();
        }}
        onDefault={(id) => ({ method: 'PATCH', path: `/sections/${section.id}`, body: { defaultSiteSpace: id } })}
      />
      <AddVariant orgId={orgId} change={change} section={section} />
    </article>
  );
}

function Group({ orgId, siteId, change, group, structure }: { orgId: string; siteId: string; change: Change; group: SiteSectionGroup; structure: SiteStructure }) {
  // Quire nests no group in a group, so its children are sections and external links.
  const children = (group.children ?? group.sections).filter((item) => item.object !== 'site-section-group');
  const sections = children.filter((item) => item.object === 'site-section');
  return (
    <article className="structure-group" aria-label={`Section group ${group.title}`}>
      <div className="structure-row">
        <h3>{group.title}</h3>
        <Badge>Section group</Badge>
        <AlertDialog
          title={`Delete the group ${group.title}?`}
          description="Its sections and external links stay in the site, outside any group."
          confirm="Delete group"
          onConfirm={() => change.mutateAsync({ method: 'DELETE', path: `/section-groups/${group.id}` })}
          error={change.error}
          trigger={
            <Button variant="ghost" size="sm">
              Delete group {group.title}
            </Button>
          }
        />
      </div>
      {sections.length === 0 ? <p className="muted">No section in this group yet: choose this group in a section's “Group”.</p> : null}
      <SortableList
        label={`Sections and external links of ${group.title}`}
        items={children}
        idOf={(item) => item.id}
        nameOf={(item) => item.title}
        onMove={(ids, item, over) => {
          const body = sortMove(ids, item, over, () => 'site-section');
          return body ? change.mutateAsync({ method: 'PATCH', path: '/structure/sort', body }).catch(() => undefined) : Promise.resolve();
        }}
        fixed={isLink}
      >
        {(item) => (item.object === 'site-section' ? <Section orgId={orgId} change={change} section={item} structure={structure} /> : <ExternalLinkRow orgId={orgId} siteId={siteId} link={item} structure={structure} />)}
      </SortableList>
    </article>
  );
}

function Variants({ change, siteSpaces, label = 'Variants', onMove, onDefault }: {
  orgId: string;
  change: Change;
  siteSpaces: SiteSpace[];
  label?: string;
  onMove: (ids: string[], item: string, over: string) => Promise<unknown>;
  onDefault: (siteSpaceId: string) => Parameters<Change['mutate']>[0];
}) {
  return (
    <SortableList label={label} items={siteSpaces} idOf={(s) => s.id} nameOf={(s) => s.title} onMove={onMove}>
      {(siteSpace) => (
        <div className="structure-row">
          <span>{siteSpace.title}</span>
          <span className="muted">/{siteSpace.path}</span>
          {siteSpace.default ? <Badge tone="success">Default variant</Badge> : (
            <Button variant="ghost" size="sm" onClick={() => change.mutate(onDefault(siteSpace.id))}>Make {siteSpace.title} the default variant</Button>
          )}
          {siteSpace.urls.published ? <a href={siteSpace.urls.published} target="_blank" rel="noreferrer">View</a> : null}
          <Button variant="ghost" size="sm" onClick={() => change.mutate({ method: 'DELETE', path: `/site-spaces/${siteSpace.id}` })}>Remove {siteSpace.title}</Button>
        </div>
      )}
    </SortableList>
  );
}

function SpaceSelect({ orgId, label, value, onChange }: { orgId: string; label: string; value: string; onChange: (id: string) => void }) {
  const spaces = useQuery(spacesQuery(orgId));
  return <Select label={label} placeholder="Choose a space" value={value} onValueChange={onChange} options={(spaces.data ?? []).map((space) => ({ value: space.id, label: space.title }))} />;
}

function AddVariant({ orgId, change, section }: { orgId: string; change: Change; section?: SiteSection }) {
  const [spaceId, setSpaceId] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate({ method: 'POST', path: '/site-spaces', body: { spaceId, ...(section ? { sectionId: section.id } : {}) } }, { onSuccess: () => setSpaceId('') });
  };
  return (
    <form className="inline-form" onSubmit={submit}>
      <SpaceSelect orgId={orgId} label={section ? `New variant of ${section.title}` : 'New variant'} value={spaceId} onChange={setSpaceId} />
      <Button type="submit" disabled={!spaceId}>Add variant</Button>
    </form>
  );
}

function AddSection({ orgId, change }: { orgId: string; change: Change }) {
  const [spaceId, setSpaceId] = useState('');
  const [title, setTitle] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate({ method: 'POST', path: '/sections', body: { spaceId, ...(title ? { title } : {}) } }, { onSuccess: () => (setSpaceId(''), setTitle('')) });
  };
  return (
    <form className="panel" onSubmit={submit} aria-labelledby="add-section-title">
      <h3 id="add-section-title">Add a section</h3>
      <div className="inline-form">
        <TextField label="Section title" hint="The space's title if left empty" maxLength={128} value={title} onChange={(e) => setTitle(e.target.value)} />
        <SpaceSelect orgId={orgId} label="Space of the section" value={spaceId} onChange={setSpaceId} />
        <Button type="submit" disabled={!spaceId}>Add section</Button>
      </div>
    </form>
  );
}

function AddGroup({ change, structure }: { change: Change; structure: SiteStructure }) {
  const [title, setTitle] = useState('');
  const sections = sectionsOf(structure).filter((s) => !s.sectionGroup);
  const [chosen, setChosen] = useState<string[]>([]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate({ method: 'POST', path: '/section-groups', body: { title, sections: chosen } }, { onSuccess: () => (setTitle(''), setChosen([])) });
  };
  return (
    <form className="panel" onSubmit={submit} aria-labelledby="add-group-title">
      <h3 id="add-group-title">Add a section group</h3>
      <TextField label="Group title" required minLength={1} maxLength={100} value={title} onChange={(e) => setTitle(e.target.value)} />
      {sections.length > 0 ? (
        <fieldset className="choice-list">
          <legend>Sections in the group</legend>
          {sections.map((s) => (
            <Checkbox key={s.id} label={s.title} checked={chosen.includes(s.id)} onCheckedChange={(on) => setChosen((ids) => (on ? [...ids, s.id] : ids.filter((id) => id !== s.id)))} />
          ))}
        </fieldset>
      ) : null}
      <Button type="submit">Add section group</Button>
    </form>
  );
}
