import type { AppContext } from './context.ts';
import { loadServerSecret } from './secret-store.ts';

/** A key never changes once stored, so each database's is read once per process, by name. */
const keys = new WeakMap<object, Map<string, Promise<Uint8Array>>>();

/**
 * The HS256 key of the server's secret `name` (made on first use, shared by every process on the database), for
 * the JWTs this server signs and checks itself: visitor claims, sites' read tokens, notifications tokens.
 */
export function serverSigningKey(ctx: AppContext, name: string): Promise<Uint8Array> {
  let byName = keys.get(ctx.db);
  if (!byName) {
    byName = new Map();
    keys.set(ctx.db, byName);
  }
  const cached = byName.get(name);
  if (cached) return cached;
  const key = loadServerSecret(ctx.db, name, ctx.clock.now().toISOString()).then((secret) => new TextEncoder().encode(secret));
  // A failed read must not be remembered.
  key.catch(() => byName.delete(name));
  byName.set(name, key);
  return key;
}
