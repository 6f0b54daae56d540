/*
 * URLs written by authors reach `href` and `src` attributes. The renderer escapes them, but escaping does not
 * stop `javascript:` or `data:text/html` from running when clicked, so only schemes a reader can safely
 * follow are let through; anything else renders as plain text (links) or is left out (images).
 */

const LINK_SCHEMES = new Set(['http:', 'https:', 'mailto:', 'tel:']);
const IMAGE_SCHEMES = new Set(['http:', 'https:']);
// Raster images only: an SVG data URL is a document that may hold script.
const DATA_IMAGE = /^data:image\/(?:png|jpeg|gif|webp|avif);base64,[a-z0-9+/=\s]+$/i;

/** The URL if following it cannot run script, else null. Relative URLs and fragments are allowed. */
export function safeLinkUrl(url: string): string | null {
  return checkScheme(url, LINK_SCHEMES);
}

/** The URL if it is fit for an `<img src>`, else null. */
export function safeImageUrl(url: string): string | null {
  if (DATA_IMAGE.test(url.trim())) return url.trim();
  return checkScheme(url, IMAGE_SCHEMES);
}

/** True for http(s) URLs to another host: the links `customization.externalLinks.target` is about. */
export function isExternalUrl(url: string): boolean {
  return /^https?:\/\//i.test(url.trim());
}

/**
 * The scheme a browser follows the URL with, lower-cased (`javascript:`); null for a relative URL (a path, a
 * query, a fragment, `//host`) or an empty one.
 */
export function urlScheme(raw: string): string | null {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(asBrowsersRead(raw));
  return scheme ? `${scheme[1]!.toLowerCase()}:` : null;
}

// Browsers drop tabs and newlines anywhere in a URL and control characters at its ends (`java\tscript:`), so a
// URL is judged as they will read it.
function asBrowsersRead(raw: string): string {
  // eslint-disable-next-line no-control-regex
  return raw.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
}

function checkScheme(raw: string, schemes: ReadonlySet<string>): string | null {
  const url = asBrowsersRead(raw);
  if (url === '') return null;
  const scheme = urlScheme(url);
  // Relative: a path, a query or a fragment. `//host` is protocol-relative, hence http(s).
  if (scheme === null) return url;
  return schemes.has(scheme) ? url : null;
}
