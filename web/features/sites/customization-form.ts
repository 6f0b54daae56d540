import type { ContentRef, SiteCustomizationSettings } from '@gitbook/api';

/*
 * The customization form's values and the official SiteCustomizationSettings they come from and go back to.
 * The form edits part of the settings; `applyForm` writes that part into the settings read from the API and
 * keeps every other field as it was (fonts, AI, PDF…), so saving the form changes only what it shows.
 */

/** A header or footer link. A link to a URL is edited; one to a page or space (`kept`) keeps its target. */
export interface LinkRow {
  title: string;
  url: string;
  kept?: ContentRef;
}

export interface FooterGroupRow {
  title: string;
  links: LinkRow[];
}

export interface CustomizationForm {
  title: string;
  logoLight: string;
  logoDark: string;
  /** The tab's icon: none, an emoji, or an image for each mode. */
  faviconKind: FaviconKind;
  faviconEmoji: string;
  faviconLight: string;
  faviconDark: string;
  primaryLight: string;
  primaryDark: string;
  theme: string;
  defaultMode: string;
  toggeable: boolean;
  headerLinks: LinkRow[];
  footerGroups: FooterGroupRow[];
  copyright: string;
  announcementEnabled: boolean;
  announcementMessage: string;
  announcementStyle: string;
  pagination: boolean;
  externalLinks: string;
}

export type FaviconKind = 'none' | 'emoji' | 'icon';

export const THEMES = ['clean', 'muted', 'bold', 'gradient'] as const;
export const ANNOUNCEMENT_STYLES = ['info', 'warning', 'danger', 'success'] as const;

const rowOf = (link: { title: string; to: ContentRef | null }): LinkRow =>
  link.to?.kind === 'url' ? { title: link.title, url: link.to.url } : { title: link.title, url: '', ...(link.to ? { kept: link.to } : {}) };

export function formOf(settings: SiteCustomizationSettings): CustomizationForm {
  return {
    title: settings.title ?? '',
    logoLight: settings.header.logo?.light ?? '',
    logoDark: settings.header.logo?.dark ?? '',
    ...faviconOf(settings.favicon),
    primaryLight: settings.styling.primaryColor.light,
    primaryDark: settings.styling.primaryColor.dark,
    theme: settings.styling.theme,
    defaultMode: settings.themes.default,
    toggeable: settings.themes.toggeable,
    headerLinks: settings.header.links.map(rowOf),
    footerGroups: settings.footer.groups.map((group) => ({ title: group.title, links: group.links.map(rowOf) })),
    copyright: settings.footer.copyright ?? '',
    announcementEnabled: settings.announcement?.enabled ?? false,
    announcementMessage: settings.announcement?.message ?? '',
    announcementStyle: settings.announcement?.style ?? 'info',
    pagination: settings.pagination.enabled,
    externalLinks: settings.externalLinks.target,
  };
}

function faviconOf(favicon: SiteCustomizationSettings['favicon']): Pick<CustomizationForm, 'faviconKind' | 'faviconEmoji' | 'faviconLight' | 'faviconDark'> {
  const icon = 'icon' in favicon ? (favicon.icon as { light: string; dark: string }) : undefined;
  const emoji = 'emoji' in favicon ? String(favicon.emoji) : '';
  return { faviconKind: icon ? 'icon' : emoji ? 'emoji' : 'none', faviconEmoji: emoji, faviconLight: icon?.light ?? '', faviconDark: icon?.dark ?? '' };
}

/** The official favicon for the form's choice: `{}` when there is none (or the chosen one was left empty). */
function faviconFor(form: CustomizationForm): SiteCustomizationSettings['favicon'] {
  const light = form.faviconLight.trim();
  if (form.faviconKind === 'icon' && light) return { icon: { light, dark: form.faviconDark.trim() || light } };
  if (form.faviconKind === 'emoji' && form.faviconEmoji.trim()) return { emoji: form.faviconEmoji.trim() };
  return {};
}

const targetOf = (row: LinkRow): ContentRef => row.kept ?? { kind: 'url', url: row.url.trim() };

/** The settings with the form's values written in; the rest as read. Empty optional fields are left out, as the API wants them. */
export function applyForm(settings: SiteCustomizationSettings, form: CustomizationForm): SiteCustomizationSettings {
  const { title: _title, announcement: _announcement, ...rest } = settings;
  const { logo: _logo, ...header } = settings.header;
  const { copyright: _copyright, ...footer } = settings.footer;
  const logoLight = form.logoLight.trim();
  const logoDark = form.logoDark.trim() || logoLight;
  const message = form.announcementMessage.trim();
  return {
    ...rest,
    ...(form.title.trim() ? { title: form.title.trim() } : {}),
    favicon: faviconFor(form),
    styling: { ...settings.styling, theme: form.theme as never, primaryColor: { light: form.primaryLight, dark: form.primaryDark } },
    themes: { default: form.defaultMode as never, toggeable: form.toggeable },
    header: {
      ...header,
      ...(logoLight ? { logo: { light: logoLight, dark: logoDark } } : {}),
      links: form.headerLinks.map((row, index) => ({ ...(settings.header.links[index] ?? { links: [] }), title: row.title.trim(), to: targetOf(row) })),
    },
    footer: {
      ...footer,
      ...(form.copyright.trim() ? { copyright: form.copyright.trim() } : {}),
      groups: form.footerGroups.map((group) => ({ title: group.title.trim(), links: group.links.map((row) => ({ title: row.title.trim(), to: targetOf(row) })) })),
    },
    ...(form.announcementEnabled || message
      ? { announcement: { ...settings.announcement, enabled: form.announcementEnabled, message, style: form.announcementStyle as never } }
      : {}),
    pagination: { enabled: form.pagination },
    externalLinks: { target: form.externalLinks as never },
  };
}

// The objects a variant's override patches field by field (the server's SECTIONS, customization-override.ts).
const SECTIONS = new Set(['styling', 'header', 'footer', 'themes', 'pagination', 'externalLinks']);
const same = (a: unknown, b: unknown) => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));

/** The value with its objects' keys in order, so two equal settings compare equal whatever order the API wrote. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sorted((value as Record<string, unknown>)[key])]));
}

/**
 * Whether a variant shows the site's customization as it is. The official getSiteSpaceCustomizationById answers
 * the settings alone (no `hasOverrides`), so a variant with an override is one whose settings differ.
 */
export function sameSettings(a: SiteCustomizationSettings, b: SiteCustomizationSettings): boolean {
  return same(a, b);
}

/**
 * The overrideSiteSpaceCustomizationById body that turns a variant's customization `before` into `after`: only
 * what changed, field by field inside the objects the API patches that way, null for what was taken away.
 */
export function overridePatch(before: SiteCustomizationSettings, after: SiteCustomizationSettings): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  const b = before as unknown as Record<string, unknown>;
  const a = after as unknown as Record<string, unknown>;
  for (const field of new Set([...Object.keys(b), ...Object.keys(a)])) {
    if (same(b[field], a[field])) continue;
    if (SECTIONS.has(field) && b[field] && a[field]) {
      const inner: Record<string, unknown> = {};
      const bi = b[field] as Record<string, unknown>;
      const ai = a[field] as Record<string, unknown>;
      for (const key of new Set([...Object.keys(bi), ...Object.keys(ai)])) if (!same(bi[key], ai[key])) inner[key] = ai[key] ?? null;
      patch[field] = inner;
    } else {
      patch[field] = a[field] ?? null;
    }
  }
  return patch;
}

/** The first thing wrong with the form that the browser's own checks do not catch, naming the field. */
export function formProblem(form: CustomizationForm): string | undefined {
  for (const [i, row] of form.headerLinks.entries()) {
    if (!row.title.trim()) return `Header link ${i + 1}: a title is needed`;
    if (!row.kept && !isUrl(row.url)) return `Header link ${i + 1}: the URL must be a full URL (https://…)`;
  }
  for (const [g, group] of form.footerGroups.entries()) {
    for (const [i, row] of group.links.entries()) {
      if (!row.kept && !isUrl(row.url)) return `Footer group ${g + 1}, link ${i + 1}: the URL must be a full URL (https://…)`;
    }
  }
  if (form.faviconKind === 'icon' && !isUrl(form.faviconLight)) return 'Favicon: the image URL (light mode) must be a full URL (https://…)';
  if (form.faviconKind === 'icon' && form.faviconDark.trim() && !isUrl(form.faviconDark)) return 'Favicon: the image URL (dark mode) must be a full URL (https://…)';
  if (form.faviconKind === 'emoji' && !form.faviconEmoji.trim()) return 'Favicon: an emoji is needed';
  if (form.announcementEnabled && form.announcementMessage.trim().length < 2) return 'Announcement: a message of at least 2 characters is needed';
  return undefined;
}

function isUrl(value: string): boolean {
  try {
    return Boolean(new URL(value.trim()).protocol);
  } catch {
    return false;
  }
}
