import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startServer, type ApiResponse, type TestServer } from '../../../test/helpers.ts';
import { assertError } from '../../../test/assertions.ts';
import { buildChangeRequest, buildSpace } from '../../../test/factories.ts';

/** A 1×1 PNG. */
const LOGO = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108020000009077532e0000000c4944415408d763f8cfc0000003010100c9fe92ef0000000049454e44ae426082',
  'hex',
);

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A local HTTP server on 127.0.0.1 that logs the paths asked for. */
async function serve(handler: Handler): Promise<{ base: string; requested: string[]; server: Server }> {
  const requested: string[] = [];
  const server = createServer((req, res) => {
    requested.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requested, server };
}

const html = (res: ServerResponse, body: string) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(body);
};

/**
 * The test site: four pages linking each other (one through a redirect), an image used twice, a link to another
 * site, and a chain of pages deeper than the depth bound of the test server (2).
 */
function testSite(elsewhere: string): Handler {
  return (req, res) => {
    switch (req.url) {
      case '/':
        return html(
          res,
          `<!doctype html><html><head><title>Acme Docs</title></head><body>
            <nav><a href="/">Home</a> <a href="/guide.html">Guide</a> <a href="/faq.html">FAQ</a> <a href="${elsewhere}/">Partner</a></nav>
            <main><h1>Welcome</h1>
              <p>Start with the <a href="guide.html">guide</a>, or read the <a href="/faq.html#billing">billing questions</a>.</p>
              <p>The <a href="/old-guide">old guide</a> moved. See also <a href="${elsewhere}/elsewhere">our partner</a>.</p>
              <p><img src="/img/logo.png" alt="Logo"></p>
            </main></body></html>`,
        );
      case '/guide.html':
        return html(
          res,
          `<html><head><title>Guide | Acme</title></head><body><article><h1>Guide</h1><h2>Setup</h2>
            <p>Go <a href="/deep/one.html">deeper</a> or back <a href="/">home</a>.</p>
            <table><thead><tr><th>Key</th><th>Value</th></tr></thead><tbody><tr><td>port</td><td>8080</td></tr></tbody></table>
          </article></body></html>`,
        );
      case '/faq.html':
        return html(
          res,
          `<html><head><title>FAQ</title></head><body><header><nav><a href="/">Home</a></nav></header>
            <h1>FAQ</h1><h2 id="billing">Billing</h2><p>Invoices are <strong>monthly</strong>.</p><img src="/img/logo.png" alt="Logo again">
            <footer>© Acme</footer></body></html>`,
        );
      case '/old-guide':
        res.writeHead(301, { location: '/guide.html' });
        return res.end();
      case '/deep/one.html':
        return html(res, '<main><h1>One</h1><p>Even <a href="two.html">deeper</a>.</p></main>');
      case '/deep/two.html':
        return html(res, '<main><h1>Two</h1></main>');
      case '/img/logo.png':
        res.writeHead(200, { 'content-type': 'image/png' });
        return res.end(LOGO);
      case '/data.json':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{"not":"html"}');
      default:
        res.writeHead(404, { 'content-type': 'text/html' });
        return res.end('<h1>Not found</h1>');
    }
  };
}

interface PageEntry {
  id: string;
  title: string;
  pages: PageEntry[];
}

describe('importing a website', () => {
  let t: TestServer;
  /** A server with the default settings: outbound fetches may not reach private addresses. */
  let strict: TestServer;
  let site: Awaited<ReturnType<typeof serve>>;
  let partner: Awaited<ReturnType<typeof serve>>;

  before(async () => {
    partner = await serve((_req, res) => html(res, '<h1>Partner</h1>'));
    site = await serve(testSite(partner.base));
    t = await startServer({ env: { ALLOW_PRIVATE_FETCH: 'true', IMPORT_MAX_DEPTH: '2' } });
    strict = await startServer();
  });
  after(async () => {
    await Promise.all([t.close(), strict.close()]);
    site.server.close();
    partner.server.close();
  });

  async function pagesOf(path: string): Promise<PageEntry[]> {
    const res = await t.api('GET', `${path}/content/pages`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.pages;
  }

  async function markdownOf(path: string, pageId: string): Promise<string> {
    const res = await t.api('GET', `${path}/content/page/${pageId}?format=markdown`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.markdown;
  }

  async function spaceRevision(spaceId: string, server = t): Promise<string> {
    const res = await server.api('GET', `/v1/spaces/${spaceId}`);
    assert.equal(res.status, 200);
    return res.body.revision;
  }

  /** What every import of the test site must give: its four pages, linked to each other, and its image as a file. */
  async function assertImportedSite(path: string, pages: PageEntry[]) {
    assert.deepEqual(
      pages.map((p) => p.title),
      ['Welcome', 'Guide', 'FAQ', 'One'],
    );
    const [welcome, guide, faq, one] = pages as [PageEntry, PageEntry, PageEntry, PageEntry];

    const files = await t.api('GET', `${path}/content/files`);
    assert.equal(files.status, 200);
    assert.equal(files.body.items.length, 1, 'the image used on two pages is one file');
    const logo = files.body.items[0];
    assert.equal(logo.name, 'logo.png');
    assert.equal(logo.contentType, 'image/png');
    const download = await t.app.inject({ method: 'GET', url: new URL(logo.downloadURL).pathname });
    assert.equal(download.statusCode, 200);
    assert.deepEqual(download.rawPayload, LOGO);

    const home = await markdownOf(path, welcome.id);
    assert.match(home, new RegExp(`\\[guide\\]\\(/pages/${guide.id}\\)`));
    assert.match(home, new RegExp(`\\[billing questions\\]\\(/pages/${faq.id}#billing\\)`));
    assert.match(home, new RegExp(`\\[old guide\\]\\(/pages/${guide.id}\\)`), 'a link through a redirect leads to the page it redirects to');
    assert.ok(home.includes(`[our partner](${partner.base}/elsewhere)`), 'a link to another site stays a URL');
    assert.match(home, new RegExp(`!\\[Logo\\]\\(/files/${logo.id}\\)`));
    assert.doesNotMatch(home, /Welcome/, 'the title heading is the title, not content');

    const guideText = await markdownOf(path, guide.id);
    assert.match(guideText, /^## Setup$/m);
    assert.match(guideText, new RegExp(`\\[deeper\\]\\(/pages/${one.id}\\)`));
    assert.match(guideText, new RegExp(`\\[home\\]\\(/pages/${welcome.id}\\)`));
    assert.match(guideText, /\| Key +\| Value +\|/);

    const faqText = await markdownOf(path, faq.id);
    assert.match(faqText, /## Billing/);
    assert.match(faqText, /\*\*monthly\*\*/);
    assert.doesNotMatch(faqText, /© Acme|Home/, 'the site frame is left out');
    assert.match(faqText, new RegExp(`/files/${logo.id}`));

    assert.ok((await markdownOf(path, one.id)).includes(`${site.base}/deep/two.html`), 'a page past the depth bound stays a link to the site');
  }

  test('into a space: the pages of the site, its image as a file, links between pages as page links, one new revision', async () => {
    const space = await buildSpace(t);
    partner.requested.length = 0;
    const res = await t.api('POST', `/v1/spaces/${space.id}/content/import`, { body: { url: `${site.base}/`, source: 'website' } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    // Four pages and the image imported; the fifth page (past the depth bound) found but not imported.
    assert.deepEqual(Object.keys(res.body).sort(), ['importedResources', 'revision', 'totalResources']);
    assert.equal(res.body.importedResources, 5);
    assert.equal(res.body.totalResources, 6);
    assert.equal(res.headers.location, `${t.config.publicUrl}/v1/spaces/${space.id}/revisions/${res.body.revision}`);
    assert.equal(await spaceRevision(space.id), res.body.revision);

    await assertImportedSite(`/v1/spaces/${space.id}`, await pagesOf(`/v1/spaces/${space.id}`));
    assert.deepEqual(partner.requested, [], 'links to another site are not followed');
    assert.ok(!site.requested.includes('/deep/two.html'), 'the page past the depth bound is not fetched');
  });

  test('into a page: the start page replaces its content and title, the other pages become its sub-pages', async () => {
    const space = await buildSpace(t);
    assert.equal((await t.api('POST', `/v1/spaces/${space.id}/content/template`, { body: { id: 'blank' } })).status, 201);
    const [target] = await pagesOf(`/v1/spaces/${space.id}`);
    const res = await t.api('POST', `/v1/spaces/${space.id}/content/page/${target!.id}/import`, { body: { url: `${site.base}/`, source: 'website' } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.importedResources, 5);

    const pages = await pagesOf(`/v1/spaces/${space.id}`);
    assert.equal(pages.length, 1);
    assert.equal(pages[0]!.id, target!.id);
    await assertImportedSite(`/v1/spaces/${space.id}`, [pages[0]!, ...pages[0]!.pages]);
  });

  test('into a change request: its content changes, the space does not until it is merged', async () => {
    const space = await buildSpace(t);
    const before = await spaceRevision(space.id);
    const cr = await buildChangeRequest(t, space.id, { subject: 'Import the old site' });
    const path = `/v1/spaces/${space.id}/change-requests/${cr.id}`;
    const res = await t.api('POST', `${path}/content/import`, { body: { url: `${site.base}/`, source: 'website' } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.headers.location, `${t.config.publicUrl}/v1/spaces/${space.id}/revisions/${res.body.revision}`, 'the revision, in the space of the path');
    assert.equal((await t.api('GET', `${path}/content`)).body.id, res.body.revision);
    await assertImportedSite(path, await pagesOf(path));
    assert.equal(await spaceRevision(space.id), before);
    assert.deepEqual(await pagesOf(`/v1/spaces/${space.id}`), []);
  });

  test('into a page of a change request', async () => {
    const space = await buildSpace(t);
    assert.equal((await t.api('POST', `/v1/spaces/${space.id}/content/template`, { body: { id: 'blank' } })).status, 201);
    const cr = await buildChangeRequest(t, space.id);
    const path = `/v1/spaces/${space.id}/change-requests/${cr.id}`;
    const [target] = await pagesOf(path);
    const res = await t.api('POST', `${path}/content/page/${target!.id}/import`, { body: { url: `${site.base}/guide.html`, source: 'website' } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const [page] = await pagesOf(path);
    assert.equal(page!.title, 'Guide');
    assert.deepEqual(
      page!.pages.map((p) => p.title),
      ['One', 'Welcome', 'Two', 'FAQ'],
    );
  });

  describe('nothing is written when', () => {
    async function assertRefused(res: ApiResponse, status: number, mentions: RegExp, spaceId: string, revision: string, server = t) {
      assertError(res, status, mentions);
      assert.equal(await spaceRevision(spaceId, server), revision, 'no new revision');
    }

    test('the URL cannot be reached: 422', async () => {
      const closed = await serve(() => {});
      closed.server.close();
      const space = await buildSpace(t);
      const revision = await spaceRevision(space.id);
      const res = await t.api('POST', `/v1/spaces/${space.id}/content/import`, { body: { url: `${closed.base}/`, source: 'website' } });
      await assertRefused(res, 422, /connection was refused/, space.id, revision);
    });

    test('the URL is not an HTML page: 422', async () => {
      const space = await buildSpace(t);
      const revision = await spaceRevision(space.id);
      const res = await t.api('POST', `/v1/spaces/${space.id}/content/import`, { body: { url: `${site.base}/data.json`, source: 'website' } });
      await assertRefused(res, 422, /not an HTML page \(Content-Type: application\/json\)/, space.id, revision);
    });

    test('the URL answers an HTTP error: 422', async () => {
      const space = await buildSpace(t);
      const revision = await spaceRevision(space.id);
      const res = await t.api('POST', `/v1/spaces/${space.id}/content/import`, { body: { url: `${site.base}/missing`, source: 'website' } });
      await assertRefused(res, 422, /answered HTTP 404/, space.id, revision);
    });

    test('the URL is on a private address and the server does not allow it: 400, and it is not even fetched', async () => {
      const space = await buildSpace(strict);
      const revision = await spaceRevision(space.id, strict);
      site.requested.length = 0;
      const res = await strict.api('POST', `/v1/spaces/${space.id}/content/import`, { body: { url: `${site.base}/`, source: 'website' } });
      await assertRefused(res, 400, /127\.0\.0\.1 is a loopback address/, space.id, revision, strict);
      assert.deepEqual(site.requested, []);
    });

    test('the URL is not a URL: 400', async () => {
      const space = await buildSpace(t);
      const res = await t.api('POST', `/v1/spaces/${space.id}/content/import`, { body: { url: 'not a url', source: 'website' } });
      assertError(res, 400, /url/);
    });

    test('the URL is not http or https: 400 naming body/url, whether the site is crawled or one document fetched', async () => {
      const space = await buildSpace(t);
      const revision = await spaceRevision(space.id);
      for (const source of ['website', 'markdown']) {
        const res = await t.api('POST', `/v1/spaces/${space.id}/content/import`, { body: { url: 'ftp://example.com/guide.md', source } });
        await assertRefused(res, 400, /^body\/url: only http and https URLs can be imported, not ftp$/, space.id, revision);
      }
    });

    test('a source this server does not import: 400 naming those it does', async () => {
      const space = await buildSpace(t);
      const res = await t.api('POST', `/v1/spaces/${space.id}/content/import`, { body: { url: `${site.base}/`, source: 'confluence' } });
      assertError(res, 400, /"confluence" is not supported.*website, markdown, html, docx, zip/);
      assertError(await t.api('POST', `/v1/spaces/${space.id}/content/import`, { body: { url: `${site.base}/`, source: 'pdf' } }), 400, /source/);
      assertError(await t.api('POST', `/v1/spaces/${space.id}/content/import`, { body: { url: `${site.base}/` } }), 400, /source/);
    });

    test('the page to import into does not exist: 404, before anything is fetched', async () => {
      const space = await buildSpace(t);
      site.requested.length = 0;
      const res = await t.api('POST', `/v1/spaces/${space.id}/content/page/nope/import`, { body: { url: `${site.base}/`, source: 'website' } });
      assertError(res, 404, /No page nope/);
      assert.deepEqual(site.requested, []);
    });

    test('the caller may not edit the content: 403 for a reader, 404 for an outsider, and the site is not fetched', async () => {
      const space = await buildSpace(t);
      const reader = await t.member('read');
      const outsider = await t.outsider();
      site.requested.length = 0;
      const body = { url: `${site.base}/`, source: 'website' };
      assertError(await t.api('POST', `/v1/spaces/${space.id}/content/import`, { token: reader.token, body }), 403, /edit role/);
      assertError(await t.api('POST', `/v1/spaces/${space.id}/content/import`, { token: outsider.token, body }), 404, /space/i);
      assertError(await t.api('POST', `/v1/spaces/${space.id}/content/import`, { token: null, body }), 401, /Authorization|Authentication/);
      assert.deepEqual(site.requested, []);
    });

    test('the space is locked: 403', async () => {
      const space = await buildSpace(t);
      assert.equal((await t.api('PATCH', `/v1/spaces/${space.id}`, { body: { editMode: 'locked' } })).status, 200);
      const revision = await spaceRevision(space.id);
      const res = await t.api('POST', `/v1/spaces/${space.id}/content/import`, { body: { url: `${site.base}/`, source: 'website' } });
      await assertRefused(res, 403, /locked/, space.id, revision);
    });

    test('the change request is archived: 409', async () => {
      const space = await buildSpace(t);
      const cr = await buildChangeRequest(t, space.id);
      assert.equal((await t.api('PATCH', `/v1/spaces/${space.id}/change-requests/${cr.id}`, { body: { status: 'archived' } })).status, 200);
      const res = await t.api('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/import`, { body: { url: `${site.base}/`, source: 'website' } });
      assertError(res, 409, /archived/);
    });
  });
});
