import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiResponse, TestServer } from '../../../test/helpers.ts';
import { assertError, ok } from '../../../test/assertions.ts';
import { linkIn, startMailingServer, type SmtpSink } from '../../../test/smtp-sink.ts';
import { createLink } from './links.ts';
import { FAILURES_PER_EMAIL } from './sign-in-throttle.ts';
import { WRONG_CREDENTIALS } from './service.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

function cookiesOf(res: ApiResponse): string {
  const set = [res.headers['set-cookie'] ?? []].flat() as string[];
  return set.map((c) => c.split(';')[0]).join('; ');
}

const csrfOf = (cookie: string) => /quire_csrf=([^;]+)/.exec(cookie)![1]!;

describe('signing in with a password and one-time links', { timeout: 240_000 }, () => {
  let t: TestServer;
  let smtp: SmtpSink;
  let n = 0;

  let close: () => Promise<void>;
  before(async () => ({ t, smtp, close } = await startMailingServer()));
  after(() => close?.());

  /** A browser's request: the cookies, the CSRF header on unsafe methods, and a user agent. */
  const browser = (method: Method, url: string, cookie: string | null, body?: unknown, headers: Record<string, string> = {}) =>
    t.api(method, url, {
      token: null,
      headers: { 'user-agent': 'TestBrowser/1.0', ...(cookie ? { cookie, ...(method === 'GET' ? {} : { 'x-csrf-token': csrfOf(cookie) }) } : {}), ...headers },
      ...(body !== undefined ? { body } : {}),
    });

  const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

  /** A new member of the bootstrap organization who has set a password through a link. */
  async function personWithPassword(password = 'a long enough password') {
    n += 1;
    const user = await t.member('edit');
    const link = await createLink(t.app.ctx, t.db, { kind: 'first-start', userId: user.userId });
    const res = await browser('POST', `/v1/auth/links/${tokenOf(link.url)}`, null, { password, displayName: `Person ${n}` });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return { ...user, password, cookie: cookiesOf(res) };
  }

  const signIn = (email: string, password: string, headers: Record<string, string> = {}) => browser('POST', '/v1/auth/sign-in', null, { email, password }, headers);

  test('a first-start link says what it is for, sets the password once and signs in', async () => {
    const link = await createLink(t.app.ctx, t.db, { kind: 'first-start', userId: t.admin.userId, organizationId: t.org.id, role: 'admin' });
    assert.match(link.url, /^http:\/\/quire\.test\/app\/auth\/link\/[\w-]{43}$/);
    const token = tokenOf(link.url);
    const info = ok(await browser('GET', `/v1/auth/links/${token}`, null));
    assert.equal(info.kind, 'first-start');
    assert.equal(info.email, 'admin@quire.test');
    assert.equal(info.organization.id, t.org.id);

    assertError(await browser('POST', `/v1/auth/links/${token}`, null, { password: 'short' }), 400, 'password');
    const res = await browser('POST', `/v1/auth/links/${token}`, null, { password: 'admin password 1' });
    const body = ok(res);
    assert.equal(body.user.email, 'admin@quire.test');
    const cookie = cookiesOf(res);
    assert.equal(body.csrfToken, csrfOf(cookie));
    const session = ok(await browser('GET', '/v1/auth/session', cookie));
    assert.equal(session.user.id, t.admin.userId);
    assert.equal(session.session.method, 'link');
    assert.equal(session.session.organizationId, null);
    assert.equal(ok(await browser('GET', `/v1/orgs/${t.org.id}`, cookie)).id, t.org.id);

    assertError(await browser('GET', `/v1/auth/links/${token}`, null), 404, 'no longer valid');
    assertError(await browser('POST', `/v1/auth/links/${token}`, null, { password: 'another password' }), 404, 'no longer valid');
    ok(await signIn('Admin@Quire.test', 'admin password 1'));
  });

  test('a link expires', async () => {
    const user = await t.member('read');
    const link = await createLink(t.app.ctx, t.db, { kind: 'reset', userId: user.userId });
    t.clock.advance(61 * 60_000);
    assertError(await browser('GET', `/v1/auth/links/${tokenOf(link.url)}`, null), 404);
  });

  test('a wrong password and an unknown e-mail get the same 401', async () => {
    const person = await personWithPassword();
    const wrong = await signIn(person.email, 'not the password');
    const unknown = await signIn(`nobody-${n}@quire.test`, 'not the password');
    const noPassword = await signIn((await t.member('read')).email, 'not the password');
    for (const res of [wrong, unknown, noPassword]) {
      assertError(res, 401);
      assert.deepEqual(res.body, { error: { code: 401, message: WRONG_CREDENTIALS } });
      assert.equal(res.headers['set-cookie'], undefined);
    }
    const good = ok(await signIn(person.email.toUpperCase(), person.password));
    assert.equal(good.user.id, person.userId);
  });

  test('the password is stored as a scrypt hash, never as itself', async () => {
    const person = await personWithPassword('my secret phrase 42');
    const row = await t.db.selectFrom('user_passwords').selectAll().where('user_id', '=', person.userId).executeTakeFirstOrThrow();
    assert.match(row.hash, /^scrypt\$/);
    assert.ok(!JSON.stringify(row).includes('secret phrase'));
  });

  test('failed sign-ins for an e-mail are rate limited, with Retry-After, and the window ends', async () => {
    const person = await personWithPassword();
    for (let i = 0; i < FAILURES_PER_EMAIL; i += 1) assertError(await signIn(person.email, `wrong ${i}`), 401);
    const refused = await signIn(person.email, person.password);
    assertError(refused, 429, 'retry');
    t.clock.advance(16 * 60_000);
    ok(await signIn(person.email, person.password));
  });

  test('sign-in from another site’s page is refused (login CSRF)', async () => {
    const person = await personWithPassword();
    assertError(await signIn(person.email, person.password, { origin: 'https://evil.example' }), 403, 'http://quire.test');
    ok(await signIn(person.email, person.password, { origin: 'http://quire.test' }));
  });

  test('sessions on other devices are listed and can be signed out; another person’s cannot', async () => {
    const person = await personWithPassword();
    const laptop = cookiesOf(await signIn(person.email, person.password, { 'user-agent': 'Laptop' }));
    const list = ok(await browser('GET', '/v1/auth/sessions', person.cookie));
    assert.ok(list.items.length >= 2);
    const current = list.items.filter((s: { current: boolean }) => s.current);
    assert.equal(current.length, 1);
    const other = list.items.find((s: { userAgent: string }) => s.userAgent === 'Laptop');
    assert.ok(other);
    const stranger = await personWithPassword();
    assertError(await browser('DELETE', `/v1/auth/sessions/${other.id}`, stranger.cookie), 404);
    assert.equal((await browser('DELETE', `/v1/auth/sessions/${other.id}`, person.cookie)).status, 204);
    assertError(await t.api('GET', '/v1/auth/session', { token: null, headers: { cookie: laptop } }), 401);
    assert.equal((await browser('GET', '/v1/auth/session', person.cookie)).status, 200);
  });

  test('sign-out needs the CSRF header, ends the session and clears the cookies', async () => {
    const person = await personWithPassword();
    const noHeader = await t.api('POST', '/v1/auth/sign-out', { token: null, headers: { cookie: person.cookie } });
    assertError(noHeader, 403, 'X-CSRF-Token');
    const res = await browser('POST', '/v1/auth/sign-out', person.cookie);
    assert.equal(res.status, 204);
    const cleared = [res.headers['set-cookie']].flat() as string[];
    assert.ok(cleared.some((c) => /^quire_session=;/.test(c) && /Max-Age=0/.test(c)));
    assertError(await browser('GET', '/v1/auth/session', person.cookie), 401);
    assertError(await browser('GET', '/v1/user', person.cookie), 401);
  });

  test('changing the password needs the current one and ends the other sessions', async () => {
    const person = await personWithPassword();
    const other = cookiesOf(await signIn(person.email, person.password));
    assertError(await browser('PUT', '/v1/auth/password', person.cookie, { currentPassword: 'wrong one', newPassword: 'the new password' }), 400, 'currentPassword');
    assertError(await browser('PUT', '/v1/auth/password', person.cookie, { currentPassword: person.password, newPassword: 'short' }), 400, 'newPassword');
    assert.equal((await browser('PUT', '/v1/auth/password', person.cookie, { currentPassword: person.password, newPassword: 'the new password' })).status, 204);
    assertError(await browser('GET', '/v1/auth/session', other), 401);
    ok(await browser('GET', '/v1/auth/session', person.cookie));
    assertError(await signIn(person.email, person.password), 401);
    ok(await signIn(person.email, 'the new password'));
  });

  test('a password reset is mailed for a known e-mail only; the answer is the same', async () => {
    const person = await personWithPassword();
    const before = smtp.mails.length;
    assert.equal((await browser('POST', '/v1/auth/password-reset', null, { email: `unknown-${n}@quire.test` })).status, 204);
    assert.equal((await browser('POST', '/v1/auth/password-reset', null, { email: person.email })).status, 204);
    const mail = await smtp.next(person.email);
    assert.ok(smtp.mails.slice(before).every((m) => m.to.includes(person.email)), 'no mail to the unknown address');
    assert.match(mail.raw, /Subject: Reset your Quire password/);
    const url = linkIn(mail);
    const info = ok(await browser('GET', `/v1/auth/links/${tokenOf(url)}`, null));
    assert.equal(info.kind, 'reset');
    ok(await browser('POST', `/v1/auth/links/${tokenOf(url)}`, null, { password: 'reset password 9' }));
    assertError(await browser('GET', '/v1/auth/session', person.cookie), 401, 'not signed in');
    ok(await signIn(person.email, 'reset password 9'));
  });

  test('an admin invites by e-mail with a role: the link is shown and mailed, and signs the newcomer in', async () => {
    const admin = await personWithPassword();
    await t.api('PATCH', `/v1/orgs/${t.org.id}/members/${admin.userId}`, { body: { role: 'admin' } });
    const email = `invitee-${n}@quire.test`;
    const invited = ok(await browser('POST', '/v1/auth/invitations', admin.cookie, { organizationId: t.org.id, email, role: 'review' }), 201);
    assert.equal(invited.email, email);
    assert.equal(invited.emailed, true);
    assert.match(invited.url, /\/app\/auth\/link\//);
    const mail = await smtp.next(email);
    assert.equal(linkIn(mail), invited.url);
    const info = ok(await browser('GET', `/v1/auth/links/${tokenOf(invited.url)}`, null));
    assert.deepEqual(info, { kind: 'invite', email, organization: { id: t.org.id, title: 'My Organization' }, role: 'review' });
    const joined = await browser('POST', `/v1/auth/links/${tokenOf(invited.url)}`, null, { password: 'newcomer password', displayName: 'New Comer' });
    assert.equal(ok(joined).user.displayName, 'New Comer');
    const member = ok(await browser('GET', `/v1/orgs/${t.org.id}/members/${invited.userId}`, cookiesOf(joined)));
    assert.equal(member.role, 'review');
  });

  test('inviting someone who already has an account gives no link', async () => {
    const person = await personWithPassword();
    const elsewhere = await t.outsider();
    const invited = ok(await t.api('POST', '/v1/auth/invitations', { token: elsewhere.token, body: { organizationId: elsewhere.organizationId, email: person.email, role: 'read' } }), 201);
    assert.equal(invited.url, undefined);
    assert.equal(invited.emailed, false);
  });

  test('only an admin invites; an organization the caller cannot see is 404', async () => {
    const reader = await t.member('read');
    assertError(await t.api('POST', '/v1/auth/invitations', { token: reader.token, body: { organizationId: t.org.id, email: 'x@quire.test', role: 'read' } }), 403);
    const outsider = await t.outsider();
    assertError(await t.api('POST', '/v1/auth/invitations', { token: outsider.token, body: { organizationId: t.org.id, email: 'x@quire.test', role: 'read' } }), 404);
  });

  test('the official inviteUsersToOrganization mails newcomers their link', async () => {
    const email = `official-${n}@quire.test`;
    ok(await t.api('POST', `/v1/orgs/${t.org.id}/invites`, { body: { emails: [email], role: 'comment' } }));
    const info = ok(await browser('GET', `/v1/auth/links/${tokenOf(linkIn(await smtp.next(email)))}`, null));
    assert.equal(info.role, 'comment');
  });

  test('a password session does not reach an organization that enforces SSO', async () => {
    const person = await personWithPassword();
    const owner = await t.outsider();
    ok(await t.api('POST', `/v1/orgs/${owner.organizationId}/invites`, { token: owner.token, body: { emails: [person.email], role: 'read' } }));
    ok(await browser('GET', `/v1/orgs/${owner.organizationId}`, person.cookie));
    await t.db.updateTable('organizations').set({ sso: 1 }).where('id', '=', owner.organizationId).execute();
    // As for anyone outside it: the organization is not there for this session (an SSO sign-in reaches it).
    assertError(await browser('GET', `/v1/orgs/${owner.organizationId}`, person.cookie), 404);
  });

  test('without a session, the session is 401', async () => {
    assertError(await browser('GET', '/v1/auth/session', null), 401, 'not signed in');
    assertError(await browser('GET', '/v1/auth/session', 'quire_session=abc.def'), 401);
  });
});
