import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rejectsWith } from './gitbook-client.ts';
import { e2eSession } from './e2e-session.ts';

/**
 * createUserNotificationsToken (0.202.0) through the official client: a short-lived token that calls the
 * person's notification operations and nothing else.
 */

const OPERATIONS = ['createUserNotificationsToken'];

describe('a notifications token through the official client', { timeout: 120_000 }, () => {
  const session = e2eSession();

  test("reads and marks the holder's notifications, and calls nothing else", async () => {
    const { t } = session;
    const member = await t.member('read');
    const { data } = await session.latest(member.token).user.createUserNotificationsToken();
    const token = data.token;
    assert.match(token, /^eyJ/);

    const as = (method: string, path: string, body?: unknown) => t.api(method, path, { token, ...(body === undefined ? {} : { body }) });
    assert.equal((await as('GET', '/v1/user/notifications')).status, 200);
    assert.equal((await as('GET', '/v1/user/notifications/summary')).status, 200);
    assert.equal((await as('POST', '/v1/user/notifications/read', {})).status, 204);
    assert.equal((await as('PATCH', '/v1/user/notifications/no-such-notification', { read: true })).status, 404);

    // Anything else is refused, the operations that would widen its reach first.
    for (const [method, path, body] of [
      ['GET', '/v1/user', undefined],
      ['POST', '/v1/user/tokens', { label: 'escalated' }],
      ['POST', '/v1/user/notifications/token', undefined],
      ['GET', `/v1/orgs/${t.org.id}/spaces`, undefined],
      ['GET', `/v1/orgs/${t.org.id}/members`, undefined],
    ] as const) {
      const res = await as(method, path, body);
      assert.equal(res.status, 403, `${method} ${path}: ${res.status}`);
      assert.match(String((res.body.error as { message: string }).message), /only listUserNotifications/);
    }
    await rejectsWith(session.latest(token).user.getAuthenticatedUser(), 403);
    await rejectsWith(session.latest(token).user.createUserNotificationsToken(), 403);

    // Short-lived: an hour.
    t.clock.advance(60 * 60 * 1000 + 1000);
    assert.equal((await as('GET', '/v1/user/notifications')).status, 401);
  });

  test('refused without a token, and a forged or altered token is no token', async () => {
    const { t } = session;
    await rejectsWith(session.latest(null).user.createUserNotificationsToken(), 401);
    const { data } = await session.latest().user.createUserNotificationsToken();
    const [header, payload, signature] = data.token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    const altered = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url')}.${signature}`;
    assert.equal((await t.api('GET', '/v1/user/notifications', { token: altered })).status, 401);
  });

  test('every exchange conformed to the official spec', () => session.assertConformed(OPERATIONS));
});
