import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError } from '../../../test/assertions.ts';
import { buildChangeRequest, buildSpace } from '../../../test/factories.ts';
import { archive, docx, PNG } from './documents.test-support.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe('importing documents and archives', () => {
  let t: TestServer;
  let server: Server;
  let base: string;
  const served = new Map<string, { type: string; body: Buffer | string }>();

  before(async () => {
    t = await startServer({ env: { ALLOW_PRIVATE_FETCH: 'true' } });
    server = createServer((req, res) => {
      const item = served.get(req.url ?? '');
      if (!item) {
        res.writeHead(404).end('missing');
        return;
      }
      res.writeHead(200, { 'content-type': item.type }).end(item.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    served.set('/notes.md', { type: 'text/markdown', body: '---\ndescription: Notes of the week\n---\n\n# Weekly notes\n\nSome **bold** text.\n\n- one\n- two\n' });
    served.set('/plain-notes.md', { type: 'text/markdown', body: 'No title here.\n' });
    served.set('/page.html', { type: 'text/html', body: '<html><head><title>Page</title></head><body><main><h1>Hello page</h1><p>An <em>HTML</em> document with a <a href="https://example.com/">link</a>.</p></main></body></html>' });
    served.set('/deep.html', { type: 'text/html', body: `<body>${'<div>'.repeat(5000)}x${'</div>'.repeat(5000)}</body>` });
    served.set('/release.docx', { type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', body: docx() });
    served.set('/not-a.docx', { type: 'application/octet-stream', body: 'plain text' });
    served.set('/book.zip', {
      type: 'application/zip',
      body: archive({
        'book/README.md': '# Book\n\nStart [here](chapter/one.md#begin).\n',
        'book/SUMMARY.md': '# Table of contents\n\n* [Book](README.md)\n\n## Chapters\n\n* [One](chapter/one.md)\n* [Site](https://example.com/)\n',
        'book/chapter/one.md': '# One\n\n## Begin\n\n![Logo](../.gitbook/assets/logo.png)\n',
        'book/.gitbook/assets/logo.png': PNG,
      }),
    });
    served.set('/folders.zip', { type: 'application/zip', body: archive({ 'intro.md': '# Intro\n', 'guide/README.md': '# Guide\n', 'guide/setup.md': '# Setup\n' }) });
    served.set('/broken.zip', { type: 'application/zip', body: 'not a zip' });
    served.set('/mkdocs.zip', {
      type: 'application/zip',
      body: archive({
        'mkdocs.yml': 'site_name: Demo\nnav:\n  - Home: index.md\n',
        'docs/index.md': '# Home\n\nText[^1] with :material-check:\n\n[^1]: A note.\n',
      }),
    });
  });

  after(async () => {
    await t.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const importInto = (path: string, url: string, source: string) => t.api('POST', `${path}/content/import`, { body: { url, source } });
  const pagesOf = async (path: string): Promise<Json[]> => (await t.api('GET', `${path}/content/pages`)).body.pages;
  const markdownOf = async (path: string, id: string): Promise<string> => (await t.api('GET', `${path}/content/page/${id}?format=markdown`)).body.markdown;

  test('a markdown document imports as a page, its front matter and title kept', async () => {
    const space = await buildSpace(t);
    const path = `/v1/spaces/${space.id}`;
    const res = await importInto(path, `${base}/notes.md`, 'markdown');
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.importedResources, 1);
    const [page] = await pagesOf(path);
    assert.equal(page.title, 'Weekly notes');
    assert.equal(page.description, 'Notes of the week');
    assert.match(await markdownOf(path, page.id), /\*\*bold\*\*/);
    await importInto(path, `${base}/plain-notes.md`, 'markdown');
    assert.equal((await pagesOf(path))[1].title, 'plain notes');
  });

  test('an HTML document imports as a page', async () => {
    const space = await buildSpace(t);
    const path = `/v1/spaces/${space.id}`;
    assert.equal((await importInto(path, `${base}/page.html`, 'html')).status, 201);
    const [page] = await pagesOf(path);
    assert.equal(page.title, 'Hello page');
    assert.match(await markdownOf(path, page.id), /An \*HTML\* document with a \[link\]\(https:\/\/example\.com\/\)/);
  });

  test('HTML nested 5,000 deep is refused with a 400 naming the limit, and nothing is written', async () => {
    const space = await buildSpace(t);
    assertError(await importInto(`/v1/spaces/${space.id}`, `${base}/deep.html`, 'html'), 400, /more than 256 deep/);
    assert.equal((await pagesOf(`/v1/spaces/${space.id}`)).length, 0);
  });

  test('a Word document imports as a page with its headings, marks and image', async () => {
    const space = await buildSpace(t);
    const path = `/v1/spaces/${space.id}`;
    const res = await importInto(path, `${base}/release.docx`, 'docx');
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.importedResources, 2);
    const [page] = await pagesOf(path);
    assert.equal(page.title, 'Release notes');
    const md = await markdownOf(path, page.id);
    assert.match(md, /\*\*faster\*\*/);
    assert.match(md, /## Details/);
    const files = (await t.api('GET', `${path}/content/files`)).body.items;
    assert.equal(files.length, 1);
    assert.match(md, new RegExp(`/files/${files[0].id}`));
    assertError(await importInto(path, `${base}/not-a.docx`, 'docx'), 422, /not a Word/);
  });

  test('a zipped Git Sync layout adds its tree, groups, links and assets; a folder of markdown files its folders', async () => {
    const space = await buildSpace(t);
    const path = `/v1/spaces/${space.id}`;
    const res = await importInto(path, `${base}/book.zip`, 'zip');
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const pages = await pagesOf(path);
    assert.deepEqual(
      pages.map((p) => [p.title, p.type]),
      [
        ['Book', 'document'],
        ['Chapters', 'group'],
      ],
    );
    const one = pages[1].pages[0];
    assert.equal(one.title, 'One');
    assert.equal(pages[1].pages[1].type, 'link');
    assert.match(await markdownOf(path, pages[0].id), new RegExp(`/pages/${one.id}#begin`));
    assert.match(await markdownOf(path, one.id), /\/files\/[A-Za-z0-9]+/);

    assert.deepEqual(res.body.report, { layout: 'gitbook', notes: [], pages: [] });

    const folders = await importInto(path, `${base}/folders.zip`, 'zip');
    assert.equal(folders.body.report.layout, 'folders');
    const after = await pagesOf(path);
    assert.equal(after.length, 4, 'added after what was there');
    assert.deepEqual(
      after.slice(2).map((p) => [p.title, (p.pages ?? []).map((c: Json) => c.title)]),
      [
        ['Guide', ['Setup']],
        ['Intro', []],
      ],
    );
  });

  test('an archive’s import says which layout it read and, per page, what it could not carry over', async () => {
    const space = await buildSpace(t);
    const res = await importInto(`/v1/spaces/${space.id}`, `${base}/mkdocs.zip`, 'zip');
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(res.body.report, {
      layout: 'mkdocs',
      notes: [],
      pages: [{ file: 'docs/index.md', title: 'Home', notes: ['icon shortcodes drawn with the Font Awesome icon of the same name'] }],
    });
    // Its footnote is an annotation now, which GitBook's markdown writes as a footnote again.
    const [home] = await pagesOf(`/v1/spaces/${space.id}`);
    assert.match(await markdownOf(`/v1/spaces/${space.id}`, home.id), /\[\^1\][\s\S]*\n\[\^1\]: /);
  });

  test('a zip imports into a change request, under a page', async () => {
    const space = await buildSpace(t);
    const cr = await buildChangeRequest(t, space.id, { pages: ['Home'] });
    const path = `/v1/spaces/${space.id}/change-requests/${cr.id}`;
    const [home] = await pagesOf(path);
    const res = await t.api('POST', `${path}/content/page/${home.id}/import`, { body: { url: `${base}/folders.zip`, source: 'zip' } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const [after] = await pagesOf(path);
    assert.deepEqual(
      after.pages.map((p: Json) => p.title),
      ['Guide', 'Intro'],
    );
    assert.equal((await pagesOf(`/v1/spaces/${space.id}`)).length, 0, 'the main content is untouched');
  });

  test('what cannot be imported is refused, naming why', async () => {
    const space = await buildSpace(t);
    const path = `/v1/spaces/${space.id}`;
    assertError(await importInto(path, `${base}/broken.zip`, 'zip'), 422, /not a zip/);
    assertError(await importInto(path, `${base}/missing.md`, 'markdown'), 422, /HTTP 404/);
    assertError(await importInto(path, `${base}/notes.md`, 'notion'), 400, /body\/source.*notion/);
    const reader = await t.member('read');
    assertError(await t.api('POST', `${path}/content/import`, { body: { url: `${base}/notes.md`, source: 'markdown' }, token: reader.token }), 403);
    assert.equal((await pagesOf(path)).length, 0);
  });
});
