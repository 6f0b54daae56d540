import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../test/helpers.ts';
import { openSecret, sealSecret } from './secret-box.ts';

describe('secret box', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  test('a sealed secret opens to its plain text, and never reads as it', async () => {
    const sealed = await sealSecret(t.app.ctx, 'hunter2 ✓');
    assert.match(sealed, /^v1\.[A-Za-z0-9_-]+$/);
    assert.ok(!sealed.includes('hunter2'));
    assert.notEqual(await sealSecret(t.app.ctx, 'hunter2 ✓'), sealed, 'a fresh IV each time');
    assert.equal(await openSecret(t.app.ctx, sealed), 'hunter2 ✓');
  });

  test('an altered or foreign sealed secret does not open', async () => {
    const sealed = await sealSecret(t.app.ctx, 'value');
    const bytes = Buffer.from(sealed.slice(3), 'base64url');
    bytes[14]! ^= 1;
    await assert.rejects(openSecret(t.app.ctx, `v1.${bytes.toString('base64url')}`));
    await assert.rejects(openSecret(t.app.ctx, 'plain'), /not a sealed secret/);
    await assert.rejects(openSecret(t.app.ctx, 'v1.abc'), /too short/);
  });
});
