import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SignJWT } from 'jose';
import { listenOnRandomPort, startServer, type TestServer } from '../../../test/helpers.ts';
import { buildSpace, editLive } from '../../../test/factories.ts';
import { ok } from '../../../test/assertions.ts';

/*
 * A published site's MCP endpoint, driven by the official SDK's own client over streamable HTTP against a
 * real server: the tools see what the visitor may see, and a site closed to the visitor (or to agents) has none.
 */

describe("a site's MCP endpoint (<site URL>/~gitbook/mcp)", () => {
  let t: TestServer;
  let origin: string;
  const sites = () => `/v1/orgs/${t.org.id}/sites`;
  const clients: Client[] = [];

  before(async () => {
    t = await startServer();
    origin = await listenOnRandomPort(t);
  });
  after(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await t.close();
  });

  async function publishedSite(visibility = 'public') {
    const space = await buildSpace(t, { title: 'Docs' });
    await editLive(t, space.id, [
      { operation: 'insert_page', title: 'Introduction', document: { markdown: 'Welcome to the docs.' } },
      { operation: 'insert_page', title: 'Guide', ref: 'guide', document: { markdown: 'Read [the introduction](../introduction.md).\n\n## Setup\n\nTurn the flux capacitor on.' } },
      { operation: 'insert_page', title: 'Install', into: 'guide', document: { markdown: 'Run the installer.' } },
      { operation: 'insert_page', title: 'Secret', hidden: true, document: { markdown: 'Hidden but reachable.' } },
      { operation: 'insert_page', title: 'Beta', condition: 'visitor.claims.beta === true', document: { markdown: 'Beta only.' } },
    ]);
    const site = ok(await t.api('POST', sites(), { body: { title: 'Acme Docs', visibility, spaces: [space.id] } }), 201);
    ok(await t.api('POST', `${sites()}/${site.id}/publish`));
    return { site, endpoint: `${origin}/sites/${site.id}/~gitbook/mcp` };
  }

  async function connect(url: string, headers: Record<string, string> = {}) {
    const client = new Client({ name: 'quire-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
    clients.push(client);
    return client;
  }

  const notFound = (error: unknown) => (error as { code?: number }).code === 404;
  const textOf = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as { type: string; text: string }[]).map((c) => c.text).join('\n');

  test('an agent lists the tools, searches body text, reads pages as markdown and lists the pages', async () => {
    const { site, endpoint } = await publishedSite();
    const client = await connect(endpoint);
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), ['list_pages', 'read_page', 'search']);

    const found = textOf(await client.callTool({ name: 'search', arguments: { query: 'flux capacitor' } }));
    assert.match(found, /## Guide › Setup/);
    assert.match(found, new RegExp(`URL: ${origin}/sites/${site.id}/guide#setup`));
    assert.match(found, /Turn the flux capacitor/);
    assert.match(textOf(await client.callTool({ name: 'search', arguments: { query: 'zebra' } })), /No page matches "zebra"/);

    const install = textOf(await client.callTool({ name: 'read_page', arguments: { path: 'guide/install' } }));
    assert.equal(install, '# Install\n\nRun the installer.\n');
    const byUrl = await client.callTool({ name: 'read_page', arguments: { path: `${origin}/sites/${site.id}/guide.md` } });
    assert.match(textOf(byUrl), new RegExp(`\\[the introduction\\]\\(${origin}/sites/${site.id}/\\)`), 'links are published URLs');
    assert.match(textOf(await client.callTool({ name: 'read_page', arguments: { path: 'secret' } })), /Hidden but reachable\./, 'a hidden page is read by its path');

    const beta = await client.callTool({ name: 'read_page', arguments: { path: 'beta' } });
    assert.equal(beta.isError, true, 'a page whose condition fails is not there');
    assert.match(textOf(beta), /No page at "beta"/);
    assert.equal((await client.callTool({ name: 'read_page', arguments: {} })).isError, true);

    const list = textOf(await client.callTool({ name: 'list_pages', arguments: {} }));
    assert.match(list, /^# Acme Docs/);
    assert.match(list, new RegExp(`- \\[Install\\]\\(${origin}/sites/${site.id}/guide/install\\.md\\)`));
    assert.doesNotMatch(list, /Secret|Beta/, 'hidden pages and pages for others are not listed');
  });

  test('read_page finds a page by its id', async () => {
    const space = await buildSpace(t, { title: 'Ids' });
    const [pageId] = await editLive(t, space.id, [{ operation: 'insert_page', title: 'Only page', document: { markdown: 'Found by id.' } }]);
    const site = ok(await t.api('POST', sites(), { body: { title: 'Ids', spaces: [space.id] } }), 201);
    ok(await t.api('POST', `${sites()}/${site.id}/publish`));
    const client = await connect(`${origin}/sites/${site.id}/~gitbook/mcp`);
    assert.match(textOf(await client.callTool({ name: 'read_page', arguments: { id: pageId } })), /Found by id\./);
    assert.equal((await client.callTool({ name: 'read_page', arguments: { id: 'nope' } })).isError, true);
  });

  test('a share-link site answers only with its key; a visitor-auth site reads the token of the Authorization header', async () => {
    const shared = await publishedSite('share-link');
    await assert.rejects(connect(shared.endpoint), notFound);
    const link = ok(await t.api('POST', `${sites()}/${shared.site.id}/share-links`, { body: { name: 'Agents' } }), 201);
    const key = new URL(link.urls.published).searchParams.get('share')!;
    const client = await connect(`${shared.endpoint}?share=${encodeURIComponent(key)}`);
    assert.match(textOf(await client.callTool({ name: 'read_page', arguments: { path: 'guide/install' } })), /Run the installer\./);

    const gated = await publishedSite('visitor-auth');
    await assert.rejects(connect(gated.endpoint), notFound);
    const auth = ok(await t.api('GET', `${sites()}/${gated.site.id}/publishing/auth`));
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const token = await new SignJWT({ beta: true })
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience(gated.site.id)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(new TextEncoder().encode(auth.privateKey));
    const visitor = await connect(gated.endpoint, { authorization: `Bearer ${token}` });
    assert.match(textOf(await visitor.callTool({ name: 'read_page', arguments: { path: 'beta' } })), /Beta only\./, 'the claims open adaptive content');
  });

  test('an unpublished site, and a site whose agentsContext is excluded, have no MCP endpoint', async () => {
    const closed = await publishedSite();
    ok(await t.api('PATCH', `${sites()}/${closed.site.id}`, { body: { agentsContext: 'excluded' } }));
    await assert.rejects(connect(closed.endpoint), notFound);
    assert.equal((await fetch(`${origin}/sites/${closed.site.id}/`)).status, 200, 'the site itself is still read');
    ok(await t.api('PATCH', `${sites()}/${closed.site.id}`, { body: { agentsContext: 'included' } }));
    await connect(closed.endpoint);

    const unpublished = await publishedSite();
    ok(await t.api('POST', `${sites()}/${unpublished.site.id}/unpublish`));
    await assert.rejects(connect(unpublished.endpoint), notFound);
  });

  test('POST to a page of a site is a 404; GET on the endpoint is refused (stateless: no event stream)', async () => {
    const { site, endpoint } = await publishedSite();
    assert.equal((await fetch(`${origin}/sites/${site.id}/guide`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status, 404);
    const get = await fetch(endpoint, { headers: { accept: 'text/event-stream' } });
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
  });
});
