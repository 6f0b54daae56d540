import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../test/helpers.ts';
import { readServerSetting, recordServerSetting } from './server-settings.ts';

describe('server settings', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  test('a setting reads as recorded last, and as nothing before it was ever recorded', async () => {
    await t.app.ctx.db.deleteFrom('server_settings').execute();
    assert.equal(await readServerSetting(t.app.ctx.db, 'public_url'), undefined);
    await recordServerSetting(t.app.ctx.db, 'public_url', 'https://first.example.test', '2026-01-01T00:00:00.000Z');
    await recordServerSetting(t.app.ctx.db, 'public_url', 'https://docs.example.test', '2026-01-02T00:00:00.000Z');
    assert.equal(await readServerSetting(t.app.ctx.db, 'public_url'), 'https://docs.example.test');
    const rows = await t.app.ctx.db.selectFrom('server_settings').selectAll().execute();
    assert.deepEqual(rows, [{ name: 'public_url', value: 'https://docs.example.test', updated_at: '2026-01-02T00:00:00.000Z' }]);
  });
});
