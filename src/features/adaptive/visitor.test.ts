import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { ManualClock } from '../../platform/clock.ts';
import type { AppContext } from '../../platform/context.ts';
import { clearJwksCache, JWKS_CACHE_MS, MAX_TOKEN_LENGTH, unsignedClaimsFromQuery, verifyVisitorToken } from './visitor.ts';

const SITE = 'site_abc';
const SECRET = 'a-signing-secret-of-the-site-1234567890';
const START = new Date('2026-05-01T12:00:00Z');

function contextAt(clock: ManualClock, allowPrivateFetch = true): AppContext {
  return { clock, config: { allowPrivateFetch, fetchTimeoutMs: 2000 } } as unknown as AppContext;
}

async function hmacToken(claims: Record<string, unknown>, options: { secret?: string; audience?: string; expiresAt?: Date | null; alg?: string } = {}) {
  let jwt = new SignJWT(claims).setProtectedHeader({ alg: options.alg ?? 'HS256' }).setIssuedAt(Math.floor(START.getTime() / 1000));
  if (options.audience !== '') jwt = jwt.setAudience(options.audience ?? SITE);
  if (options.expiresAt !== null) jwt = jwt.setExpirationTime(Math.floor((options.expiresAt ?? new Date(START.getTime() + 3600_000)).getTime() / 1000));
  return jwt.sign(new TextEncoder().encode(options.secret ?? SECRET));
}

describe('verifyVisitorToken with a signing secret', () => {
  const clock = new ManualClock(START);
  const ctx = contextAt(clock);
  const settings = { secret: SECRET, audience: SITE };

  it('returns the claims of a valid token', async () => {
    const claims = await verifyVisitorToken(ctx, settings, await hmacToken({ plan: 'enterprise', isAdmin: true }));
    assert.ok(claims);
    assert.equal(claims.plan, 'enterprise');
    assert.equal(claims.isAdmin, true);
    assert.equal(claims.aud, SITE);
  });

  it('refuses a token signed with another secret', async () => {
    assert.equal(await verifyVisitorToken(ctx, settings, await hmacToken({ a: 1 }, { secret: 'another-secret-another-secret-1234' })), null);
  });

  it('refuses an expired token, by the injected clock', async () => {
    const token = await hmacToken({ a: 1 }, { expiresAt: new Date(START.getTime() + 60_000) });
    assert.ok(await verifyVisitorToken(ctx, settings, token));
    const later = new ManualClock(new Date(START.getTime() + 61_000));
    assert.equal(await verifyVisitorToken(contextAt(later), settings, token), null);
  });

  it('refuses a token without an expiry', async () => {
    assert.equal(await verifyVisitorToken(ctx, settings, await hmacToken({ a: 1 }, { expiresAt: null })), null);
  });

  it('refuses a token for another site or for no site', async () => {
    assert.equal(await verifyVisitorToken(ctx, settings, await hmacToken({ a: 1 }, { audience: 'site_other' })), null);
    assert.equal(await verifyVisitorToken(ctx, settings, await hmacToken({ a: 1 }, { audience: '' })), null);
  });

  it('accepts the other HMAC sizes and refuses unsigned tokens', async () => {
    assert.ok(await verifyVisitorToken(ctx, settings, await hmacToken({ a: 1 }, { alg: 'HS512' })));
    const header = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    const body = Buffer.from(JSON.stringify({ aud: SITE, exp: START.getTime() / 1000 + 60 })).toString('base64url');
    assert.equal(await verifyVisitorToken(ctx, settings, `${header}.${body}.`), null);
  });

  it('refuses garbage and oversized tokens', async () => {
    assert.equal(await verifyVisitorToken(ctx, settings, 'not-a-jwt'), null);
    assert.equal(await verifyVisitorToken(ctx, settings, ''), null);
    assert.equal(await verifyVisitorToken(ctx, settings, 'a'.repeat(MAX_TOKEN_LENGTH + 1)), null);
  });

  it('refuses every token when the site has neither secret nor JWKS URL', async () => {
    assert.equal(await verifyVisitorToken(ctx, { audience: SITE, secret: null, jwksUrl: null }, await hmacToken({ a: 1 })), null);
  });
});

describe('verifyVisitorToken with a JWKS URL', () => {
  let server: Server;
  let jwksUrl: string;
  let keys: JWK[] = [];
  let fetches = 0;
  let status = 200;
  let signer: { privateKey: CryptoKey; kid: string };

  before(async () => {
    server = createServer((_req, res) => {
      fetches += 1;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function newKey(kid: string): Promise<void> {
    const pair = await generateKeyPair('ES256');
    keys = [...keys, { ...(await exportJWK(pair.publicKey)), kid, alg: 'ES256' }];
    signer = { privateKey: pair.privateKey, kid };
  }

  function signed(claims: Record<string, unknown>, audience = SITE): Promise<string> {
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: signer.kid })
      .setAudience(audience)
      .setExpirationTime(Math.floor(START.getTime() / 1000) + 600)
      .sign(signer.privateKey);
  }

  beforeEach(async () => {
    clearJwksCache();
    keys = [];
    fetches = 0;
    status = 200;
    await newKey('k1');
  });

  it('verifies with the published key, and caches the key set', async () => {
    const clock = new ManualClock(START);
    const settings = { jwksUrl, audience: SITE };
    assert.deepEqual(await verifyVisitorToken(contextAt(clock), settings, await signed({ plan: 'pro' })).then((c) => c?.plan), 'pro');
    assert.ok(await verifyVisitorToken(contextAt(clock), settings, await signed({ plan: 'pro' })));
    assert.equal(fetches, 1);
    clock.advance(JWKS_CACHE_MS + 1);
    // The token expired meanwhile, but the keys were fetched again all the same.
    await verifyVisitorToken(contextAt(clock), settings, await signed({ plan: 'pro' }));
    assert.equal(fetches, 2);
  });

  it('refetches the key set for a rotated key', async () => {
    const clock = new ManualClock(START);
    const settings = { jwksUrl, audience: SITE };
    assert.ok(await verifyVisitorToken(contextAt(clock), settings, await signed({})));
    await newKey('k2');
    clock.advance(31_000);
    assert.ok(await verifyVisitorToken(contextAt(clock), settings, await signed({})));
    assert.equal(fetches, 2);
  });

  it('refuses a token signed by a key the set does not publish, or for another site', async () => {
    const clock = new ManualClock(START);
    const settings = { jwksUrl, audience: SITE };
    const published = keys;
    await newKey('k-unpublished');
    keys = published;
    assert.equal(await verifyVisitorToken(contextAt(clock), settings, await signed({})), null);
    await newKey('k3');
    assert.equal(await verifyVisitorToken(contextAt(clock), settings, await signed({}, 'site_other')), null);
  });

  it('refuses an HMAC token even when the key set holds a shared secret', async () => {
    const clock = new ManualClock(START);
    keys = [{ kty: 'oct', k: Buffer.from(SECRET).toString('base64url'), kid: 'oct', alg: 'HS256' }];
    const token = await new SignJWT({}).setProtectedHeader({ alg: 'HS256', kid: 'oct' }).setAudience(SITE).setExpirationTime('1h').sign(new TextEncoder().encode(SECRET));
    assert.equal(await verifyVisitorToken(contextAt(clock), { jwksUrl, audience: SITE }, token), null);
  });

  it('is null when the key set cannot be fetched, and does not cache the failure', async () => {
    const clock = new ManualClock(START);
    status = 500;
    assert.equal(await verifyVisitorToken(contextAt(clock), { jwksUrl, audience: SITE }, await signed({})), null);
    status = 200;
    assert.ok(await verifyVisitorToken(contextAt(clock), { jwksUrl, audience: SITE }, await signed({})));
  });

  it('fetches through the SSRF guard: a private address is refused unless allowed', async () => {
    const clock = new ManualClock(START);
    assert.equal(await verifyVisitorToken(contextAt(clock, false), { jwksUrl, audience: SITE }, await signed({})), null);
    assert.equal(fetches, 0);
  });
});

describe('unsignedClaimsFromQuery', () => {
  it('reads visitor.* parameters as GitBook does', () => {
    assert.deepEqual(unsignedClaimsFromQuery({ 'visitor.isEnterprise': 'true', 'visitor.language': 'fr', other: 'true', shareKey: 'x' }), {
      isEnterprise: true,
      language: 'fr',
    });
  });

  it('parses booleans, null, numbers and JSON objects, else keeps the text', () => {
    assert.deepEqual(
      unsignedClaimsFromQuery({
        'visitor.a': 'false',
        'visitor.b': 'null',
        'visitor.c': '42',
        'visitor.d': '-1.5',
        'visitor.e': '{"x":1}',
        'visitor.f': '["a"]',
        'visitor.g': '',
        'visitor.h': 'undefined',
        'visitor.i': '"quoted"',
      }),
      { a: false, b: null, c: 42, d: -1.5, e: { x: 1 }, f: ['a'], g: '', h: 'undefined', i: '"quoted"' },
    );
  });

  it('nests dotted names', () => {
    assert.deepEqual(unsignedClaimsFromQuery({ 'visitor.isEnterprise': 'true', 'visitor.flags.ALPHA': 'true', 'visitor.flags.API': 'false' }), {
      isEnterprise: true,
      flags: { ALPHA: true, API: false },
    });
    assert.deepEqual(unsignedClaimsFromQuery({ 'visitor.a': '1', 'visitor.a.b': '2' }), { a: { b: 2 } });
  });

  it('keeps the last of a repeated parameter and ignores non-text values', () => {
    assert.deepEqual(unsignedClaimsFromQuery({ 'visitor.a': ['1', '2'], 'visitor.b': 3 as unknown }), { a: 2 });
  });

  it('drops prototype paths, empty segments and oversized input', () => {
    const claims = unsignedClaimsFromQuery({
      'visitor.__proto__.polluted': 'true',
      'visitor.constructor.prototype.x': '1',
      'visitor.a..b': '1',
      'visitor.': '1',
      'visitor.a.b.c.d.e.f': '1',
      'visitor.long': 'x'.repeat(2000),
      'visitor.ok': 'true',
    });
    assert.deepEqual(claims, { ok: true });
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    const many = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`visitor.c${i}`, 'true']));
    assert.equal(Object.keys(unsignedClaimsFromQuery(many)).length, 50);
  });
});
