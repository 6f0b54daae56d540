import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/*
 * The reader's stylesheet and script, read once at start. Their names carry a hash of their content, so a
 * route can serve them with `Cache-Control: public, max-age=31536000, immutable`: a new version is a new URL.
 */

export interface ReaderAsset { name: string; contentType: string; body: Buffer; etag: string }

/** Where a route serves the assets; layout.tsx links them from there. */
export const ASSETS_BASE = '/_quire/assets/';

function load(file: string, contentType: string): ReaderAsset {
  const body = readFileSync(new URL(`./assets/${file}`, import.meta.url));
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  const dot = file.lastIndexOf('.');
  return { name: `${file.slice(0, dot)}.${hash}${file.slice(dot)}`, contentType, body, etag: `"${hash}"` };
}

const css = load('reader.css', 'text/css; charset=utf-8');
const js = load('reader.js', 'text/javascript; charset=utf-8');

/** Every asset by its fingerprinted name. */
export const readerAssets: ReadonlyMap<string, ReaderAsset> = new Map([css, js].map((asset) => [asset.name, asset]));

export function assetPath(kind: 'css' | 'js'): string {
  return `${ASSETS_BASE}${kind === 'css' ? css.name : js.name}`;
}
