import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/*
 * Rendered pages, kept per application (per database handle, as the read caches are). Nothing is ever
 * emptied: the key holds everything a page is made of (the site's `updated_at`, which publishing and
 * customizing move; its structure with each variant's published revision, which a merge moves; the page; the
 * visitor's claims, which decide adaptive content; the format), so after a change the old entries simply miss
 * and age out. The key's hash is also the page's ETag, so a 304 needs no rendering at all.
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

/** The text rendered for `key`, rendering it on a miss; kept encoded (UTF-8), as it is sent. */
export async function cachedRender(db: object, key: string, render: () => Promise<string>): Promise<Buffer> {
  const cache = cacheOf(db);
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const body = Buffer.from(await render(), 'utf8');
  cache.set(key, body);
  return body;
}

/** Whether an `If-None-Match` header names this ETag. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const value = candidate.trim().replace(/^W\//, '');
    return value === etag || value === '*';
  });
}
