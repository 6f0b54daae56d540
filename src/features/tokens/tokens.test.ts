import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok } from '../../../test/assertions.ts';
import { issueToken, listTokens, revokeToken } from './service.ts';

describe('API tokens', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  test('a request without an Authorization header is 401', async () => {
    assertError(await t.api('GET', '/v1/user', { token: null }), 401);
    assertError(await t.api('GET', `/v1/orgs/${t.org.id}`, { token: null }), 401);
  });

  test('a malformed Authorization header is 401', async () => {
    const valid = t.admin.token;
    for (const header of [`Basic ${Buffer.from('a:b').toString('base64')}`, 'Bearer', 'Bearer ', `Bearer ${valid} extra`, valid, `Token ${valid}`, '']) {
      const res = await t.api('GET', '/v1/user', { token: null, headers: { authorization: header } });
      assertError(res, 401);
    }
  });

  test('the Bearer scheme is case-insensitive, as HTTP schemes are', async () => {
    const res = await t.api('GET', '/v1/user', { token: null, headers: { authorization: `bearer ${t.admin.token}` } });
    assert.equal(res.status, 200);
  });

  test('an unknown token is 401', async () => {
    assertError(await t.api('GET', '/v1/user', { token: 'quire_thisTokenWasNeverIssued000000000000' }), 401);
    assertError(await t.api('GET', '/v1/user', { token: 'x' }), 401);
    assertError(await t.api('GET', '/v1/user', { token: 'é'.repeat(5000) }), 401);
  });

  test('a revoked token is 401, and the user’s other tokens keep working', async () => {
    const user = await t.member('read');
    const second = await issueToken(t.app.ctx, t.db, user.userId, { label: 'second' });
    assert.equal((await t.api('GET', '/v1/user', { token: user.token })).status, 200);

    assert.equal(await revokeToken(t.app.ctx, { token: user.token }), 1);
    assertError(await t.api('GET', '/v1/user', { token: user.token }), 401);
    assertError(await t.api('GET', `/v1/orgs/${t.org.id}`, { token: user.token }), 401);
    // Revoking again changes nothing.
    assert.equal(await revokeToken(t.app.ctx, { token: user.token }), 0);

    const res = await t.api('GET', '/v1/user', { token: second.token });
    assert.equal(res.status, 200);
    assert.equal(res.body.id, user.userId);

    assert.equal(await revokeToken(t.app.ctx, { id: second.id }), 1);
    assertError(await t.api('GET', '/v1/user', { token: second.token }), 401);
  });

  test('revocation is listed with the token', async () => {
    const user = await t.member('read');
    const { id } = await issueToken(t.app.ctx, t.db, user.userId, { label: 'laptop' });
    await revokeToken(t.app.ctx, { id });
    const tokens = await listTokens(t.app.ctx, user.userId);
    const laptop = tokens.find((row) => row.id === id);
    assert.ok(laptop);
    assert.equal(laptop.label, 'laptop');
    assert.ok(laptop.revoked_at);
    assert.ok(tokens.some((row) => row.id !== id && row.revoked_at === null), 'the first token is still active');
  });

  test('tokens are stored hashed: the raw value appears nowhere in api_tokens', async () => {
    const user = await t.member('read');
    const issued = await issueToken(t.app.ctx, t.db, user.userId, { label: 'secret-check' });
    // Use it once, so that last_used_at is written too.
    assert.equal((await t.api('GET', '/v1/user', { token: issued.token })).status, 200);
    const rows = await t.db.selectFrom('api_tokens').selectAll().execute();
    assert.ok(rows.length >= 2);
    const dump = JSON.stringify(rows);
    for (const raw of [issued.token, user.token, t.admin.token]) {
      assert.ok(!dump.includes(raw), 'a raw token was found in api_tokens');
      // Nor a large piece of it.
      assert.ok(!dump.includes(raw.slice(-20)));
    }
    const row = rows.find((r) => r.id === issued.id);
    assert.ok(row);
    assert.match(row.token_hash, /^[0-9a-f]{64}$/);
    assert.ok(row.last_used_at);
  });

  test('a token chosen by the operator must be long enough', async () => {
    const user = await t.member('read');
    await assert.rejects(issueToken(t.app.ctx, t.db, user.userId, { value: 'short' }), /at least 16/);
    const chosen = await issueToken(t.app.ctx, t.db, user.userId, { value: 'a-long-enough-operator-token' });
    assert.equal(chosen.token, 'a-long-enough-operator-token');
    assert.equal((await t.api('GET', '/v1/user', { token: chosen.token })).body.id, user.userId);
  });

  test('public routes answer without a token, and even with a bad one', async () => {
    assert.equal((await t.api('GET', '/v1/', { token: null })).status, 200);
    assert.equal((await t.api('GET', '/v1/', { token: 'not-a-token' })).status, 200);
  });

  test('a person creates, lists and revokes their own tokens; the value is shown once', async () => {
    const user = await t.member('read');
    const created = ok(await t.api('POST', '/v1/user/tokens', { token: user.token, body: { label: 'CI' } }), 201);
    assert.equal(created.label, 'CI');
    assert.equal(created.expiresAt, null);
    assert.match(created.token, /^quire_/);
    assert.equal(ok(await t.api('GET', '/v1/user', { token: created.token })).id, user.userId);
    const list = ok(await t.api('GET', '/v1/user/tokens', { token: created.token }));
    const listed = list.items.find((i: { id: string }) => i.id === created.id);
    assert.deepEqual(Object.keys(listed).sort(), ['createdAt', 'expiresAt', 'id', 'label', 'lastUsedAt']);
    assert.ok(listed.lastUsedAt, 'used once');
    assert.ok(!JSON.stringify(list).includes(created.token));

    const other = await t.member('read');
    assertError(await t.api('DELETE', `/v1/user/tokens/${created.id}`, { token: other.token }), 404);
    assert.ok(!ok(await t.api('GET', '/v1/user/tokens', { token: other.token })).items.some((i: { id: string }) => i.id === created.id));
    assert.equal((await t.api('DELETE', `/v1/user/tokens/${created.id}`, { token: user.token })).status, 204);
    assertError(await t.api('GET', '/v1/user', { token: created.token }), 401);
    assert.ok(!ok(await t.api('GET', '/v1/user/tokens', { token: user.token })).items.some((i: { id: string }) => i.id === created.id));
  });

  test('a token with an expiry stops working then; an expiry in the past is refused', async () => {
    const user = await t.member('read');
    const expiresAt = new Date(t.clock.now().getTime() + 60 * 60_000).toISOString();
    const created = ok(await t.api('POST', '/v1/user/tokens', { token: user.token, body: { label: 'an hour', expiresAt } }), 201);
    assert.equal(created.expiresAt, expiresAt);
    assert.equal((await t.api('GET', '/v1/user', { token: created.token })).status, 200);
    t.clock.advance(61 * 60_000);
    assertError(await t.api('GET', '/v1/user', { token: created.token }), 401);
    assertError(await t.api('POST', '/v1/user/tokens', { token: user.token, body: { label: 'past', expiresAt: '2020-01-01T00:00:00Z' } }), 400, 'expiresAt');
    assertError(await t.api('POST', '/v1/user/tokens', { token: user.token, body: { label: '  ' } }), 400, 'label');
  });
});
