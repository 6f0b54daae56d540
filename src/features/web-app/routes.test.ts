import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { ensureWebAppBuilt } from '../../../test/web-app.ts';

describe('the web app under /app', () => {
  let t: TestServer;
  before(async () => {
    await ensureWebAppBuilt();
    t = await startServer();
  });
  after(() => t?.close());

  const html = { accept: 'text/html,application/xhtml+xml' };

  test('a deep link opened by a browser gets the app’s page, never cached, with the security headers', async () => {
    for (const url of ['/app', '/app/', '/app/o/some-org/s/some-space', '/app/s/x/guide/setup?x=1']) {
      const res = await t.app.inject({ method: 'GET', url, headers: html });
      assert.equal(res.statusCode, 200, url);
      assert.match(String(res.headers['content-type']), /^text\/html/);
      assert.equal(res.headers['cache-control'], 'no-cache');
      assert.match(String(res.headers['content-security-policy']), /script-src 'self'/);
      assert.match(res.body, /<div id="root"><\/div>/);
    }
  });

  test('the page names the first API reads of its screen as preloads, so they start with it', async () => {
    const preloads = async (url: string) => {
      const body = (await t.app.inject({ method: 'GET', url, headers: html })).body;
      return [...body.matchAll(/<link rel="preload" as="fetch" crossorigin href="([^"]+)">/g)].map((m) => m[1]);
    };
    assert.deepEqual(await preloads('/app/'), ['/v1/user']);
    assert.deepEqual(await preloads('/app/s/sp1/~/changes/3'), ['/v1/user', '/v1/spaces/sp1', '/v1/spaces/sp1/change-requests/3', '/v1/spaces/sp1/change-requests/3/changes?limit=1000']);
  });

  test('its scripts are named by their content, cached for good, and gzipped for browsers that take it', async () => {
    const index = (await t.app.inject({ method: 'GET', url: '/app/', headers: html })).body;
    const script = /src="(\/app\/assets\/[^"]+\.js)"/.exec(index)?.[1];
    assert.ok(script, 'index.html names its entry script');
    const plain = await t.app.inject({ method: 'GET', url: script });
    assert.equal(plain.statusCode, 200);
    assert.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.match(String(plain.headers['content-type']), /^text\/javascript/);
    const gzipped = await t.app.inject({ method: 'GET', url: script, headers: { 'accept-encoding': 'gzip, br' } });
    assert.equal(gzipped.headers['content-encoding'], 'gzip');
    assert.ok(gzipped.rawPayload.length < plain.rawPayload.length / 2);
  });

  test('a missing asset or a non-browser request is the API’s 404, not the page', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/app/assets/index-00000000.js' });
    assert.equal(asset.statusCode, 404);
    assert.match(asset.json().error.message, /reload the page/);
    const api = await t.app.inject({ method: 'GET', url: '/app/o/x', headers: { accept: 'application/json' } });
    assert.equal(api.statusCode, 404);
    assert.equal(api.json().error.code, 404);
  });
});
