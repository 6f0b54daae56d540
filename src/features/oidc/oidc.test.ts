import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type ApiResponse, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok } from '../../../test/assertions.ts';
import { startOidcProvider, type TestOidcProvider } from '../../../test/oidc-provider.ts';
import { buildOrganization, buildTeam, verifyDomain } from '../../../test/factories.ts';

function cookiesOf(res: { headers: Record<string, unknown> }): string {
  const set = [res.headers['set-cookie'] ?? []].flat() as string[];
  return set.map((c) => c.split(';')[0]).join('; ');
}

describe('OpenID Connect sign-in against a real provider', { timeout: 240_000 }, () => {
  let t: TestServer;
  let idp: TestOidcProvider;
  let owner: Awaited<ReturnType<TestServer['outsider']>>;
  let provider: { id: string; service: { redirectURL: string; startURL: string } };

  before(async () => {
    idp = await startOidcProvider();
    // The provider listens on 127.0.0.1: outbound fetches to private addresses must be allowed for it.
    t = await startServer({ env: { ALLOW_PRIVATE_FETCH: '1' } });
    owner = await t.outsider();
    provider = ok(
      await t.api('POST', `/v1/orgs/${owner.organizationId}/oidc`, {
        token: owner.token,
        body: { label: 'Company login', issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, defaultRole: 'comment' },
      }),
      201,
    );
    idp.allowRedirect(provider.service.redirectURL);
  });
  after(async () => {
    await t.close();
    await idp.close();
  });

  /** Start, the provider's side, and the callback: the answer of our callback. */
  async function signIn(email: string, options: { returnTo?: string; name?: string; emailVerified?: boolean } = {}) {
    idp.signInAs({ email, ...(options.name ? { name: options.name } : {}), ...(options.emailVerified !== undefined ? { emailVerified: options.emailVerified } : {}) });
    const query = options.returnTo ? `?returnTo=${encodeURIComponent(options.returnTo)}` : '';
    const start = await t.app.inject({ method: 'GET', url: `/sso/oidc/${provider.id}/start${query}` });
    assert.equal(start.statusCode, 302, start.body);
    const back = await idp.authorize(start.headers.location as string);
    assert.equal(`${back.origin}${back.pathname}`, provider.service.redirectURL);
    // The callback comes back to the browser that started the sign-in: it carries that browser's state cookie.
    return { callback: await t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}`, headers: { cookie: cookiesOf(start) } }), back, state: cookiesOf(start) };
  }

  test('an admin adds a provider: its secret is never shown; members read it; others cannot manage it', async () => {
    assert.equal(provider.service.redirectURL, `http://quire.test/sso/oidc/${provider.id}/callback`);
    assert.ok(!JSON.stringify(provider).includes(idp.clientSecret));
    const row = await t.db.selectFrom('oidc_providers').selectAll().where('id', '=', provider.id).executeTakeFirstOrThrow();
    assert.ok(!row.client_secret.includes(idp.clientSecret), 'the secret is sealed');
    const reader = await t.member('read', owner.organizationId);
    const list = ok(await t.api('GET', `/v1/orgs/${owner.organizationId}/oidc`, { token: reader.token }));
    assert.deepEqual(list.items.map((p: { id: string }) => p.id), [provider.id]);
    assertError(await t.api('POST', `/v1/orgs/${owner.organizationId}/oidc`, { token: reader.token, body: { label: 'x', issuer: idp.issuer, clientId: 'a', clientSecret: 'b' } }), 403);
    assertError(await t.api('GET', `/v1/orgs/${owner.organizationId}/oidc/${provider.id}`), 404);
    assertError(await t.api('POST', `/v1/orgs/${owner.organizationId}/oidc`, { token: owner.token, body: { label: 'x', issuer: 'ftp://idp.example', clientId: 'a', clientSecret: 'b' } }), 400, 'issuer');
    const renamed = ok(await t.api('PATCH', `/v1/orgs/${owner.organizationId}/oidc/${provider.id}`, { token: owner.token, body: { label: 'Company SSO' } }));
    assert.equal(renamed.label, 'Company SSO');
  });

  test('the sign-in page lists the provider with its start URL', async () => {
    const all = ok(await t.api('GET', '/v1/auth/providers', { token: null }));
    assert.ok(all.items.some((p: { id: string; type: string; signInUrl: string }) => p.id === provider.id && p.type === 'oidc' && p.signInUrl === provider.service.startURL));
    const other = ok(await t.api('GET', `/v1/auth/providers?organizationId=${t.org.id}`, { token: null }));
    assert.ok(!other.items.some((p: { id: string }) => p.id === provider.id));
  });

  test('a newcomer signs in: user created, member with the default role and SSO, a session of the organization, landing in the app', async () => {
    const { callback } = await signIn('Ada@Example.com', { name: 'Ada Lovelace' });
    assert.equal(callback.statusCode, 303, callback.body);
    assert.equal(callback.headers.location, '/app');
    const cookie = cookiesOf(callback);
    const session = ok((await t.api('GET', '/v1/auth/session', { token: null, headers: { cookie } })) as ApiResponse);
    assert.equal(session.user.email, 'ada@example.com');
    assert.equal(session.user.displayName, 'Ada Lovelace');
    assert.equal(session.session.method, 'oidc');
    assert.equal(session.session.organizationId, owner.organizationId);
    const member = ok(await t.api('GET', `/v1/orgs/${owner.organizationId}/members/${session.user.id}`, { token: owner.token }));
    assert.equal(member.role, 'comment');
    assert.equal(member.sso, true);
    assert.equal(ok(await t.api('GET', `/v1/orgs/${owner.organizationId}`, { token: null, headers: { cookie } })).id, owner.organizationId);
  });

  test('a default team: presented, checked to be of the organization, cleared with ""; newcomers join it, people already members do not', async () => {
    const team = await buildTeam(t, { title: 'Newcomers' }, { token: owner.token, organizationId: owner.organizationId });
    const url = `/v1/orgs/${owner.organizationId}/oidc/${provider.id}`;
    const other = await buildOrganization(t);
    const foreign = await buildTeam(t, { title: 'Elsewhere' }, { token: other.owner.token, organizationId: other.id });
    assertError(await t.api('PATCH', url, { token: owner.token, body: { defaultTeam: foreign.id } }), 400, 'body/defaultTeam');
    assertError(await t.api('POST', `/v1/orgs/${owner.organizationId}/oidc`, { token: owner.token, body: { label: 'x', issuer: idp.issuer, clientId: 'a', clientSecret: 'b', defaultTeam: 'missing' } }), 400, 'body/defaultTeam');
    const updated = ok(await t.api('PATCH', url, { token: owner.token, body: { defaultTeam: team.id } }));
    assert.equal(updated.defaultTeam.id, team.id);
    assert.equal(ok(await t.api('GET', `/v1/orgs/${owner.organizationId}/oidc`, { token: owner.token })).items[0].defaultTeam.title, 'Newcomers');
    try {
      const { callback } = await signIn('newcomer@example.com');
      assert.equal(callback.statusCode, 303, callback.body);
      const me = ok((await t.api('GET', '/v1/user', { token: null, headers: { cookie: cookiesOf(callback) } })) as ApiResponse);
      const members = ok(await t.api('GET', `/v1/orgs/${owner.organizationId}/teams/${team.id}/members`, { token: owner.token }));
      assert.deepEqual(members.items.map((i: { organization: { id: string } }) => i.organization.id), [me.id]);
      // Someone who was a member before signing in is not moved into the team (the provider may sign in their
      // existing account: the organization verified their address's domain).
      const before = await t.member('read', owner.organizationId);
      const known = await t.db.selectFrom('users').select('email').where('id', '=', before.userId).executeTakeFirstOrThrow();
      const domain = await verifyDomain(t, owner, 'quire.test');
      assert.equal((await signIn(known.email!)).callback.statusCode, 303);
      assert.equal((await t.api('DELETE', `/v1/orgs/${owner.organizationId}/sso/domains/${domain.id}`, { token: owner.token })).status, 204);
      const after = ok(await t.api('GET', `/v1/orgs/${owner.organizationId}/teams/${team.id}/members`, { token: owner.token }));
      assert.equal(after.items.length, 1);
    } finally {
      const cleared = ok(await t.api('PATCH', url, { token: owner.token, body: { defaultTeam: '' } }));
      assert.equal('defaultTeam' in cleared, false);
    }
  });

  test('returnTo brings the person back to a page of ours, never to another site', async () => {
    const { callback } = await signIn('grace@example.com', { returnTo: '/app/o/x/s/y' });
    assert.equal(callback.headers.location, 'http://quire.test/app/o/x/s/y');
    const { callback: away } = await signIn('grace@example.com', { returnTo: 'https://evil.example/' });
    assert.equal(away.headers.location, '/app');
  });

  test('a callback is answered once: a replay opens no session', async () => {
    const { callback, back, state } = await signIn('linus@example.com');
    assert.equal(callback.statusCode, 303);
    const replay = await t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}`, headers: { cookie: state } });
    assert.equal(replay.statusCode, 403);
    assert.match(replay.body, /no open sign-in/);
    assert.equal(replay.headers['set-cookie'], undefined);
  });

  test('a callback with a forged state or an error is refused', async () => {
    const forged = await t.app.inject({ method: 'GET', url: `/sso/oidc/${provider.id}/callback?code=abc&state=forged` });
    assert.equal(forged.statusCode, 403);
    const refused = await t.app.inject({ method: 'GET', url: `/sso/oidc/${provider.id}/callback?error=access_denied&error_description=No%20way` });
    assert.equal(refused.statusCode, 403);
    assert.match(refused.body, /No way/);
    assert.equal((await t.app.inject({ method: 'GET', url: '/sso/oidc/nope/start' })).statusCode, 404);
  });

  test('the provider signs in no existing account it did not create (another organization\'s admin, say), nor in a browser that did not start it', async () => {
    const { callback } = await signIn('admin@quire.test');
    assert.equal(callback.statusCode, 403);
    assert.match(callback.body, /already exists/);
    assert.equal(callback.headers['set-cookie'], undefined);
    idp.signInAs({ email: 'someone-new@example.com' });
    const start = await t.app.inject({ method: 'GET', url: `/sso/oidc/${provider.id}/start` });
    const back = await idp.authorize(start.headers.location as string);
    const elsewhere = await t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
    assert.equal(elsewhere.statusCode, 403);
    assert.match(elsewhere.body, /another browser/);
  });

  test('an e-mail the provider has not verified signs no one in', async () => {
    const { callback } = await signIn('unverified@example.com', { emailVerified: false });
    assert.equal(callback.statusCode, 403);
    assert.match(callback.body, /verified e-mail/);
    assert.equal(await t.db.selectFrom('users').select('id').where('email', '=', 'unverified@example.com').executeTakeFirst(), undefined);
  });
});
