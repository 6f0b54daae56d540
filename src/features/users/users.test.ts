import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError } from '../../../test/assertions.ts';

describe('users', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  describe('getAuthenticatedUser', () => {
    test('the token holder reads themselves', async () => {
      const res = await t.api('GET', '/v1/user');
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, {
        object: 'user',
        id: t.admin.userId,
        displayName: 'Administrator',
        email: 'admin@quire.test',
        urls: { location: `http://quire.test/v1/users/${t.admin.userId}` },
      });
    });

    test('each token answers for its own user', async () => {
      const member = await t.member('edit');
      const res = await t.api('GET', '/v1/user', { token: member.token });
      assert.equal(res.status, 200);
      assert.equal(res.body.id, member.userId);
      assert.equal(res.body.email, member.email);
    });

    test('without a token the authenticated user is 401', async () => {
      assertError(await t.api('GET', '/v1/user', { token: null }), 401);
    });
  });

  describe('getUserById', () => {
    test('a user of a shared organization is visible', async () => {
      const colleague = await t.member('read');
      const res = await t.api('GET', `/v1/users/${colleague.userId}`);
      assert.equal(res.status, 200);
      assert.equal(res.body.object, 'user');
      assert.equal(res.body.id, colleague.userId);
      assert.equal(res.body.email, colleague.email);
      assert.equal(res.body.urls.location, `http://quire.test/v1/users/${colleague.userId}`);
    });

    test('members see each other, guests included', async () => {
      const reader = await t.member('read');
      const guest = await t.member(null);
      assert.equal((await t.api('GET', `/v1/users/${guest.userId}`, { token: reader.token })).status, 200);
      assert.equal((await t.api('GET', `/v1/users/${reader.userId}`, { token: guest.token })).status, 200);
      assert.equal((await t.api('GET', `/v1/users/${t.admin.userId}`, { token: guest.token })).status, 200);
    });

    test('a user reads themselves by id, even alone in their organization', async () => {
      const loner = await t.outsider();
      const res = await t.api('GET', `/v1/users/${loner.userId}`, { token: loner.token });
      assert.equal(res.status, 200);
      assert.equal(res.body.id, loner.userId);
    });

    test('a user with no shared organization answers 404, both ways', async () => {
      const stranger = await t.outsider();
      assertError(await t.api('GET', `/v1/users/${stranger.userId}`), 404);
      assert.equal((await t.api('GET', `/v1/users/${t.admin.userId}`, { token: stranger.token })).status, 404);
    });

    test('sharing one organization is enough', async () => {
      const stranger = await t.outsider();
      assert.equal((await t.api('GET', `/v1/users/${stranger.userId}`)).status, 404);
      const joined = await t.member('comment', stranger.organizationId);
      assert.equal((await t.api('GET', `/v1/users/${stranger.userId}`, { token: joined.token })).status, 200);
      assert.equal((await t.api('GET', `/v1/users/${joined.userId}`, { token: stranger.token })).status, 200);
      // The bootstrap admin still shares nothing with the stranger.
      assert.equal((await t.api('GET', `/v1/users/${stranger.userId}`)).status, 404);
    });

    test('a disabled member no longer sees the people of that organization, who still see them', async () => {
      const stranger = await t.outsider();
      const disabled = await t.member('read', stranger.organizationId);
      assert.equal((await t.api('GET', `/v1/users/${stranger.userId}`, { token: disabled.token })).status, 200);
      await t.db.updateTable('members').set({ disabled: 1 }).where('organization_id', '=', stranger.organizationId).where('user_id', '=', disabled.userId).execute();
      assert.equal((await t.api('GET', `/v1/users/${stranger.userId}`, { token: disabled.token })).status, 404);
      assert.equal((await t.api('GET', `/v1/users/${disabled.userId}`, { token: stranger.token })).status, 200);
    });

    test('an unknown user id answers 404', async () => {
      assertError(await t.api('GET', '/v1/users/noSuchUser0000000000'), 404, /noSuchUser/);
    });

    test('reading a user needs a token', async () => {
      assert.equal((await t.api('GET', `/v1/users/${t.admin.userId}`, { token: null })).status, 401);
    });
  });
});
