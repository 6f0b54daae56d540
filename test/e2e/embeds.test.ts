import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rejectsWith } from './gitbook-client.ts';
import { e2eSession } from './e2e-session.ts';
import { buildIntegration, buildSpace } from '../factories.ts';

/**
 * Embeds through the official client: a URL of the web becomes a link card from what its page says of itself
 * (Open Graph, title, icon) or the HTML of the oEmbed endpoint it advertises; in a space, a URL an installed
 * integration's block unfurls is that block. Pages are served by a small site of the test's own.
 */

const OPERATIONS = ['getEmbedByUrl', 'getEmbedByUrlInSpace'];

function startSite(): Promise<{ url: string; server: Server; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (req.url === '/article') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<html><head><title>Fallback</title><meta property="og:title" content="Release notes 4.2">
        <meta property="og:site_name" content="Acme blog"><link rel="icon" href="/icon.png"></head><body>…</body></html>`);
    } else if (req.url === '/talk') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html><head><title>A talk</title><link rel="alternate" type="application/json+oembed" href="${base}/oembed?url=talk"></head></html>`);
    } else if (req.url === '/oembed?url=talk') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ version: '1.0', type: 'video', title: 'Scaling docs', provider_name: 'Acme TV', html: '<iframe src="https://tv.example/e/1"></iframe>' }));
    } else if (req.url === '/file.pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end('%PDF-1.7');
    } else {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<title>Not found</title>');
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, hits })));
}

describe('embeds through the official client', { timeout: 180_000 }, () => {
  // The test's site is on 127.0.0.1; the server refuses private addresses unless told otherwise (tested below).
  const session = e2eSession({ env: { ALLOW_PRIVATE_FETCH: 'true' } });
  let site: Awaited<ReturnType<typeof startSite>>;
  before(async () => (site = await startSite()));
  after(() => new Promise<void>((resolve) => site.server.close(() => resolve())));

  test('a page of the web is a link card from its Open Graph tags, or the HTML its oEmbed endpoint gives', async () => {
    const api = session.client().urls;
    const { data: article } = await api.getEmbedByUrl({ url: `${site.url}/article` });
    assert.deepEqual(article, { type: 'link', title: 'Release notes 4.2', site: 'Acme blog', icon: `${site.url}/icon.png` });
    const { data: talk } = await api.getEmbedByUrl({ url: `${site.url}/talk` });
    assert.deepEqual(talk, { type: 'rich', title: 'Scaling docs', site: 'Acme TV', html: '<iframe src="https://tv.example/e/1"></iframe>' });
    assert.ok(site.hits.includes('/oembed?url=talk'));
    // What cannot be read as a page is still a link to it.
    for (const path of ['/gone', '/file.pdf']) {
      assert.deepEqual((await api.getEmbedByUrl({ url: `${site.url}${path}` })).data, { type: 'link', title: `${site.url}${path}`, site: '127.0.0.1' });
    }
    assert.equal((await api.getEmbedByUrl({ url: 'http://quire.invalid/nowhere' })).data.type, 'link');
  });

  test('a bad URL is refused naming it; a caller needs a token', async () => {
    const api = session.client().urls;
    await rejectsWith(api.getEmbedByUrl({ url: 'not a url' }), 400, 'querystring/url');
    await rejectsWith(api.getEmbedByUrl({ url: 'file:///etc/passwd' }), 400, 'querystring/url must be an http or https URL');
    await rejectsWith(session.client(null).urls.getEmbedByUrl({ url: `${site.url}/article` }), 401);
  });

  test('in a space, an installed integration’s block unfurls its URLs; others are embedded as on the web', async () => {
    const { t } = session;
    const api = session.client();
    const block = { id: 'diagram', title: 'Diagram', urlUnfurl: ['https://diagrams.example.com/*'] };
    const integration = await buildIntegration(t, { title: 'Diagrams', blocks: [block], endpoint: 'http://127.0.0.1:9/', target: 'all' });
    const space = await buildSpace(t, { title: 'Architecture' });
    const other = await buildSpace(t, { title: 'Elsewhere' });
    const { data: installation } = await api.integrations.installIntegration(integration.name, { organization: t.org.id });
    await api.integrations.installIntegrationOnSpace(integration.name, installation.id, { space: space.id });

    const { data: unfurled } = await api.spaces.getEmbedByUrlInSpace(space.id, { url: 'https://diagrams.example.com/d/42' });
    assert.deepEqual(unfurled, { type: 'integration', title: 'Diagram', site: integration.name, integration: integration.name, block });
    assert.equal((await api.spaces.getEmbedByUrlInSpace(space.id, { url: `${site.url}/article` })).data.title, 'Release notes 4.2');
    // Not installed on that space: the URL is fetched as any other (and cannot be: a link).
    assert.deepEqual((await api.spaces.getEmbedByUrlInSpace(other.id, { url: 'https://diagrams.example.com/d/42' })).data.type, 'link');

    const outsider = session.client((await t.outsider()).token).spaces;
    await rejectsWith(outsider.getEmbedByUrlInSpace(space.id, { url: 'https://diagrams.example.com/d/42' }), 404);
    await rejectsWith(api.spaces.getEmbedByUrlInSpace(space.id, { url: 'ftp://diagrams.example.com/x' }), 400, 'querystring/url');
  });

  test('every operation was exercised and conformed to the official spec', () => session.assertConformed(OPERATIONS));
});

describe('embeds never reach the server’s own network', { timeout: 120_000 }, () => {
  const session = e2eSession();
  test('a URL of a private or loopback address is refused, naming the URL', async () => {
    const api = session.client().urls;
    await rejectsWith(api.getEmbedByUrl({ url: 'http://127.0.0.1:9/admin' }), 400, 'querystring/url');
    await rejectsWith(api.getEmbedByUrl({ url: 'http://169.254.169.254/latest/meta-data/' }), 400, 'querystring/url');
  });
});
