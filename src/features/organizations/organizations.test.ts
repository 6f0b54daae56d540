import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';

describe('organizations', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  test('the bootstrap admin reads their organization', async () => {
    const res = await t.api('GET', `/v1/orgs/${t.org.id}`);
    assert.equal(res.status, 200);
    assert.equal(res.body.object, 'organization');
    assert.equal(res.body.permissions.admin, true);
  });

  test('an organization of someone else answers 404', async () => {
    const other = await t.outsider();
    const res = await t.api('GET', `/v1/orgs/${t.org.id}`, { token: other.token });
    assert.equal(res.status, 404);
    assert.equal(res.body.error.code, 404);
  });
});
