import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { SiteCustomizationSettings } from '@gitbook/api';
import { TextField } from '../../ui/text-field.tsx';
import { ErrorNote, Skeleton } from '../../ui/states.tsx';
import { ANNOUNCEMENT_STYLES, THEMES, applyForm, formOf, formProblem, overridePatch, sameSettings, type CustomizationForm, type FaviconKind, type LinkRow } from './customization-form.ts';
import { customizationQuery, siteSpaceCustomizationQuery, structureQuery, type SiteTabProps } from './site-queries.ts';
import { siteSpacesOf, variantLabel } from './structure-order.ts';
import { useSiteChange } from './use-site-change.ts';
import { Button } from '../../ui/button.tsx';
import { AlertDialog } from '../../ui/dialogs.tsx';
import { Select } from '../../ui/select.tsx';
import { Checkbox } from '../../ui/choices.tsx';

// "The whole site" in the listbox, which holds no empty value; the screen keeps '' for it.
const WHOLE_SITE = 'site';

/**
 * The site's customization, or one variant's override of it, with the published site beside the form: the
 * preview reloads after each save, so what was changed is what a visitor now sees.
 */
export default function SiteCustomizationTab({ orgId, site }: SiteTabProps) {
  const structure = useQuery(structureQuery(orgId, site.id));
  const [scope, setScope] = useState('');
  const [saved, setSaved] = useState(0);
  const variants = structure.data ? siteSpacesOf(structure.data) : [];
  const variant = variants.find((v) => v.siteSpace.id === scope);
  const previewUrl = variant ? variant.siteSpace.urls.published : site.urls.published;
  return (
    <div className="customization-layout">
      <section aria-labelledby="customization-title" className="customization-form">
        <h2 id="customization-title">Customization</h2>
        <Select
          label="Customize"
          value={scope || WHOLE_SITE}
          onValueChange={(value) => setScope(value === WHOLE_SITE ? '' : value)}
          options={[{ value: WHOLE_SITE, label: 'The whole site' }, ...variants.map((v) => ({ value: v.siteSpace.id, label: `Only ${variantLabel(v)}` }))]}
        />
        {scope ? (
          <VariantCustomization key={scope} orgId={orgId} siteId={site.id} siteSpaceId={scope} onSaved={() => setSaved((n) => n + 1)} />
        ) : (
          <SiteCustomization orgId={orgId} siteId={site.id} onSaved={() => setSaved((n) => n + 1)} />
        )}
      </section>
      <section aria-labelledby="preview-title" className="customization-preview">
        <h2 id="preview-title">Preview</h2>
        {previewUrl ? (
          <>
            <p><a href={previewUrl} target="_blank" rel="noreferrer">{previewUrl}</a></p>
            <iframe key={`${previewUrl} ${saved}`} title="Preview of the published site" src={previewUrl} />
          </>
        ) : (
          <p className="muted">The preview shows the published site: publish the site to see it here.</p>
        )}
      </section>
    </div>
  );
}

function SiteCustomization({ orgId, siteId, onSaved }: { orgId: string; siteId: string; onSaved: () => void }) {
  const settings = useQuery(customizationQuery(orgId, siteId));
  const change = useSiteChange(orgId, siteId);
  if (settings.isPending) return <Skeleton lines={6} label="Loading the customization" />;
  if (!settings.data) return <ErrorNote error={settings.error} />;
  const data = settings.data;
  return (
    <CustomizationFields
      initial={data}
      saving={change.isPending}
      error={change.error}
      onSave={(form) => change.mutate({ method: 'PUT', path: '/customization', body: applyForm(data, form) }, { onSuccess: onSaved })}
    />
  );
}

function VariantCustomization({ orgId, siteId, siteSpaceId, onSaved }: { orgId: string; siteId: string; siteSpaceId: string; onSaved: () => void }) {
  const settings = useQuery(siteSpaceCustomizationQuery(orgId, siteId, siteSpaceId));
  const site = useQuery(customizationQuery(orgId, siteId));
  const change = useSiteChange(orgId, siteId);
  const [version, setVersion] = useState(0);
  if (settings.isPending || site.isPending) return <Skeleton lines={6} label="Loading the customization" />;
  if (!settings.data || !site.data) return <ErrorNote error={settings.error ?? site.error} />;
  const data = settings.data;
  const hasOverrides = !sameSettings(data, site.data);
  const path = `/site-spaces/${siteSpaceId}/customization`;
  const reset = async () => {
    await change.mutateAsync({ method: 'DELETE', path });
    onSaved();
    setVersion((n) => n + 1);
  };
  return (
    <>
      <p className="muted">
        {hasOverrides ? 'This variant shows some settings differently from the site.' : 'This variant shows the site’s customization; what you save here applies to it alone.'}{' '}
        {hasOverrides ? (
          <AlertDialog
            title="Use the site’s customization again?"
            description="The settings this variant shows differently go, and it shows the site’s customization again."
            confirm="Reset the variant’s customization"
            onConfirm={reset}
            error={change.error}
            trigger={<Button variant="ghost" size="sm">Use the site’s customization again</Button>}
          />
        ) : null}
      </p>
      <CustomizationFields
        key={version}
        initial={data}
        saving={change.isPending}
        error={change.error}
        onSave={(form) => change.mutate({ method: 'PATCH', path, body: overridePatch(data, applyForm(data, form)) }, { onSuccess: onSaved })}
      />
    </>
  );
}

function CustomizationFields({ initial, saving, error, onSave }: { initial: SiteCustomizationSettings; saving: boolean; error: unknown; onSave: (form: CustomizationForm) => void }) {
  const [form, setForm] = useState(() => formOf(initial));
  const [problem, setProblem] = useState<string>();
  const set = <K extends keyof CustomizationForm>(field: K, value: CustomizationForm[K]) => setForm((f) => ({ ...f, [field]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = formProblem(form);
    setProblem(found);
    if (!found) onSave(form);
  };
  return (
    <form onSubmit={submit} aria-label="Customization">
      <fieldset>
        <legend>Title and logo</legend>
        <TextField label="Site title" hint="Shown in the header; the site's title if empty" maxLength={128} value={form.title} onChange={(e) => set('title', e.target.value)} />
        <TextField label="Logo URL (light mode)" type="url" value={form.logoLight} onChange={(e) => set('logoLight', e.target.value)} />
        <TextField label="Logo URL (dark mode)" type="url" hint="The light one if empty" value={form.logoDark} onChange={(e) => set('logoDark', e.target.value)} />
      </fieldset>
      <fieldset>
        <legend>Favicon</legend>
        <Select<FaviconKind>
          label="Icon in the browser tab"
          value={form.faviconKind}
          onValueChange={(kind) => set('faviconKind', kind)}
          options={[{ value: 'none', label: 'None' }, { value: 'emoji', label: 'An emoji' }, { value: 'icon', label: 'An image' }]}
        />
        {form.faviconKind === 'emoji' ? (
          <TextField label="Favicon emoji" hint="The emoji itself (📘) or its code point (1f4d8)" maxLength={50} value={form.faviconEmoji} onChange={(e) => set('faviconEmoji', e.target.value)} />
        ) : null}
        {form.faviconKind === 'icon' ? (
          <>
            <TextField label="Favicon URL (light mode)" type="url" value={form.faviconLight} onChange={(e) => set('faviconLight', e.target.value)} />
            <TextField label="Favicon URL (dark mode)" type="url" hint="The light one if empty" value={form.faviconDark} onChange={(e) => set('faviconDark', e.target.value)} />
          </>
        ) : null}
      </fieldset>
      <fieldset>
        <legend>Colours and theme</legend>
        <div className="inline-form">
          <TextField label="Primary colour (light mode)" type="color" value={form.primaryLight} onChange={(e) => set('primaryLight', e.target.value)} />
          <TextField label="Primary colour (dark mode)" type="color" value={form.primaryDark} onChange={(e) => set('primaryDark', e.target.value)} />
        </div>
        <Select label="Theme" value={form.theme} onValueChange={(theme) => set('theme', theme)} options={THEMES.map((t) => ({ value: t, label: t }))} />
        <Select label="Default mode" value={form.defaultMode} onValueChange={(mode) => set('defaultMode', mode)} options={[{ value: 'light', label: 'Light' }, { value: 'dark', label: 'Dark' }]} />
        <Checkbox label="Visitors can switch between light and dark" checked={form.toggeable} onCheckedChange={(on) => set('toggeable', on)} />
      </fieldset>
      <fieldset>
        <legend>Header links</legend>
        <LinkRows name="Header link" rows={form.headerLinks} onChange={(rows) => set('headerLinks', rows)} />
      </fieldset>
      <fieldset>
        <legend>Footer</legend>
        {form.footerGroups.map((group, g) => (
          <fieldset key={g}>
            <legend>Footer group {g + 1}</legend>
            <TextField label={`Title of footer group ${g + 1}`} value={group.title} onChange={(e) => set('footerGroups', form.footerGroups.map((x, i) => (i === g ? { ...x, title: e.target.value } : x)))} />
            <LinkRows name={`Footer group ${g + 1} link`} rows={group.links} onChange={(links) => set('footerGroups', form.footerGroups.map((x, i) => (i === g ? { ...x, links } : x)))} />
            <Button variant="ghost" size="sm" onClick={() => set('footerGroups', form.footerGroups.filter((_, i) => i !== g))}>Remove footer group {g + 1}</Button>
          </fieldset>
        ))}
        <Button onClick={() => set('footerGroups', [...form.footerGroups, { title: '', links: [] }])}>Add a footer group</Button>
        <TextField label="Copyright" maxLength={300} value={form.copyright} onChange={(e) => set('copyright', e.target.value)} />
      </fieldset>
      <fieldset>
        <legend>Announcement</legend>
        <Checkbox label="Show an announcement" checked={form.announcementEnabled} onCheckedChange={(on) => set('announcementEnabled', on)} />
        <TextField label="Announcement message" maxLength={128} value={form.announcementMessage} onChange={(e) => set('announcementMessage', e.target.value)} />
        <Select label="Announcement style" value={form.announcementStyle} onValueChange={(style) => set('announcementStyle', style)} options={ANNOUNCEMENT_STYLES.map((s) => ({ value: s, label: s }))} />
      </fieldset>
      <fieldset>
        <legend>Reading</legend>
        <Checkbox label="Previous and next links at the bottom of pages" checked={form.pagination} onCheckedChange={(on) => set('pagination', on)} />
        <Select label="External links open" value={form.externalLinks} onValueChange={(where) => set('externalLinks', where)} options={[{ value: 'self', label: 'In the same tab' }, { value: 'blank', label: 'In a new tab' }]} />
      </fieldset>
      {problem ? <p className="error-note" role="alert">{problem}</p> : null}
      <ErrorNote error={error} />
      <Button variant="primary" type="submit" loading={saving}>Save customization</Button>
    </form>
  );
}

function LinkRows({ name, rows, onChange }: { name: string; rows: LinkRow[]; onChange: (rows: LinkRow[]) => void }) {
  const edit = (index: number, change: Partial<LinkRow>) => onChange(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  return (
    <>
      {rows.map((row, i) => (
        <div key={i} className="inline-form link-row">
          <TextField label={`${name} ${i + 1} title`} maxLength={64} value={row.title} onChange={(e) => edit(i, { title: e.target.value })} />
          {row.kept ? (
            <p className="muted">Links to a {row.kept.kind} of the organization</p>
          ) : (
            <TextField label={`${name} ${i + 1} URL`} type="url" value={row.url} onChange={(e) => edit(i, { url: e.target.value })} />
          )}
          <Button variant="ghost" size="sm" onClick={() => onChange(rows.filter((_, j) => j !== i))}>Remove {name.toLowerCase()} {i + 1}</Button>
        </div>
      ))}
      <Button onClick={() => onChange([...rows, { title: '', url: '' }])}>Add {name.toLowerCase()}</Button>
    </>
  );
}
