import type { Config } from '../../config.ts';

/**
 * The one definition of where a published site lives on this server; the reader (the web pages these sites
 * serve) parses URLs with the same constants.
 *
 *   ${PUBLIC_URL}/sites/<basename or site id>/                      the default section's default variant
 *   ${PUBLIC_URL}/sites/<site>/<section path>/                      a section (its default variant)
 *   ${PUBLIC_URL}/sites/<site>/<section path>/<site-space path>/    a variant of a section
 *   ${PUBLIC_URL}/sites/<site>/<site-space path>/                   a variant of a site without sections
 *
 * The default section and default variants answer at their parent's URL, as on GitBook. A share link is the
 * site's URL with `?share=<key>`; a visitor token comes as `?jwt_token=<token>` (or in a cookie, see
 * visitor-access.ts).
 *
 * A site with a custom hostname (extension field `hostname`) lives at `<PUBLIC_URL's scheme>://<hostname>/`
 * instead, the same paths below it; its `/sites/<site>/` URLs redirect there.
 */
export const SITES_PREFIX = '/sites/';
export const SHARE_KEY_PARAM = 'share';
export const VISITOR_TOKEN_PARAM = 'jwt_token';
export const SHARE_KEY_COOKIE = 'quire_site_share';
export const VISITOR_TOKEN_COOKIE = 'quire_visitor_token';
/** A preview URL (getSitePublishingPreviewById) carries its token as `?preview=<token>`, then in a cookie. */
export const PREVIEW_PARAM = 'preview';
export const PREVIEW_COOKIE = 'quire_site_preview';
/** A preview URL opens the site for an hour (the official getSitePublishingPreviewById). */
export const PREVIEW_LIFETIME_SECONDS = 60 * 60;

/** The audience of a site's preview tokens: not the site's id, so no visitor token of the site opens a preview. */
export function previewAudience(siteId: string): string {
  return `preview:${siteId}`;
}

export interface SiteAddress {
  id: string;
  basename: string | null;
  hostname?: string | null;
}

export function siteUrl(config: Pick<Config, 'publicUrl'>, site: SiteAddress): string {
  if (site.hostname) return `${new URL(config.publicUrl).protocol}//${site.hostname}/`;
  return pathSiteUrl(config, site);
}

/** The site's URL under PUBLIC_URL, whatever its hostname: where `/sites/<site>/` requests arrive. */
export function pathSiteUrl(config: Pick<Config, 'publicUrl'>, site: SiteAddress): string {
  return `${config.publicUrl}${SITES_PREFIX}${encodeURIComponent(site.basename ?? site.id)}/`;
}

/** A Host header's name, lower-cased and without its port: what a site's `hostname` is compared with. */
export function hostOf(header: string | undefined): string {
  if (!header) return '';
  const name = header.startsWith('[') ? header.slice(0, header.indexOf(']') + 1) : header.split(':')[0]!;
  return name.toLowerCase().replace(/\.$/, '');
}

/** A section's URL under its site's: the default section is the site's root. */
export function sectionUrl(base: string, section: { path: string; isDefault: boolean }): string {
  return section.isDefault ? base : `${base}${encodeURIComponent(section.path)}/`;
}

/** A site-space's URL under its section's (or the site's): the default variant is its parent's root. */
export function siteSpaceUrl(parent: string, siteSpace: { path: string; isDefault: boolean }): string {
  return siteSpace.isDefault ? parent : `${parent}${encodeURIComponent(siteSpace.path)}/`;
}

/** The URL that carries a share link's secret key. */
export function withShareKey(url: string, key: string | undefined): string {
  if (!key) return url;
  const parsed = new URL(url);
  parsed.searchParams.set(SHARE_KEY_PARAM, key);
  return parsed.toString();
}
