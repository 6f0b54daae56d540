import { hostOf, SITES_PREFIX } from '../sites/urls.ts';
import { defaultOf, locate, type VisibleSection, type VisibleSite, type VisibleVariant } from '../reader/site-view.ts';

/*
 * Pure rules of a published URL as the API resolves it (getPublishedContentByUrl): which site it is on, by the
 * same shapes the reader answers (sites/urls.ts: `PUBLIC_URL/sites/<site>/…`, or a site's custom hostname),
 * and which section, variant and page path its segments name (reader/site-view.ts `locate`), with the prefixes
 * GitBook reports: the site's path and the variant's, as written in the URL given.
 */

/** A URL's site part: a `/sites/<segment>/` path of this server, or another host (a custom hostname, maybe). */
export type SiteAddress = { kind: 'path'; segment: string; root: string; rest: string[] } | { kind: 'host'; host: string; root: string; rest: string[] };

/** Where a URL points, or undefined when it is no URL a site could answer (an API path of this server, say). */
export function siteAddressOf(url: URL, publicUrl: string): SiteAddress | undefined {
  const base = new URL(publicUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (hostOf(url.host) === base.hostname.toLowerCase()) {
    const prefix = `${base.pathname.replace(/\/$/, '')}${SITES_PREFIX}`;
    if (!url.pathname.startsWith(prefix)) return undefined;
    const [raw, ...below] = url.pathname.slice(prefix.length).split('/');
    const segments = decodeAll([raw ?? '', ...below]);
    if (!segments || !segments[0]) return undefined;
    return { kind: 'path', segment: segments[0], root: `${prefix}${raw}/`, rest: segments.slice(1) };
  }
  const rest = decodeAll(url.pathname.slice(1).split('/'));
  return rest ? { kind: 'host', host: hostOf(url.host), root: '/', rest } : undefined;
}

function decodeAll(raw: readonly string[]): string[] | undefined {
  try {
    return raw.map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
}

/** What the segments below a site's root name for one visitor. */
export interface SitePlace {
  section: VisibleSection;
  variant: VisibleVariant;
  /** The segments that named the section and the variant (none for defaults). */
  consumed: string[];
  /** The rest: a page's path in the variant ('' for its first page). */
  pagePath: string;
  /**
   * Whether no further segment could name a section or a variant: each was named in the URL, or has no
   * sibling that a segment could name (GitBook's `complete`).
   */
  complete: boolean;
}

export function placeOf(site: VisibleSite, segments: readonly string[]): SitePlace | undefined {
  const found = locate(site, segments);
  if (!found) return undefined;
  const { section, variant, pagePath } = found;
  const sectionNamed = section !== defaultOf(site.sections);
  const variantNamed = variant !== defaultOf(section.variants);
  const consumed = [...(sectionNamed ? [section.path] : []), ...(variantNamed ? [variant.path] : [])];
  const otherSections = site.sections.some((s) => s !== section && s.id !== null && !s.isDefault);
  const otherVariants = section.variants.some((v) => v !== variant && !v.isDefault);
  return { section, variant, consumed, pagePath, complete: (sectionNamed || !otherSections) && (variantNamed || !otherVariants) };
}

/** The path prefix the consumed segments make below a root (`/sites/docs/` + `guide/v2/`). */
export function basePathOf(root: string, consumed: readonly string[]): string {
  return consumed.length === 0 ? root : `${root}${consumed.map(encodeURIComponent).join('/')}/`;
}
