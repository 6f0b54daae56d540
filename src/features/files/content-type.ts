import { fileTypeFromBuffer, supportedMimeTypes } from 'file-type';
import mime from 'mime';

/**
 * The media type a file is stored and served with. The bytes decide when they carry a signature (a PNG is a PNG
 * whatever it is called); otherwise the declared type, then the name's extension, then a look at the bytes.
 * A declared type that the bytes contradict is dropped rather than trusted: a download is served with
 * `nosniff`, so a wrong type would reach browsers as is.
 */
export async function resolveContentType(bytes: Buffer, name: string, declared: string | undefined): Promise<string> {
  const sniffed = (await fileTypeFromBuffer(bytes))?.mime;
  if (sniffed && !TEXTUAL_SIGNATURES.has(sniffed)) return sniffed;

  const svg = looksLikeSvg(bytes);
  const claims = [declared, mime.getType(name) ?? undefined].filter((c): c is string => !!c && c !== GENERIC);
  for (const claim of claims) {
    // A format with a signature that file-type did not find is not what the claim says.
    if ((supportedMimeTypes as ReadonlySet<string>).has(claim) && !TEXTUAL_SIGNATURES.has(claim)) continue;
    if (claim === SVG && !svg) continue;
    if (claim === 'application/xml' && svg) return SVG;
    return claim;
  }
  if (svg) return SVG;
  if (sniffed) return sniffed;
  return isText(bytes) ? 'text/plain' : GENERIC;
}

/**
 * A declared `Content-Type` reduced to its essence (`text/plain; charset=utf-8` -> `text/plain`), or
 * undefined when it is not a media type at all.
 */
export function parseMediaType(value: string): string | undefined {
  const essence = value.split(';', 1)[0]!.trim().toLowerCase();
  return MEDIA_TYPE.test(essence) ? essence : undefined;
}

/** How a stored file's bytes are served: with what type, inline or as a download, sandboxed or not. */
export interface Served {
  contentType: string;
  disposition: 'inline' | 'attachment';
  /** `Content-Security-Policy: sandbox`: opened from this origin, it runs no script and reaches no cookie. */
  sandbox: boolean;
}

/**
 * Files are served from the app's origin, where `script-src 'self'` trusts whatever is served: an uploaded `.js`
 * served as `text/javascript` would be a script an injected `<script src>` could load (issue 38). So only types a
 * browser shows without running anything are served inline as what they are (images, audio, video, PDF, plain
 * text); SVG too, which the reader shows in `<img>` and which needs its type there, sandboxed for when it is opened
 * on its own; anything else (scripts, HTML, XML, and every type not known to be safe) is a download of
 * `application/octet-stream`.
 */
export function servedAs(contentType: string): Served {
  if (contentType === SVG) return { contentType, disposition: 'inline', sandbox: true };
  const [kind] = contentType.split('/', 1);
  if (((kind === 'image' || kind === 'audio' || kind === 'video') && !contentType.endsWith('+xml')) || SHOWN_AS_IS.has(contentType)) {
    return { contentType, disposition: 'inline', sandbox: false };
  }
  return { contentType: GENERIC, disposition: 'attachment', sandbox: true };
}

/**
 * Types a browser shows as they are, with nothing in them to run (`nosniff` keeps text from being read as HTML);
 * and web fonts, which a site's `@font-face` loads (custom fonts).
 */
const SHOWN_AS_IS = new Set(['application/pdf', 'text/plain', 'text/markdown', 'text/csv', 'application/json', 'font/woff2', 'font/woff']);

const GENERIC = 'application/octet-stream';
const SVG = 'image/svg+xml';
const TOKEN = "[a-z0-9!#$&^_.+-]+";
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}$`);

// file-type recognises these from text, where a more precise declared type (an SVG is XML too) should win.
const TEXTUAL_SIGNATURES = new Set(['application/xml', 'text/calendar', 'text/vcard', 'text/vtt']);

/** An SVG document: optional BOM, XML declaration, comments and doctype, then an `<svg` root element. */
function looksLikeSvg(bytes: Buffer): boolean {
  const head = bytes.subarray(0, 4096).toString('utf8').replace(/^\uFEFF/, '');
  return /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<svg[\s>/]/i.test(head);
}

/** UTF-8 without NUL characters in the first 8 KiB, which is how plain text looks. */
function isText(bytes: Buffer): boolean {
  const sample = bytes.subarray(0, 8192);
  if (sample.includes(0)) return false;
  try {
    // `stream` tolerates a character cut at the end of the sample.
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
    return true;
  } catch {
    return false;
  }
}
