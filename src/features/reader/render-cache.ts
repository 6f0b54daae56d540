import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/*
 * Rendered pages, kept per application (per database handle, as the read caches are). Nothing is ever
 * emptied: the key holds everything a page is made of (the site's `updated_at`, which publishing and
 * customizing move; its structure with each variant's published revision, which a merge moves; the page; the
 * visitor's claims, which decide adaptive content; the format), so after a change the old entries simply miss
 * and age out. The key's hash is also the page's ETag, so a 304 needs no rendering at all.
 */

const MAX_CHARS_HELD = 64 * 1024 * 1024;
const caches = new WeakMap<object, LRUCache<string, string>>();

function cacheOf(db: object): LRUCache<string, string> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new LRUCache<string, string>({ max: 5_000, maxSize: MAX_CHARS_HELD, sizeCalculation: (text) => Math.max(1, text.length) });
    caches.set(db, cache);
  }
  return cache;
}

/** The key (and ETag) of what a response is made of, named in `parts`. */
export function renderKey(parts: string): string {
  return createHash('sha256').update(parts).digest('base64url').slice(0, 32);
}

/** The text rendered for `key`, rendering it on a miss. */
export async function cachedRender(db: object, key: string, render: () => Promise<string>): Promise<string> {
  const cache = cacheOf(db);
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const text = await render();
  cache.set(key, text);
  return text;
}

/** Whether an `If-None-Match` header names this ETag. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const value = candidate.trim().replace(/^W\//, '');
    return value === etag || value === '*';
  });
}
