import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startServer, type ApiResponse, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok } from '../../../test/assertions.ts';

function cookiesOf(res: ApiResponse): string {
  const set = [res.headers['set-cookie'] ?? []].flat() as string[];
  return set.map((c) => c.split(';')[0]).join('; ');
}
const csrfOf = (cookie: string) => /quire_csrf=([^;]+)/.exec(cookie)![1]!;

describe('joining with an organization invite link from the sign-in side', { timeout: 120_000 }, () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  /** A browser without a session: no token, no cookie. */
  const anonymous = (method: 'GET' | 'POST', url: string, body?: unknown, headers: Record<string, string> = {}) =>
    t.api(method, url, { token: null, headers: { 'user-agent': 'TestBrowser/1.0', ...headers }, ...(body !== undefined ? { body } : {}) });

  async function inviteLink(role: string | null = 'edit'): Promise<string> {
    return ok(await t.api('POST', `/v1/orgs/${t.org.id}/link-invites`, { body: { role } }), 201).id;
  }
  const newEmail = () => `joiner-${randomUUID()}@example.com`;
  const signUp = (inviteId: string, body: unknown, headers: Record<string, string> = {}) => anonymous('POST', `/v1/auth/invite-links/${t.org.id}/${inviteId}/sign-up`, body, headers);

  test('anyone holding the link reads which organization and role it is for', async () => {
    const inviteId = await inviteLink('comment');
    const info = ok(await anonymous('GET', `/v1/auth/invite-links/${t.org.id}/${inviteId}`));
    assert.deepEqual(info, { organization: { id: t.org.id, title: ok(await t.api('GET', `/v1/orgs/${t.org.id}`)).title }, role: 'comment' });
  });

  test('a revoked link and a made-up one answer the same 404, saying the link is no longer valid', async () => {
    const inviteId = await inviteLink();
    assert.equal((await t.api('DELETE', `/v1/orgs/${t.org.id}/link-invites/${inviteId}`)).status, 205);
    assertError(await anonymous('GET', `/v1/auth/invite-links/${t.org.id}/${inviteId}`), 404, 'no longer valid');
    assertError(await anonymous('GET', `/v1/auth/invite-links/unknown-org/${inviteId}`), 404, 'no longer valid');
    assertError(await signUp(inviteId, { email: newEmail(), password: 'a long enough password' }), 404, 'no longer valid');
  });

  test('signing up creates the account, joins with the link’s role and signs in', async () => {
    const inviteId = await inviteLink('edit');
    const email = newEmail();
    const res = await signUp(inviteId, { email: email.toUpperCase(), password: 'a long enough password', displayName: 'Joiner' });
    const body = ok(res, 201);
    assert.equal(body.user.email, email);
    assert.equal(body.user.displayName, 'Joiner');
    const cookie = cookiesOf(res);
    assert.equal(body.csrfToken, csrfOf(cookie));

    const session = ok(await anonymous('GET', '/v1/auth/session', undefined, { cookie }));
    assert.equal(session.session.method, 'password');
    assert.equal(ok(await t.api('GET', `/v1/orgs/${t.org.id}/members/${body.user.id}`)).role, 'edit');
    assert.equal(ok(await anonymous('GET', `/v1/orgs/${t.org.id}`, undefined, { cookie })).id, t.org.id, 'the session reaches the organization');
    ok(await anonymous('POST', '/v1/auth/sign-in', { email, password: 'a long enough password' }), 200);
  });

  test('an e-mail that has an account is told to sign in, and nothing changes', async () => {
    const inviteId = await inviteLink('admin');
    const existing = await t.outsider();
    const email = existing.email;
    assertError(await signUp(inviteId, { email, password: 'a long enough password' }), 409, /body\/email: .+ already has an account; sign in/);
    assertError(await t.api('GET', `/v1/orgs/${t.org.id}/members/${existing.userId}`), 404);
  });

  test('a signed-in person joins with the official joinOrganizationWithInvite, with the session', async () => {
    const inviteId = await inviteLink('read');
    const email = newEmail();
    const other = ok(await t.api('POST', '/v1/orgs', { body: { title: 'Another' } }), 201);
    const otherInvite = ok(await t.api('POST', `/v1/orgs/${other.id}/link-invites`, { body: { role: 'edit' } }), 201).id;
    const res = await anonymous('POST', `/v1/auth/invite-links/${other.id}/${otherInvite}/sign-up`, { email, password: 'a long enough password' });
    const userId = ok(res, 201).user.id;
    const cookie = cookiesOf(res);
    assertError(await anonymous('POST', `/v1/orgs/${t.org.id}/invites/${inviteId}`, undefined, { cookie }), 403, 'CSRF');
    ok(await anonymous('POST', `/v1/orgs/${t.org.id}/invites/${inviteId}`, undefined, { cookie, 'x-csrf-token': csrfOf(cookie) }));
    assert.equal(ok(await t.api('GET', `/v1/orgs/${t.org.id}/members/${userId}`)).role, 'read');
  });

  test('fields are checked and named; a page of another site cannot sign a browser up', async () => {
    const inviteId = await inviteLink();
    assertError(await signUp(inviteId, { email: 'not an e-mail', password: 'a long enough password' }), 400, 'body/email');
    assertError(await signUp(inviteId, { email: newEmail(), password: 'short' }), 400, 'body/password');
    assertError(await signUp(inviteId, { password: 'a long enough password' }), 400, 'email');
    assertError(await signUp(inviteId, { email: newEmail(), password: 'a long enough password' }, { origin: 'https://evil.example' }), 403);
  });
});
