/**
 * Pure rules of a custom font's files: which stored files a face may use, how a face's `storageKey` names one,
 * and what its download is called. No I/O.
 */

/** The media types of the font formats CSS `@font-face` takes here (the spec's FontSource formats). */
export const FONT_FORMATS: Readonly<Record<string, 'woff2' | 'woff'>> = { 'font/woff2': 'woff2', 'font/woff': 'woff' };

const HASH = /^[0-9a-f]{64}$/;
const DOWNLOAD_PATH = /^\/files\/([0-9a-f]{64})\/[^/]+$/;

/**
 * The hash of the stored bytes a `storageKey` names: the id of an upload (the SHA-256 of its bytes), or a
 * download URL of this server (`<PUBLIC_URL>/files/<hash>/<name>`, or that path alone). Undefined for anything
 * else, a URL of another host above all: a site's fonts are served from this server only.
 */
export function storedHashOf(storageKey: string, publicUrl: string): string | undefined {
  const key = storageKey.trim();
  if (HASH.test(key)) return key;
  if (key.startsWith('/files/')) return DOWNLOAD_PATH.exec(key)?.[1];
  let url: URL;
  let base: URL;
  try {
    url = new URL(key);
    base = new URL(publicUrl);
  } catch {
    return undefined;
  }
  if (url.origin !== base.origin) return undefined;
  const prefix = base.pathname.replace(/\/$/, '');
  if (!url.pathname.startsWith(`${prefix}/files/`)) return undefined;
  return DOWNLOAD_PATH.exec(url.pathname.slice(prefix.length))?.[1];
}

/** A face's download name, e.g. `open-sans-700.woff2` (only what a browser would save it as). */
export function fileNameOf(family: string, weight: number, format: string): string {
  const slug = family
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${slug || 'font'}-${weight}.${format}`;
}
