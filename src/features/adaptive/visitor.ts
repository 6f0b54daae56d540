import { createLocalJWKSet, errors as joseErrors, jwtVerify, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import type { AppContext } from '../../platform/context.ts';
import { safeFetch } from '../../platform/safe-fetch.ts';

/**
 * Visitors of a `visitor-auth` site carry a JWT issued by the site owner's backend, signed with the site's
 * secret (HMAC) or with a key published at the owner's JWKS URL. A verified token's payload becomes
 * `visitor.claims` for conditions; unsigned claims come from the URL (`visitor.*` query parameters), as on
 * GitBook's published sites.
 */
export interface VisitorAuthSettings {
  /** HMAC signing secret (HS256/384/512); used when set, even if a JWKS URL is set too. */
  secret?: string | null;
  /** Where the owner publishes the public keys (RS*, PS*, ES*, EdDSA); fetched through the SSRF-safe fetcher. */
  jwksUrl?: string | null;
  /** The site's id: a token made for another site is refused. */
  audience: string;
}

const HMAC_ALGORITHMS = ['HS256', 'HS384', 'HS512'];
/** A JWKS could hold an `oct` key; only public-key algorithms are taken from one, so it cannot stand as a shared secret. */
const PUBLIC_KEY_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
/** Larger than any honest visitor token, small enough that nobody makes the server parse megabytes. */
export const MAX_TOKEN_LENGTH = 16 * 1024;
const MAX_JWKS_BYTES = 256 * 1024;
/** How long fetched keys are trusted before they are fetched again. */
export const JWKS_CACHE_MS = 5 * 60 * 1000;
/** A token naming a key the cached set lacks refetches the set (keys rotate), at most this often. */
const JWKS_REFETCH_MS = 30 * 1000;
const JWKS_CACHE_ENTRIES = 100;

interface CachedKeys {
  fetchedAt: number;
  keys: Promise<JWTVerifyGetKey>;
}

/** Per JWKS URL; a promise, so concurrent visitors share one fetch. Insertion order doubles as age for eviction. */
const jwksCache = new Map<string, CachedKeys>();

/**
 * The claims of a valid token, or null: a bad signature, an expired token (by the server's clock), a token
 * without `exp` or for another audience, or keys that cannot be fetched all mean "not authenticated", never
 * an error for the visitor. Registered claims (`exp`, `aud`, `sub`, ...) are kept, as GitBook exposes the
 * whole payload to conditions.
 */
export async function verifyVisitorToken(ctx: AppContext, settings: VisitorAuthSettings, token: string): Promise<Record<string, unknown> | null> {
  if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH) return null;
  const options = { audience: settings.audience, currentDate: ctx.clock.now(), requiredClaims: ['exp'] };
  try {
    if (settings.secret) {
      const key = new TextEncoder().encode(settings.secret);
      const { payload } = await jwtVerify(token, key, { ...options, algorithms: HMAC_ALGORITHMS });
      return { ...payload };
    }
    if (settings.jwksUrl) {
      const url = settings.jwksUrl;
      try {
        const { payload } = await jwtVerify(token, await jwksFor(ctx, url, false), { ...options, algorithms: PUBLIC_KEY_ALGORITHMS });
        return { ...payload };
      } catch (error) {
        if (!(error instanceof joseErrors.JWKSNoMatchingKey)) throw error;
        const { payload } = await jwtVerify(token, await jwksFor(ctx, url, true), { ...options, algorithms: PUBLIC_KEY_ALGORITHMS });
        return { ...payload };
      }
    }
    return null;
  } catch {
    return null;
  }
}

/** Forgets every fetched key set; for tests. */
export function clearJwksCache(): void {
  jwksCache.clear();
}

async function jwksFor(ctx: AppContext, url: string, keyMissing: boolean): Promise<JWTVerifyGetKey> {
  const now = ctx.clock.now().getTime();
  const cached = jwksCache.get(url);
  const fresh = cached && now - cached.fetchedAt < JWKS_CACHE_MS && !(keyMissing && now - cached.fetchedAt >= JWKS_REFETCH_MS);
  if (cached && fresh) return cached.keys;
  const keys = fetchJwks(ctx, url);
  jwksCache.delete(url);
  jwksCache.set(url, { fetchedAt: now, keys });
  if (jwksCache.size > JWKS_CACHE_ENTRIES) jwksCache.delete(jwksCache.keys().next().value as string);
  // A failed fetch is not cached: the next visitor tries again.
  keys.catch(() => {
    if (jwksCache.get(url)?.keys === keys) jwksCache.delete(url);
  });
  return keys;
}

async function fetchJwks(ctx: AppContext, url: string): Promise<JWTVerifyGetKey> {
  const response = await safeFetch(ctx.config, url, { maxBytes: MAX_JWKS_BYTES, accept: 'application/jwk-set+json, application/json' });
  if (response.status !== 200) throw new Error(`JWKS ${url} answered ${response.status}`);
  const jwks = JSON.parse(response.body.toString('utf8')) as JSONWebKeySet;
  return createLocalJWKSet(jwks);
}

const VISITOR_PARAM_PREFIX = 'visitor.';
const MAX_UNSIGNED_PARAMS = 50;
const MAX_CLAIM_PATH_DEPTH = 5;
const MAX_PARAM_VALUE_LENGTH = 1024;
const RESERVED_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Unsigned claims from a published URL's query, as GitBook reads them: `visitor.isBetaUser=true` is
 * `{ isBetaUser: true }`, dots nest (`visitor.flags.ALPHA=true` is `{ flags: { ALPHA: true } }`), and values
 * read as `true`/`false`/`null`, a number, a JSON object or array, else the text. A repeated parameter keeps its
 * last value (as iterating URLSearchParams does). Paths naming `__proto__`, `constructor` or `prototype` are
 * dropped, and the number, depth and length of parameters are bounded.
 */
export function unsignedClaimsFromQuery(query: Record<string, unknown>): Record<string, unknown> {
  const claims: Record<string, unknown> = {};
  let taken = 0;
  for (const [key, raw] of Object.entries(query ?? {})) {
    if (!key.startsWith(VISITOR_PARAM_PREFIX)) continue;
    const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    if (typeof value !== 'string' || value.length > MAX_PARAM_VALUE_LENGTH) continue;
    const path = key.slice(VISITOR_PARAM_PREFIX.length).split('.');
    if (path.length > MAX_CLAIM_PATH_DEPTH || path.some((segment) => segment === '' || RESERVED_SEGMENTS.has(segment))) continue;
    if (taken >= MAX_UNSIGNED_PARAMS) break;
    taken += 1;
    setClaim(claims, path, parseClaimValue(value));
  }
  return claims;
}

function setClaim(claims: Record<string, unknown>, path: string[], value: unknown): void {
  let current = claims;
  for (const [index, segment] of path.entries()) {
    if (index === path.length - 1) {
      current[segment] = value;
      return;
    }
    const next = Object.hasOwn(current, segment) ? current[segment] : undefined;
    if (typeof next !== 'object' || next === null || Array.isArray(next)) current[segment] = {};
    current = current[segment] as Record<string, unknown>;
  }
}

/** GitBook's parseVisitorQueryParamValue, except that "undefined" is the text: JSON has no undefined. */
function parseClaimValue(value: string): unknown {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (value === 'null') return null;
  const number = Number(value);
  if (!Number.isNaN(number) && value.trim() !== '') return number;
  try {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed === 'object' && parsed !== null) return parsed;
  } catch {
    // Not JSON: the text itself.
  }
  return value;
}
