import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { startServer, type ApiResponse, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok } from '../../../test/assertions.ts';
import { buildOrganization, buildSpace, verifyDomain } from '../../../test/factories.ts';
import { authnRequestOf, makeIdp, samlResponse } from '../saml/idp.test-support.ts';

/*
 * The security review of round 4, replayed as attacks against a real server: each test fails on the code
 * before the fix (c5e1217). An organization's identity provider signs in only its own people, e-mail addresses
 * are proven before they are trusted, and SSO answers open sessions only in the browser that started them.
 */

type Res = { statusCode: number; headers: Record<string, unknown>; body: string };

function cookiesOf(res: Res | ApiResponse): string {
  const set = [res.headers['set-cookie'] ?? []].flat() as string[];
  return set.map((c) => c.split(';')[0]).join('; ');
}
const csrfOf = (cookie: string) => /quire_csrf=([^;]+)/.exec(cookie)?.[1] ?? '';

describe('attacks on sign-in, replayed', { timeout: 240_000 }, () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close(), { timeout: 30_000 });

  /** An attacker's own organization with a SAML provider they control: a self-signed certificate of theirs. */
  async function attackerProvider() {
    const attacker = await t.outsider();
    const idp = await makeIdp(`attacker-${randomUUID().slice(0, 8)}`);
    const provider = ok(
      await t.api('POST', `/v1/orgs/${attacker.organizationId}/saml`, {
        token: attacker.token,
        body: { label: 'Evil IdP', entityID: idp.entityID, ssoURL: idp.ssoURL, certificate: idp.certificate },
      }),
      201,
    );
    return { attacker, idp, provider };
  }

  /** A browser's whole SAML sign-in: start (its cookie jar), the provider's signed answer naming `email`, the ACS, the step after. */
  async function samlSignIn(setup: Awaited<ReturnType<typeof attackerProvider>>, email: string, browserCookie = '', startQuery = '') {
    const start = await t.app.inject({ method: 'GET', url: new URL(setup.provider.service.startURL).pathname + startQuery, headers: browserCookie ? { cookie: browserCookie } : {} });
    assert.equal(start.statusCode, 302, start.body);
    const state = cookiesOf(start);
    const request = authnRequestOf(String(start.headers.location));
    const response = samlResponse({ idp: setup.idp, acsURL: setup.provider.service.acsURL, audience: setup.provider.service.entityID, inResponseTo: request.id, email });
    const acs = await t.app.inject({
      method: 'POST',
      url: new URL(setup.provider.service.acsURL).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ SAMLResponse: response }).toString(),
    });
    if (acs.statusCode !== 303) return { acs, final: acs, state };
    const finish = new URL(String(acs.headers.location));
    const cookie = [browserCookie, state].filter(Boolean).join('; ');
    const final = await t.app.inject({ method: 'GET', url: finish.pathname + finish.search, headers: { cookie } });
    return { acs, final, state, finishUrl: finish.pathname + finish.search };
  }

  test('1. a self-configured SAML provider cannot sign in an account it does not own (the admin of another organization)', async () => {
    const setup = await attackerProvider();
    const { final } = await samlSignIn(setup, t.admin.email);
    assert.equal(final.statusCode, 403, final.body);
    assert.match(final.body, /already exists/);
    assert.equal(cookiesOf(final).includes('quire_session'), false, 'no session');
    const identities = await t.db.selectFrom('user_identities').select('id').where('user_id', '=', t.admin.userId).execute();
    assert.deepEqual(identities, []);
    // Nor a person the attacker merely knows the address of, in an organization that verified nothing.
    const victim = await t.member('admin');
    assert.equal((await samlSignIn(setup, victim.email)).final.statusCode, 403);
  });

  test('1. a session a provider opened, and a token minted from it, reach that provider\'s organization only', async () => {
    const setup = await attackerProvider();
    const { final } = await samlSignIn(setup, `own-${randomUUID()}@attacker.example`);
    assert.equal(final.statusCode, 303, final.body);
    const cookie = cookiesOf(final);
    const victimSpace = await buildSpace(t, { title: 'Victim space' });
    const session = { cookie, 'x-csrf-token': csrfOf(cookie), origin: 'http://quire.test' };
    const minted = ok(await t.api('POST', '/v1/user/tokens', { token: null, headers: session, body: { label: 'from SSO' } }), 201);
    const own = ok(await t.api('GET', `/v1/orgs/${setup.attacker.organizationId}`, { token: minted.token }));
    assert.equal(own.id, setup.attacker.organizationId);
    assertError(await t.api('GET', `/v1/spaces/${victimSpace.id}`, { token: minted.token }), 404);
    assertError(await t.api('GET', `/v1/orgs/${t.org.id}`, { token: null, headers: { cookie } }), 404);
    const orgs = ok(await t.api('GET', '/v1/orgs', { token: minted.token }));
    assert.deepEqual(orgs.items.map((o: { id: string }) => o.id), [setup.attacker.organizationId]);
  });

  test('1. a provider signs in an existing account once its organization verified the domain, or its owner linked it while signed in', async () => {
    const { owner, id: orgId } = await buildOrganization(t);
    const idp = await makeIdp(`corp-${randomUUID().slice(0, 8)}`);
    const provider = ok(await t.api('POST', `/v1/orgs/${orgId}/saml`, { token: owner.token, body: { label: 'Corp', entityID: idp.entityID, ssoURL: idp.ssoURL, certificate: idp.certificate } }), 201);
    const setup = { attacker: { ...owner, organizationId: orgId }, idp, provider };
    const person = await t.member('read');
    assert.equal((await samlSignIn(setup, person.email)).final.statusCode, 403);
    // The owner links it: signed in with their password in this browser, they start the sign-in with link=1.
    const { savePasswordHash } = await import('../auth/store.ts');
    const { hashPassword } = await import('../auth/passwords.ts');
    await savePasswordHash(t.db, person.userId, await hashPassword('correct horse battery'), new Date().toISOString());
    const signedIn = await t.app.inject({ method: 'POST', url: '/v1/auth/sign-in', payload: { email: person.email, password: 'correct horse battery' } });
    const passwordCookie = cookiesOf(signedIn);
    const linked = await samlSignIn(setup, person.email, passwordCookie, '?link=1');
    assert.equal(linked.final.statusCode, 303, linked.final.body);
    const identities = ok(await t.api('GET', '/v1/auth/identities', { token: person.token }));
    assert.deepEqual(identities.items.map((i: { providerId: string; origin: string }) => [i.providerId, i.origin]), [[provider.id, 'linked']]);
    // From now on the provider signs the person in without a password.
    assert.equal((await samlSignIn(setup, person.email)).final.statusCode, 303);

    // A verified domain lets the provider sign in every account of it.
    const other = await t.member('read');
    await verifyDomain(t, { token: owner.token, organizationId: orgId }, 'quire.test');
    assert.equal((await samlSignIn(setup, other.email)).final.statusCode, 303);
  });

  test('2. an address claimed through an invite link is not made a member by an e-mail invitation until its owner proves it', async () => {
    const { owner: adminB, id: orgB } = await buildOrganization(t);
    const inviteA = ok(await t.api('POST', `/v1/orgs/${t.org.id}/link-invites`, { body: { role: 'read' } }), 201).id;
    const email = `new.colleague-${randomUUID().slice(0, 8)}@example.com`;
    const squat = await t.api('POST', `/v1/auth/invite-links/${t.org.id}/${inviteA}/sign-up`, { token: null, body: { email, password: 'squatter password' } });
    ok(squat, 201);
    const squatter = cookiesOf(squat);
    const secret = await buildSpace(t, { title: 'B secret' }, { token: adminB.token, organizationId: orgB });

    const invitation = ok(await t.api('POST', '/v1/auth/invitations', { token: adminB.token, body: { organizationId: orgB, email, role: 'edit' } }), 201);
    assert.equal(invitation.pending, true, 'the admin sees the invitation pending');
    assert.ok(invitation.url, 'the invitation link is the proof the invitation waits for');
    assertError(await t.api('GET', `/v1/orgs/${orgB}/members/${squat.body.user.id}`, { token: adminB.token }), 404);
    assertError(await t.api('GET', `/v1/spaces/${secret.id}`, { token: null, headers: { cookie: squatter } }), 404);
    // The official operation holds the same line.
    const official = ok(await t.api('POST', `/v1/orgs/${orgB}/invites`, { token: adminB.token, body: { emails: [email], role: 'edit' } }));
    assert.deepEqual(official.users, []);

    // The address's owner opens the link: the account is theirs, the squatter is out, the invitation is answered.
    const token = new URL(invitation.url).pathname.split('/').pop();
    const used = await t.api('POST', `/v1/auth/links/${token}`, { token: null, body: { password: 'owner password 123' } });
    ok(used);
    assert.equal((await t.api('GET', '/v1/user', { token: null, headers: { cookie: squatter } })).status, 401, 'the squatter\'s session ended');
    const member = ok(await t.api('GET', `/v1/orgs/${orgB}/members/${squat.body.user.id}`, { token: adminB.token }));
    assert.equal(member.role, 'edit');
    assertError(await t.api('POST', '/v1/auth/sign-in', { token: null, body: { email, password: 'squatter password' } }), 401);
    ok(await t.api('POST', '/v1/auth/sign-in', { token: null, body: { email, password: 'owner password 123' } }));
  });

  test('2. a later SSO sign-in of a squatted address does not attach to the squatter\'s account', async () => {
    const inviteA = ok(await t.api('POST', `/v1/orgs/${t.org.id}/link-invites`, { body: { role: 'read' } }), 201).id;
    const email = `sso.colleague-${randomUUID().slice(0, 8)}@example.com`;
    ok(await t.api('POST', `/v1/auth/invite-links/${t.org.id}/${inviteA}/sign-up`, { token: null, body: { email, password: 'squatter password' } }), 201);
    const setup = await attackerProvider();
    assert.equal((await samlSignIn(setup, email)).final.statusCode, 403);
  });

  test('3. after SSO, a return address that normalises to another host lands on the app', async () => {
    const setup = await attackerProvider();
    for (const next of ['/.//evil.example/x', '/app/..//evil.example/x', '//evil.example/x', 'https://evil.example/']) {
      for (const name of ['returnTo', 'next']) {
        const { final } = await samlSignIn(setup, `nav-${randomUUID()}@attacker.example`, '', `?${name}=${encodeURIComponent(next)}`);
        assert.equal(final.statusCode, 303, final.body);
        assert.equal(final.headers.location, '/app', `${name}=${next}`);
      }
    }
  });

  test('4. a SAML response posted from another browser (login CSRF) opens no session there', async () => {
    const setup = await attackerProvider();
    // The attacker runs a real sign-in of their own up to the ACS, then makes the victim's browser take the step.
    const { acs, finishUrl } = await samlSignIn(setup, `csrf-${randomUUID()}@attacker.example`, '', '');
    assert.equal(acs.statusCode, 303);
    // samlSignIn finished it with the attacker's cookie; a fresh one, taken to the victim without it:
    const second = await t.app.inject({ method: 'GET', url: new URL(setup.provider.service.startURL).pathname });
    const request = authnRequestOf(String(second.headers.location));
    const response = samlResponse({ idp: setup.idp, acsURL: setup.provider.service.acsURL, audience: setup.provider.service.entityID, inResponseTo: request.id, email: `csrf2-${randomUUID()}@attacker.example` });
    const posted = await t.app.inject({
      method: 'POST',
      url: new URL(setup.provider.service.acsURL).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      payload: new URLSearchParams({ SAMLResponse: response }).toString(),
    });
    assert.equal(posted.statusCode, 303);
    assert.equal(cookiesOf(posted).includes('quire_session'), false);
    const finish = new URL(String(posted.headers.location));
    const victim = await t.app.inject({ method: 'GET', url: finish.pathname + finish.search, headers: { cookie: 'quire_sso_state=victims-own-state-cookie-value-xxxxxxxxxxxxxxxx' } });
    assert.equal(victim.statusCode, 403);
    assert.match(victim.body, /another browser/);
    assert.equal(cookiesOf(victim).includes('quire_session'), false);
    // A used step is not taken twice either.
    assert.ok(finishUrl);
    assert.equal((await t.app.inject({ method: 'GET', url: finishUrl! })).statusCode, 403);
  });
});
