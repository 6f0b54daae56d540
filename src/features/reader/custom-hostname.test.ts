import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { listenOnRandomPort, startServer, type TestServer } from '../../../test/helpers.ts';
import { buildSpace, editLive } from '../../../test/factories.ts';
import { assertError, ok } from '../../../test/assertions.ts';

/*
 * A site on its own domain (issue 11): the extension field `hostname` of updateSiteById sets it; a request whose
 * Host is that name is the site's, served at `/`, and the site's URLs (urls.published, canonical links, the
 * sitemap, llms.txt) are on that host, with PUBLIC_URL's scheme.
 */

describe('a site on a custom hostname', () => {
  let t: TestServer;
  const sites = () => `/v1/orgs/${t.org.id}/sites`;
  let n = 0;

  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  async function siteOnHost(visibility = 'public') {
    const space = await buildSpace(t, { title: 'Docs' });
    await editLive(t, space.id, [
      { operation: 'insert_page', title: 'Introduction', document: { markdown: 'Welcome home.' } },
      { operation: 'insert_page', title: 'Guide', document: { markdown: 'Read [the introduction](introduction.md).' } },
    ]);
    const site = ok(await t.api('POST', sites(), { body: { title: 'Acme Docs', visibility, spaces: [space.id] } }), 201);
    ok(await t.api('POST', `${sites()}/${site.id}/publish`));
    const hostname = `docs${++n}.acme.example`;
    const updated = ok(await t.api('PATCH', `${sites()}/${site.id}`, { body: { hostname } }));
    return { site: updated, hostname };
  }

  const get = (host: string, url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers: { host, ...headers } });

  test('updateSiteById sets and removes the hostname; the site object and its URLs name it', async () => {
    const { site, hostname } = await siteOnHost();
    assert.equal(site.hostname, hostname);
    assert.equal(site.urls.published, `http://${hostname}/`);
    const published = ok(await t.api('GET', `${sites()}/${site.id}/published`));
    assert.equal(published.structure.structure[0].urls.published, `http://${hostname}/`);
    const removed = ok(await t.api('PATCH', `${sites()}/${site.id}`, { body: { hostname: null } }));
    assert.equal(removed.hostname, undefined);
    assert.equal(removed.urls.published, `http://quire.test/sites/${site.id}/`);
    assert.equal((await get(hostname, '/')).statusCode, 404, 'the host is no longer the site');
  });

  test('a hostname is refused when malformed, when it is PUBLIC_URL\'s host, or when another site has it', async () => {
    const { site, hostname } = await siteOnHost();
    const other = ok(await t.api('POST', sites(), { body: { title: 'Other' } }), 201);
    for (const bad of ['Docs.Example.com', 'localhost', 'docs.example.com/path', 'a..b.com']) {
      assertError(await t.api('PATCH', `${sites()}/${other.id}`, { body: { hostname: bad } }), 400, /hostname/);
    }
    assertError(await t.api('PATCH', `${sites()}/${other.id}`, { body: { hostname } }), 409, /already the hostname of another site/);
    assert.equal(ok(await t.api('PATCH', `${sites()}/${site.id}`, { body: { hostname } })).hostname, hostname, 'setting its own again is fine');
    const server = await startServer({ env: { PUBLIC_URL: 'https://docs.quire.example' } });
    try {
      const own = ok(await server.api('POST', `/v1/orgs/${server.org.id}/sites`, { body: { title: 'Own' } }), 201);
      assertError(await server.api('PATCH', `/v1/orgs/${server.org.id}/sites/${own.id}`, { body: { hostname: 'docs.quire.example' } }), 400, /PUBLIC_URL/);
    } finally {
      await server.close();
    }
  });

  test('the site is served at / of its host: pages, markdown, sitemap, robots and llms.txt with URLs on that host', async () => {
    const { site, hostname } = await siteOnHost();
    const home = await get(hostname, '/');
    assert.equal(home.statusCode, 200);
    assert.match(home.body, /Welcome home\./);
    assert.match(home.body, /href="\/guide"/);
    assert.match(home.body, new RegExp(`<link rel="canonical" href="http://${hostname.replace(/\./g, '\\.')}/"`));
    assert.match(home.body, /data-search-url="\/search.json"/);
    assert.match((await get(hostname, '/guide')).body, /Read <a[^>]*href="\/"/);
    assert.equal((await get(hostname, '/guide.md')).body, `# Guide\n\nRead [the introduction](http://${hostname}/).\n`);
    assert.match((await get(hostname, '/sitemap.xml')).body, new RegExp(`<loc>http://${hostname}/guide</loc>`));
    const robots = (await get(hostname, '/robots.txt')).body;
    assert.match(robots, /^User-agent: \*\nAllow: \/\n/);
    assert.match(robots, new RegExp(`Sitemap: http://${hostname}/sitemap.xml`));
    assert.match((await get(hostname, '/llms.txt')).body, new RegExp(`\\(http://${hostname}/guide\\.md\\)`));
    assert.deepEqual(JSON.parse((await get(hostname, '/search.json?query=welcome')).body).items.map((i: { href: string }) => i.href), ['/']);
    assert.equal((await get(hostname, '/nothing-here')).statusCode, 404);
    assert.equal((await get(`${hostname}:8443`, '/guide')).statusCode, 200, 'the port is not part of the name');
    const asset = /href="(\/_quire\/assets\/[^"]+\.css)"/.exec(home.body)![1]!;
    assert.equal((await get(hostname, asset)).statusCode, 200, 'the reader assets are served on the host');

    // API paths on the host are the site's pages, and its /sites/ URL leads there.
    assert.equal((await get(hostname, `/v1/orgs/${t.org.id}`)).statusCode, 404);
    const moved = await get('quire.test', `/sites/${site.id}/guide?x=1`);
    assert.equal(moved.statusCode, 308);
    assert.equal(moved.headers.location, `http://${hostname}/guide?x=1`);
    assert.equal((await get('quire.test', `/v1/orgs/${t.org.id}`, { authorization: `Bearer ${t.admin.token}` })).statusCode, 200, 'other hosts are the API');
  });

  test('a share link on the host keeps its key in a cookie for the whole host', async () => {
    const { site, hostname } = await siteOnHost('share-link');
    assert.equal((await get(hostname, '/')).statusCode, 404);
    const link = ok(await t.api('POST', `${sites()}/${site.id}/share-links`, { body: { name: 'Team' } }), 201);
    assert.match(link.urls.published, new RegExp(`^http://${hostname}/\\?share=`));
    const first = await get(hostname, new URL(link.urls.published).pathname + new URL(link.urls.published).search);
    assert.equal(first.statusCode, 200);
    const cookie = (first.cookies as { name: string; value: string; path?: string }[]).find((c) => c.name === 'quire_site_share')!;
    assert.equal(cookie.path, '/');
    assert.equal((await get(hostname, '/guide', { cookie: `quire_site_share=${cookie.value}` })).statusCode, 200);
  });

  test('over real HTTP: a page and the MCP endpoint answer on the host', async () => {
    const { hostname } = await siteOnHost();
    const origin = await listenOnRandomPort(t);
    const { port } = new URL(origin);
    const send = (method: string, path: string, body?: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const headers: Record<string, string> = { host: hostname };
        if (body) Object.assign(headers, { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': String(Buffer.byteLength(body)) });
        const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        });
        req.on('error', reject);
        req.end(body);
      });
    const page = await send('GET', '/guide');
    assert.equal(page.status, 200);
    assert.match(page.body, /<h1[^>]*>Guide<\/h1>/);
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
    };
    const answer = await send('POST', '/~gitbook/mcp', JSON.stringify(init));
    assert.equal(answer.status, 200, answer.body);
    assert.equal(JSON.parse(answer.body).result.serverInfo.name, 'Acme Docs');
  });
});
