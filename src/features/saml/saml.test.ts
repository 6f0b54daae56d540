import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startServer, type TestServer, type TestUser } from '../../../test/helpers.ts';
import { assertError, ok } from '../../../test/assertions.ts';
import { buildOrganization, buildTeam, editLive, verifyDomain } from '../../../test/factories.ts';
import { savePasswordHash } from '../auth/store.ts';
import { hashPassword } from '../auth/passwords.ts';
import { authnRequestOf, makeCertificate, makeIdp, otherPrivateKey, samlResponse, type ResponseOptions, type TestIdp } from './idp.test-support.ts';

const DAY = 24 * 3600_000;

describe('SAML providers and sign-in', { timeout: 240_000 }, () => {
  let t: TestServer;
  let idp: TestIdp;

  before(async () => {
    t = await startServer();
    idp = await makeIdp();
  });
  after(() => t.close(), { timeout: 30_000 });

  const saml = (orgId: string) => `/v1/orgs/${orgId}/saml`;

  async function activeProvider(orgId = t.org.id, token = t.admin.token, extra: Record<string, unknown> = {}, provider = idp) {
    const body = { label: 'Okta', entityID: provider.entityID, ssoURL: provider.ssoURL, certificate: provider.certificate, ...extra };
    return ok(await t.api('POST', saml(orgId), { token, body }), 201);
  }

  /**
   * Follows the provider's start URL: the AuthnRequest id our server is waiting an answer to, and `state`, the
   * cookie it gave this browser (the sign-in opens a session only where that cookie is).
   */
  async function start(provider: { id: string; service: { startURL: string } }, next?: string, cookie?: string) {
    const path = new URL(provider.service.startURL).pathname + (next ? `?next=${encodeURIComponent(next)}` : '');
    const res = await t.app.inject({ method: 'GET', url: path, ...(cookie ? { headers: { cookie } } : {}) });
    assert.equal(res.statusCode, 302, res.body);
    return { ...authnRequestOf(String(res.headers.location)), state: cookiesOf(res) };
  }

  /** The ACS, then the browser's step after it (with its state cookie): the answer that opens the session. */
  async function acsAndFinish(provider: { service: { acsURL: string } }, response: string, state: string) {
    const acs = await postAcs(provider, response);
    if (acs.statusCode !== 303) return acs;
    assert.equal(acs.headers['set-cookie'], undefined, 'the ACS itself opens no session');
    const finish = new URL(String(acs.headers.location));
    return t.app.inject({ method: 'GET', url: finish.pathname + finish.search, headers: { cookie: state } });
  }

  async function postAcs(provider: { service: { acsURL: string } }, response: string) {
    return t.app.inject({
      method: 'POST',
      url: new URL(provider.service.acsURL).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ SAMLResponse: response, RelayState: '' }).toString(),
    });
  }

  function responseFor(provider: { service: { acsURL: string; entityID: string } }, inResponseTo: string, email: string, changes: Partial<ResponseOptions> = {}) {
    return samlResponse({ idp, acsURL: provider.service.acsURL, audience: provider.service.entityID, inResponseTo, email, ...changes });
  }

  /** The Cookie header a browser would send back after this response's Set-Cookie headers. */
  function cookiesOf(res: { headers: Record<string, unknown> }): string {
    const set = [res.headers['set-cookie'] ?? []].flat() as string[];
    return set.map((c) => c.split(';')[0]).join('; ');
  }

  function csrfOf(cookie: string): string {
    return /quire_csrf=([^;]+)/.exec(cookie)![1]!;
  }

  async function signIn(provider: { id: string; service: { startURL: string; acsURL: string; entityID: string } }, email: string) {
    const request = await start(provider);
    const res = await acsAndFinish(provider, responseFor(provider, request.id, email), request.state);
    assert.equal(res.statusCode, 303, res.body);
    return cookiesOf(res);
  }

  /** A password session of the person (a password set for them first). */
  async function passwordSession(person: TestUser): Promise<string> {
    await savePasswordHash(t.db, person.userId, await hashPassword('correct horse battery'), new Date().toISOString());
    const res = await t.app.inject({ method: 'POST', url: '/v1/auth/sign-in', payload: { email: person.email, password: 'correct horse battery' } });
    assert.equal(res.statusCode, 200, res.body);
    return cookiesOf(res);
  }

  async function asBrowser(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, cookie: string, options: { body?: unknown; headers?: Record<string, string> } = {}) {
    const res = await t.app.inject({ method, url, headers: { cookie, ...options.headers }, ...(options.body !== undefined ? { payload: options.body as object } : {}) });
    return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined, headers: res.headers };
  }

  test('an admin adds a pending provider, completes it, lists, reads, updates and deletes it', async () => {
    const { id: orgId, owner } = await buildOrganization(t);
    const team = await buildTeam(t, { title: 'Newcomers' }, { token: owner.token, organizationId: orgId });
    const added = await t.api('POST', saml(orgId), { token: owner.token, body: { label: 'Corporate IdP' } });
    const pending = ok(added, 201);
    assert.equal(added.headers.location, `http://quire.test${saml(orgId)}/${pending.id}`);
    assert.equal(pending.object, 'saml-provider');
    assert.equal(pending.status, 'pending');
    assert.equal(pending.defaultRole, 'read');
    assert.equal(pending.ssoURL, 'about:blank');
    assert.equal(pending.entityID, '');
    assert.equal(pending.service.acsURL, `http://quire.test/sso/saml/${pending.id}/acs`);
    assert.equal(pending.service.startURL, `http://quire.test/sso/saml/${pending.id}/start`);
    assert.equal(pending.service.entityID, `http://quire.test/sso/saml/${pending.id}/metadata`);
    assert.equal(pending.urls.location, `http://quire.test/v1/orgs/${orgId}/saml/${pending.id}`);
    assert.deepEqual(ok(await t.api('GET', `/v1/orgs/${orgId}/sso`, { token: null })), { items: [] }, 'a pending provider offers no sign-in');

    const updated = ok(
      await t.api('PATCH', `${saml(orgId)}/${pending.id}`, {
        token: owner.token,
        body: { entityID: idp.entityID, ssoURL: idp.ssoURL, certificate: idp.certificate, defaultTeam: team.id, defaultRole: 'edit' },
      }),
    );
    assert.equal(updated.status, 'active');
    assert.equal(updated.defaultTeam.id, team.id);
    assert.equal(updated.defaultRole, 'edit');
    assert.match(updated.certificate, /^-----BEGIN CERTIFICATE-----/);
    const got = ok(await t.api('GET', `${saml(orgId)}/${pending.id}`, { token: owner.token }));
    assert.deepEqual(got, updated);
    const list = ok(await t.api('GET', saml(orgId), { token: owner.token }));
    assert.equal(list.count, 1);
    assert.deepEqual(list.items, [updated]);
    const logins = ok(await t.api('GET', `/v1/orgs/${orgId}/sso`, { token: null }));
    assert.deepEqual(logins, { items: [{ id: pending.id, label: 'Corporate IdP', startURL: pending.service.startURL }] });

    const cleared = ok(await t.api('PATCH', `${saml(orgId)}/${pending.id}`, { token: owner.token, body: { ssoURL: 'about:blank' } }));
    assert.equal(cleared.status, 'pending', 'the URL a pending provider shows clears the field when given back');
    assert.deepEqual(ok(await t.api('GET', `/v1/orgs/${orgId}/sso`, { token: null })), { items: [] });

    const deleted = await t.api('DELETE', `${saml(orgId)}/${pending.id}`, { token: owner.token });
    assert.equal(deleted.status, 205);
    assert.equal((await t.api('DELETE', `${saml(orgId)}/${pending.id}`, { token: owner.token })).status, 204);
    assertError(await t.api('GET', `${saml(orgId)}/${pending.id}`, { token: owner.token }), 404, pending.id);
  });

  test('a malformed, expired or not yet valid certificate is refused, naming the field', async () => {
    assertError(await t.api('POST', saml(t.org.id), { body: { label: 'X', certificate: 'not a certificate' } }), 400, 'certificate');
    const expired = await makeCertificate({ notBefore: new Date(t.clock.now().getTime() - 400 * DAY), notAfter: new Date(t.clock.now().getTime() - DAY) });
    assertError(await t.api('POST', saml(t.org.id), { body: { label: 'X', certificate: expired.certificate } }), 400, /certificate expired/);
    const future = await makeCertificate({ notBefore: new Date(t.clock.now().getTime() + DAY), notAfter: new Date(t.clock.now().getTime() + 400 * DAY) });
    assertError(await t.api('POST', saml(t.org.id), { body: { label: 'X', certificate: future.certificate } }), 400, /certificate is not valid before/);
    const provider = await activeProvider();
    assertError(await t.api('PATCH', `${saml(t.org.id)}/${provider.id}`, { body: { certificate: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' } }), 400, 'certificate');
    assertError(await t.api('POST', saml(t.org.id), { body: { label: 'X', ssoURL: 'not a url' } }), 400, 'ssoURL');
    assertError(await t.api('POST', saml(t.org.id), { body: {} }), 400, 'label');
  });

  test('the default team must be a team of the organization', async () => {
    const other = await buildOrganization(t);
    const foreignTeam = await buildTeam(t, { title: 'Elsewhere' }, { token: other.owner.token, organizationId: other.id });
    assertError(await t.api('POST', saml(t.org.id), { body: { label: 'X', defaultTeam: foreignTeam.id } }), 400, 'defaultTeam');
    assertError(await t.api('POST', saml(t.org.id), { body: { label: 'X', defaultTeam: 'missing' } }), 400, 'defaultTeam');
  });

  test('only admins change providers; members read them; outsiders get 404; no token gets 401', async () => {
    const provider = await activeProvider();
    const editor = await t.member('edit');
    ok(await t.api('GET', `${saml(t.org.id)}/${provider.id}`, { token: editor.token }));
    assertError(await t.api('POST', saml(t.org.id), { token: editor.token, body: { label: 'Mine' } }), 403, 'admin');
    assertError(await t.api('PATCH', `${saml(t.org.id)}/${provider.id}`, { token: editor.token, body: { label: 'Mine' } }), 403);
    assertError(await t.api('DELETE', `${saml(t.org.id)}/${provider.id}`, { token: editor.token }), 403);
    const outsider = await t.outsider();
    assertError(await t.api('GET', saml(t.org.id), { token: outsider.token }), 404);
    assertError(await t.api('GET', `${saml(t.org.id)}/${provider.id}`, { token: outsider.token }), 404);
    assertError(await t.api('POST', saml(t.org.id), { token: outsider.token, body: { label: 'X' } }), 404);
    assert.equal((await t.api('DELETE', `${saml(t.org.id)}/${provider.id}`, { token: outsider.token })).status, 204);
    ok(await t.api('GET', `${saml(t.org.id)}/${provider.id}`), 200);
    assertError(await t.api('GET', saml(t.org.id), { token: null }), 401);
    assertError(await t.api('GET', `/v1/orgs/missing/sso`, { token: null }), 404);
  });

  test('a signed assertion signs a new person in: user created, member with the default role and team, SSO, a session', async () => {
    const { id: orgId, owner } = await buildOrganization(t);
    const team = await buildTeam(t, { title: 'Readers' }, { token: owner.token, organizationId: orgId });
    const provider = await activeProvider(orgId, owner.token, { defaultRole: 'comment', defaultTeam: team.id });
    const request = await start(provider, '/sites/docs/page?x=1');
    assert.match(request.xml, /AuthnRequest/);
    assert.ok(request.xml.includes(`AssertionConsumerServiceURL="${provider.service.acsURL}"`));
    assert.ok(request.xml.includes(provider.service.entityID));
    assert.equal(request.relayState, 'http://quire.test/sites/docs/page?x=1');

    const res = await acsAndFinish(provider, responseFor(provider, request.id, 'Grace@Example.com', { attributes: { firstName: 'Grace', lastName: 'Hopper' } }), request.state);
    assert.equal(res.statusCode, 303, res.body);
    assert.equal(res.headers.location, 'http://quire.test/sites/docs/page?x=1');
    const setCookies = [res.headers['set-cookie']].flat() as string[];
    const session = setCookies.find((c) => c.startsWith('quire_session='))!;
    assert.match(session, /HttpOnly/i);
    assert.match(session, /SameSite=Lax/i);
    assert.doesNotMatch(session, /Secure/i, 'PUBLIC_URL is http here');
    assert.doesNotMatch(setCookies.find((c) => c.startsWith('quire_csrf='))!, /HttpOnly/i);

    const cookie = cookiesOf(res);
    const me = await asBrowser('GET', '/v1/user', cookie);
    assert.equal(me.status, 200);
    assert.equal(me.body.email, 'grace@example.com');
    assert.equal(me.body.displayName, 'Grace Hopper');
    const member = ok(await t.api('GET', `/v1/orgs/${orgId}/members/${me.body.id}`, { token: owner.token }));
    assert.equal(member.role, 'comment');
    assert.equal(member.sso, true);
    const teams = ok(await t.api('GET', `/v1/orgs/${orgId}/teams/${team.id}/members`, { token: owner.token }));
    assert.deepEqual(teams.items.map((i: { organization: { id: string } }) => i.organization.id), [me.body.id]);

    const page = await t.app.inject({ method: 'GET', url: '/sso/session', headers: { cookie } });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Grace Hopper/);
  });

  test('an existing user of a domain the organization verified signs in: keeps their account and role, and is marked SSO', async () => {
    const { id: orgId, owner } = await buildOrganization(t);
    const provider = await activeProvider(orgId, owner.token);
    await verifyDomain(t, { token: owner.token, organizationId: orgId }, 'quire.test');
    const reader = await t.member('review', orgId);
    const cookie = await signIn(provider, reader.email);
    const me = await asBrowser('GET', '/v1/user', cookie);
    assert.equal(me.body.id, reader.userId);
    const member = ok(await t.api('GET', `/v1/orgs/${orgId}/members/${reader.userId}`, { token: owner.token }));
    assert.equal(member.role, 'review');
    assert.equal(member.sso, true);
  });

  test('the API takes the session cookie: reads freely, changes only with the CSRF token from our origin', async () => {
    const provider = await activeProvider();
    const cookie = await signIn(provider, `writer-${Date.now()}@example.com`);
    const me = await asBrowser('GET', '/v1/user', cookie);
    ok(await t.api('PATCH', `/v1/orgs/${t.org.id}/members/${me.body.id}`, { body: { role: 'create' } }));
    const body = { title: 'From the browser' };
    const noToken = await asBrowser('POST', `/v1/orgs/${t.org.id}/spaces`, cookie, { body });
    assert.equal(noToken.status, 403);
    assert.match(noToken.body.error.message, /X-CSRF-Token/);
    const wrong = await asBrowser('POST', `/v1/orgs/${t.org.id}/spaces`, cookie, { body, headers: { 'x-csrf-token': 'guess' } });
    assert.equal(wrong.status, 403);
    const foreign = await asBrowser('POST', `/v1/orgs/${t.org.id}/spaces`, cookie, { body, headers: { 'x-csrf-token': csrfOf(cookie), origin: 'https://evil.example' } });
    assert.equal(foreign.status, 403);
    const created = await asBrowser('POST', `/v1/orgs/${t.org.id}/spaces`, cookie, { body, headers: { 'x-csrf-token': csrfOf(cookie), origin: 'http://quire.test' } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    ok(await t.api('GET', `/v1/spaces/${created.body.id}`));
    assert.equal((await asBrowser('GET', '/v1/user', 'quire_session=forged.secret')).status, 401);
  });

  test('signing out revokes the session; so does removal from the organization', async () => {
    const provider = await activeProvider();
    const cookie = await signIn(provider, `leaver-${Date.now()}@example.com`);
    const refused = await t.app.inject({ method: 'POST', url: '/sso/signout', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'csrf=wrong' });
    assert.equal(refused.statusCode, 403);
    assert.equal((await asBrowser('GET', '/v1/user', cookie)).status, 200);
    const out = await t.app.inject({ method: 'POST', url: '/sso/signout', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: `csrf=${csrfOf(cookie)}` });
    assert.equal(out.statusCode, 200);
    assert.match(String([out.headers['set-cookie']].flat()[0]), /quire_session=;.*Max-Age=0/);
    assert.equal((await asBrowser('GET', '/v1/user', cookie)).status, 401);

    const second = await signIn(provider, `removed-${Date.now()}@example.com`);
    const me = await asBrowser('GET', '/v1/user', second);
    assert.equal((await t.api('DELETE', `/v1/orgs/${t.org.id}/members/${me.body.id}`)).status, 204);
    assert.equal((await asBrowser('GET', '/v1/user', second)).status, 401);
  });

  test('a session ends after 12 idle hours, and after 7 days whatever its use', async () => {
    const provider = await activeProvider();
    const idle = await signIn(provider, `idle-${Date.now()}@example.com`);
    t.clock.advance(11 * 3600_000);
    assert.equal((await asBrowser('GET', '/v1/user', idle)).status, 200);
    t.clock.advance(11 * 3600_000);
    assert.equal((await asBrowser('GET', '/v1/user', idle)).status, 200, 'used 11 hours ago: still alive');
    t.clock.advance(13 * 3600_000);
    assert.equal((await asBrowser('GET', '/v1/user', idle)).status, 401);

    const busy = await signIn(provider, `busy-${Date.now()}@example.com`);
    for (let hours = 10; hours <= 160; hours += 10) {
      t.clock.advance(10 * 3600_000);
      assert.equal((await asBrowser('GET', '/v1/user', busy)).status, 200, `in use, ${hours} hours after sign-in`);
    }
    t.clock.advance(10 * 3600_000);
    assert.equal((await asBrowser('GET', '/v1/user', busy)).status, 401, 'past 7 days');
  });

  describe('every forged or stale response is refused with an error page and no session', () => {
    const cases: [string, (p: { id: string; service: { acsURL: string; entityID: string } }, requestId: string) => Promise<string> | string, RegExp][] = [
      ['a bad signature', (p, id) => responseFor(p, id, 'mallory@example.com', { signingKey: otherPrivateKey() }), /signature/i],
      ['a wrong audience', (p, id) => responseFor(p, id, 'mallory@example.com', { audience: 'https://other-app.example.com' }), /audience/i],
      ['an expired assertion', (p, id) => responseFor(p, id, 'mallory@example.com', { notBefore: new Date(Date.now() - 3600_000), notOnOrAfter: new Date(Date.now() - 10 * 60_000) }), /expired|NotOnOrAfter|subject confirmation/i],
      ['an assertion not yet valid', (p, id) => responseFor(p, id, 'mallory@example.com', { notBefore: new Date(Date.now() + 10 * 60_000) }), /not yet valid|NotBefore|subject confirmation/i],
      ['an unknown InResponseTo', (p) => responseFor(p, '_never-issued', 'mallory@example.com'), /InResponseTo|request/i],
      ['a wrong destination', (p, id) => responseFor(p, id, 'mallory@example.com', { destination: 'https://elsewhere.example.com/acs' }), /Destination/],
      ['a response of another identity provider', async (p, id) => samlResponse({ idp: await makeIdp('rogue'), acsURL: p.service.acsURL, audience: p.service.entityID, inResponseTo: id, email: 'mallory@example.com' }), /signature|issuer/i],
    ];
    for (const [name, build, message] of cases) {
      test(name, async () => {
        const provider = await activeProvider();
        const request = await start(provider);
        const res = await postAcs(provider, await build(provider, request.id));
        assert.ok(res.statusCode === 400 || res.statusCode === 403, `${res.statusCode} ${res.body}`);
        assert.match(String(res.headers['content-type']), /text\/html/);
        assert.match(res.body, /Sign-in failed/);
        assert.match(res.body, message);
        assert.equal(res.headers['set-cookie'], undefined);
        const users = await t.db.selectFrom('users').select('id').where('email', '=', 'mallory@example.com').execute();
        assert.deepEqual(users, []);
      });
    }

    test('a replayed assertion: the same response twice, or its assertion id in a new response', async () => {
      const provider = await activeProvider();
      const request = await start(provider);
      const response = responseFor(provider, request.id, 'replay@example.com', { assertionId: '_replayed-assertion' });
      assert.equal((await postAcs(provider, response)).statusCode, 303);
      const again = await acsAndFinish(provider, response, request.state);
      assert.equal(again.statusCode, 403);
      assert.equal(again.headers['set-cookie'], undefined);
      const second = await start(provider);
      const reused = await acsAndFinish(provider, responseFor(provider, second.id, 'replay@example.com', { assertionId: '_replayed-assertion' }), second.state);
      assert.equal(reused.statusCode, 403);
      assert.match(reused.body, /already used/);
      assert.equal(reused.headers['set-cookie'], undefined);
    });

    test('a request expires after 10 minutes', async () => {
      const provider = await activeProvider();
      const request = await start(provider);
      t.clock.advance(11 * 60_000);
      const res = await postAcs(provider, responseFor(provider, request.id, 'late@example.com'));
      assert.equal(res.statusCode, 403);
      assert.equal(res.headers['set-cookie'], undefined);
    });
  });

  test('the start URL keeps only paths of our own origin, and refuses pending or unknown providers', async () => {
    const provider = await activeProvider();
    for (const next of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', '/.//evil.example/x', '/app/..//evil.example/x']) {
      const request = await start(provider, next);
      assert.equal(request.relayState, null, next);
      const res = await acsAndFinish(provider, responseFor(provider, request.id, `nav-${Date.now()}@example.com`), request.state);
      assert.equal(res.headers.location, '/app');
    }
    const pending = ok(await t.api('POST', saml(t.org.id), { body: { label: 'Later' } }), 201);
    const res = await t.app.inject({ method: 'GET', url: new URL(pending.service.startURL).pathname });
    assert.equal(res.statusCode, 400);
    assert.match(res.body, /not fully configured/);
    assert.equal((await t.app.inject({ method: 'GET', url: '/sso/saml/nope/start' })).statusCode, 404);
    const metadata = await t.app.inject({ method: 'GET', url: new URL(provider.service.entityID).pathname });
    assert.equal(metadata.statusCode, 200);
    assert.ok(metadata.body.includes(`entityID="${provider.service.entityID}"`));
    assert.ok(metadata.body.includes(provider.service.acsURL));
  });

  test("a session opened by an organization's provider reaches that organization only; where SSO is required, a password session is refused", async () => {
    const a = await buildOrganization(t);
    const b = await buildOrganization(t);
    const providerB = await activeProvider(b.id, b.owner.token);
    const person: TestUser = await t.member('read', a.id);
    // B verified the person's domain, so its provider may sign in their existing account; the session it opens
    // still reaches B only, never A.
    await verifyDomain(t, { token: b.owner.token, organizationId: b.id }, 'quire.test');
    const cookie = await signIn(providerB, person.email);
    assert.equal((await asBrowser('GET', `/v1/orgs/${a.id}/members/${person.userId}`, cookie)).status, 404);
    assert.equal((await asBrowser('GET', `/v1/orgs/${b.id}/members/${person.userId}`, cookie)).status, 200, 'B is where the session comes from');
    ok(await t.api('GET', `/v1/orgs/${a.id}/members/${person.userId}`, { token: person.token }));
    // A password session reaches A until A requires SSO, or makes the person an SSO member.
    const password = await passwordSession(person);
    assert.equal((await asBrowser('GET', `/v1/orgs/${a.id}/members/${person.userId}`, password)).status, 200);
    ok(await t.api('PATCH', `/v1/orgs/${a.id}`, { token: a.owner.token, body: { sso: true } }));
    assert.equal((await asBrowser('GET', `/v1/orgs/${a.id}/members/${person.userId}`, password)).status, 404);
    ok(await t.api('PATCH', `/v1/orgs/${a.id}`, { token: a.owner.token, body: { sso: false } }));
    assert.equal((await asBrowser('GET', `/v1/orgs/${a.id}/members/${person.userId}`, password)).status, 200);
    ok(await t.api('POST', `/v1/orgs/${a.id}/members/${person.userId}/sso`, { token: a.owner.token }));
    assert.equal((await asBrowser('GET', `/v1/orgs/${a.id}/members/${person.userId}`, password)).status, 404);
  });

  test('a signed-in member reads the non-public sites of their organization; others do not', async () => {
    const provider = await activeProvider();
    const space = ok(await t.api('POST', `/v1/orgs/${t.org.id}/spaces`, { body: { title: 'Internal' } }), 201);
    await editLive(t, space.id, [{ operation: 'insert_page', title: 'Onboarding', document: { markdown: 'Welcome aboard.' } }]);
    const site = ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites`, { body: { title: 'Handbook', visibility: 'share-link', spaces: [space.id] } }), 201);
    ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites/${site.id}/publish`));
    const url = `/sites/${site.id}/`;
    assert.equal((await t.app.inject({ method: 'GET', url })).statusCode, 404);
    const cookie = await signIn(provider, `staff-${Date.now()}@example.com`);
    const page = await t.app.inject({ method: 'GET', url, headers: { cookie } });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Welcome aboard/);

    const elsewhere = await buildOrganization(t);
    const foreignProvider = await activeProvider(elsewhere.id, elsewhere.owner.token);
    const stranger = await signIn(foreignProvider, `stranger-${Date.now()}@example.com`);
    assert.equal((await t.app.inject({ method: 'GET', url, headers: { cookie: stranger } })).statusCode, 404);
  });
});
