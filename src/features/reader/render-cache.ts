import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { LRUCache } from 'lru-cache';

/*
 * Rendered pages, kept per application (per database handle, as the read caches are). Nothing is ever
 * emptied: the key holds everything a page is made of (the site's `updated_at`, which publishing and
 * customizing move; its structure with each variant's published revision, which a merge moves; the page; the
 * visitor's claims, which decide adaptive content; the format), so after a change the old entries simply miss
 * and age out. The key's hash is also the page's ETag, so a 304 needs no rendering at all.
 *
 * A page is also kept compressed, for clients that accept it (brotli, else gzip): compressed once, on the first
 * request that asks, then sent as it is. Each encoding is its own representation, with its own ETag.
 */

const MAX_BYTES_HELD = 64 * 1024 * 1024;
const caches = new WeakMap<object, LRUCache<string, Buffer>>();

function cacheOf(db: object): LRUCache<string, Buffer> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new LRUCache<string, Buffer>({ max: 5_000, maxSize: MAX_BYTES_HELD, sizeCalculation: (body) => Math.max(1, body.length) });
    caches.set(db, cache);
  }
  return cache;
}

/** The key (and ETag) of what a response is made of, named in `parts`. */
export function renderKey(parts: string): string {
  return createHash('sha256').update(parts).digest('base64url').slice(0, 32);
}

export type ContentEncoding = 'br' | 'gzip';

/** Below this many bytes a page is sent as it is: compressing would save little. */
const MIN_COMPRESSED_BYTES = 1024;

/** A render's text, and whether it is the whole page (a page whose code is still being highlighted is not). */
export interface Rendered {
  text: string;
  complete: boolean;
}

/**
 * The text rendered for `key` (UTF-8, compressed with `encoding` if given), rendering it on a miss. An incomplete
 * render is sent but not kept (`cached` false): the next request renders the page again.
 */
export async function cachedRender(db: object, key: string, render: () => Promise<Rendered>, encoding?: ContentEncoding): Promise<{ body: Buffer; encoding?: ContentEncoding; cached: boolean }> {
  const cache = cacheOf(db);
  if (encoding) {
    const hit = cache.get(`${key} ${encoding}`);
    if (hit !== undefined) return { body: hit, encoding, cached: true };
  }
  let body = cache.get(key);
  let cached = true;
  if (body === undefined) {
    const rendered = await render();
    body = Buffer.from(rendered.text, 'utf8');
    cached = rendered.complete;
    if (cached) cache.set(key, body);
  }
  if (!encoding || body.length < MIN_COMPRESSED_BYTES) return { body, cached };
  // A fast brotli level: within a few ms for a long page, nearly as small as the slowest.
  const compressed = encoding === 'br' ? brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }) : gzipSync(body, { level: 6 });
  if (cached) cache.set(`${key} ${encoding}`, compressed);
  return { body: compressed, encoding, cached };
}

/** The encoding to answer `Accept-Encoding` with: brotli, else gzip, else none (an explicit q=0 refuses one). */
export function preferredEncoding(header: string | undefined): ContentEncoding | undefined {
  if (!header) return undefined;
  const accepted = new Set<string>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && (!q || Number(q.slice(2)) > 0)) accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return undefined;
}

/** Whether an `If-None-Match` header names this ETag. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const value = candidate.trim().replace(/^W\//, '');
    return value === etag || value === '*';
  });
}
