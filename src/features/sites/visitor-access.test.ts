import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT } from 'jose';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { ok, assertError, siteBuilders } from './sites.test-support.ts';
import { resolveVisitor, siteAt } from './visitor-access.ts';
import { findSite } from './store.ts';

describe('visitor access (resolveVisitor) and visitor authentication settings', () => {
  let t: TestServer;
  let b: ReturnType<typeof siteBuilders>;
  before(async () => {
    t = await startServer();
    b = siteBuilders(t);
  });
  after(() => t.close());

  async function publishedSite(visibility: string) {
    const space = await b.space('Docs');
    const site = await b.site({ visibility, spaces: [space.id] });
    ok(await t.api('POST', `${b.sites}/${site.id}/publish`));
    return (await findSite(t.db, site.id))!;
  }

  async function token(secret: string, audience: string, claims: Record<string, unknown> = {}, expiresInSeconds = 3600) {
    const now = Math.floor(t.clock.now().getTime() / 1000);
    return new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setAudience(audience).setIssuedAt(now).setExpirationTime(now + expiresInSeconds).sign(new TextEncoder().encode(secret));
  }

  test('a public site is open; unsigned claims come from visitor.* query parameters', async () => {
    const site = await publishedSite('public');
    const access = await resolveVisitor(t.app.ctx, site, { query: { 'visitor.isBetaUser': 'true' }, cookies: {} });
    assert.equal(access.allowed, true);
    assert.ok(access.allowed);
    assert.deepEqual(access.visitor.claims, { unsigned: { isBetaUser: true } });
  });

  test('an unpublished site is closed to every visitor', async () => {
    const space = await b.space('Draft');
    const site = await b.site({ spaces: [space.id] });
    const row = (await findSite(t.db, site.id))!;
    assert.deepEqual(await resolveVisitor(t.app.ctx, row, { query: {}, cookies: {} }), { allowed: false, reason: 'unpublished' });
  });

  test('a share-link site needs an active key of that site, from the URL or a cookie', async () => {
    const site = await publishedSite('share-link');
    const other = await publishedSite('share-link');
    const link = ok(await t.api('POST', `${b.sites}/${site.id}/share-links`, { body: { name: 'Team' } }), 201);
    const otherLink = ok(await t.api('POST', `${b.sites}/${other.id}/share-links`, { body: { name: 'Other' } }), 201);
    const key = new URL(link.urls.published).searchParams.get('share')!;
    const otherKey = new URL(otherLink.urls.published).searchParams.get('share')!;
    assert.deepEqual(await resolveVisitor(t.app.ctx, site, { query: {}, cookies: {} }), { allowed: false, reason: 'share-link' });
    assert.equal((await resolveVisitor(t.app.ctx, site, { query: { share: otherKey }, cookies: {} })).allowed, false);
    const byQuery = await resolveVisitor(t.app.ctx, site, { query: { share: key }, cookies: {} });
    assert.ok(byQuery.allowed);
    assert.equal(byQuery.shareKey, key);
    assert.equal((await resolveVisitor(t.app.ctx, site, { query: {}, cookies: { quire_site_share: key } })).allowed, true);
    ok(await t.api('PATCH', `${b.sites}/${site.id}/share-links/${link.id}`, { body: { active: false } }));
    assert.equal((await resolveVisitor(t.app.ctx, site, { query: { share: key }, cookies: {} })).allowed, false);
  });

  test('a visitor-auth site needs a token signed with its key, not expired, for this site', async () => {
    const site = await publishedSite('visitor-auth');
    const auth = ok(await t.api('GET', `${b.sites}/${site.id}/publishing/auth`));
    assert.equal(auth.object, 'publishing-auth');
    assert.equal(auth.privateKey, site.visitor_auth_secret);
    ok(await t.api('PATCH', `${b.sites}/${site.id}/publishing/auth`, { body: { fallbackURL: 'https://login.example.com/' } }));
    const fresh = (await findSite(t.db, site.id))!;
    assert.deepEqual(await resolveVisitor(t.app.ctx, fresh, { query: {}, cookies: {} }), { allowed: false, reason: 'visitor-auth', loginUrl: 'https://login.example.com/' });
    const valid = await token(auth.privateKey, site.id, { role: 'partner', beta: true });
    const access = await resolveVisitor(t.app.ctx, fresh, { query: { jwt_token: valid, 'visitor.lang': 'fr' }, cookies: {} });
    assert.ok(access.allowed);
    assert.equal(access.visitor.claims.role, 'partner');
    assert.deepEqual(access.visitor.claims.unsigned, { lang: 'fr' });
    assert.equal(access.token, valid);
    assert.equal((await resolveVisitor(t.app.ctx, fresh, { query: {}, cookies: { quire_visitor_token: valid } })).allowed, true);
    for (const bad of [await token('another secret', site.id), await token(auth.privateKey, 'another-site'), await token(auth.privateKey, site.id, {}, -10), 'not a jwt']) {
      assert.equal((await resolveVisitor(t.app.ctx, fresh, { query: { jwt_token: bad }, cookies: {} })).allowed, false);
    }
    // A regenerated key ends the old tokens.
    const regenerated = ok(await t.api('POST', `${b.sites}/${site.id}/publishing/auth/regenerate`));
    assert.notEqual(regenerated.privateKey, auth.privateKey);
    assert.equal((await resolveVisitor(t.app.ctx, (await findSite(t.db, site.id))!, { query: { jwt_token: valid }, cookies: {} })).allowed, false);
  });

  test('publishing auth settings: URLs are checked, integration backends refused, readers kept out', async () => {
    const site = await publishedSite('visitor-auth');
    const url = `${b.sites}/${site.id}/publishing/auth`;
    assertError(await t.api('PATCH', url, { body: { fallbackURL: 'javascript:alert(1)' } }), 400, 'body/fallbackURL');
    assertError(await t.api('PATCH', url, { body: { backend: 'integration' } }), 400, 'body/backend');
    const withJwks = ok(await t.api('PATCH', url, { body: { jwksUrl: 'https://keys.example.com/.well-known/jwks.json' } }));
    assert.equal(withJwks.jwksUrl, 'https://keys.example.com/.well-known/jwks.json');
    assert.equal(ok(await t.api('PATCH', url, { body: { jwksUrl: null, fallbackURL: null } })).fallbackURL, undefined);
    const reader = await t.member('read');
    assertError(await t.api('GET', url, { token: reader.token }), 403);
  });

  test('a published URL names its site by basename or id', async () => {
    const site = await publishedSite('public');
    ok(await t.api('PATCH', `${b.sites}/${site.id}`, { body: { basename: 'by-name' } }));
    assert.equal((await siteAt(t.db, 'by-name'))?.id, site.id);
    assert.equal((await siteAt(t.db, site.id))?.id, site.id);
    assert.equal(await siteAt(t.db, 'nothing-here'), undefined);
  });
});
