import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok } from '../../../test/assertions.ts';
import { buildChangeRequest, buildPage, buildSpace, editLive, markdown, mergeChangeRequest, writeContent } from '../../../test/factories.ts';

let t: TestServer;
before(async () => {
  t = await startServer({ env: { ALLOW_PRIVATE_FETCH: 'true' } });
});
after(async () => t.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const hello = Buffer.from('Hello, links!').toString('base64');

/** A space with a target page, a file, and a page linking to both, to a missing page and to a URL. */
async function linkedSpace(url = 'https://example.test/docs') {
  const space = await buildSpace(t, { title: 'Links' });
  const target = await buildPage(t, space.id, { title: 'Target', markdown: '## Setup\n\nSteps.' });
  const cr = await buildChangeRequest(t, space.id);
  const res = ok(
    await t.api('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
      body: { changes: [{ operation: 'insert_files', files: [{ name: 'hello.txt', contentType: 'text/plain', base64: hello }] }] },
    }),
  );
  await mergeChangeRequest(t, space.id, cr.id);
  const fileId: string = res.insertedFiles[0].id;
  const source = await buildPage(t, space.id, {
    title: 'Source',
    markdown: `See [target](/pages/${target}), [setup](/pages/${target}#setup), [the file](/files/${fileId}), [gone](/pages/nope) and [docs](${url}).`,
  });
  return { spaceId: space.id as string, target, source, fileId };
}

const list = async (path: string) => ok(await t.api('GET', path));
const keys = (body: Json) =>
  body.items.map((i: Json) => {
    const ref = i.targetReference;
    const target = !ref ? '(none)' : ref.kind === 'url' ? ref.url : ref.kind === 'file' ? `file:${ref.file.id}` : `page:${ref.page.id}${ref.internalLocation ? `#${ref.internalLocation.anchor}` : ''}`;
    return `${target} ${i.status}`;
  });
const locations = (item: Json) => item.locationReferences.map((l: Json) => l.page.id);

describe('listSpaceLinks', () => {
  test('every link of the space, by target, with its status and where it appears', async () => {
    const s = await linkedSpace();
    const body = await list(`/v1/spaces/${s.spaceId}/links`);
    assert.deepEqual(keys(body).sort(), [`(none) broken`, `file:${s.fileId} ok`, `https://example.test/docs ok`, `page:${s.target} ok`, `page:${s.target}#setup ok`].sort());
    assert.deepEqual(body.stats, { total: 5, broken: { total: 1 } });
    assert.equal(body.count, 5);
    for (const item of body.items) {
      assert.deepEqual(locations(item), [s.source]);
      assert.equal(item.locationReferences[0].organization.id, t.org.id);
      assert.equal(item.locationReferences[0].space.id, s.spaceId);
    }
    const file = body.items.find((i: Json) => i.targetReference?.kind === 'file');
    assert.equal(file.relation, 'reference');
    assert.equal(file.targetReference.file.name, 'hello.txt');
  });

  test('status filters the list; stats stay those of the whole space', async () => {
    const s = await linkedSpace();
    const body = await list(`/v1/spaces/${s.spaceId}/links?status=broken`);
    assert.equal(body.count, 1);
    assert.deepEqual(locations(body.items[0]), [s.source]);
    assert.equal(body.stats.total, 5);
  });

  test('pages through the links with next.page', async () => {
    const s = await linkedSpace();
    const seen: string[] = [];
    let page = '';
    for (let i = 0; i < 10; i += 1) {
      const body = await list(`/v1/spaces/${s.spaceId}/links?limit=2${page ? `&page=${encodeURIComponent(page)}` : ''}`);
      seen.push(...keys(body));
      if (!body.next) break;
      page = body.next.page;
    }
    assert.equal(seen.length, 5);
    assert.equal(new Set(seen).size, 5);
  });

  test('a link to a page is broken at once when the page is deleted, and ok again through renames and moves', async () => {
    const s = await linkedSpace();
    const parent = await buildPage(t, s.spaceId, { title: 'Parent' });
    await editLive(t, s.spaceId, [{ operation: 'update_page', page: s.target, title: 'Renamed', into: parent }]);
    let body = await list(`/v1/spaces/${s.spaceId}/links?status=ok`);
    const renamed = body.items.find((i: Json) => i.targetReference?.kind === 'page' && !i.targetReference.internalLocation);
    assert.equal(renamed.targetReference.page.title, 'Renamed');
    assert.equal(renamed.targetReference.page.path, 'parent/renamed');
    await editLive(t, s.spaceId, [{ operation: 'delete_page', page: s.target }]);
    body = await list(`/v1/spaces/${s.spaceId}/links`);
    assert.deepEqual(body.stats.broken, { total: 3 });
  });

  test('an edit that removes a link removes it from the list', async () => {
    const s = await linkedSpace();
    await editLive(t, s.spaceId, [{ operation: 'update_page', page: s.source, document: markdown('No links any more.') }]);
    assert.deepEqual((await list(`/v1/spaces/${s.spaceId}/links`)).items, []);
  });

  test('refused: a space the caller cannot see (404), a bad status (400), a cursor of another list (400)', async () => {
    const s = await linkedSpace();
    const outsider = await t.outsider();
    assertError(await t.api('GET', `/v1/spaces/${s.spaceId}/links`, { token: outsider.token }), 404);
    assertError(await t.api('GET', `/v1/spaces/${s.spaceId}/links?status=bad`), 400, 'status');
    const other = await list(`/v1/spaces/${s.spaceId}/links?limit=1&status=ok`);
    assertError(await t.api('GET', `/v1/spaces/${s.spaceId}/links?limit=1&page=${encodeURIComponent(other.next.page)}`), 400, 'page');
    assertError(await t.api('GET', `/v1/spaces/missing/links`), 404);
  });

  test('a reader may list the links', async () => {
    const s = await linkedSpace();
    const reader = await t.member('read');
    assert.equal(ok(await t.api('GET', `/v1/spaces/${s.spaceId}/links`, { token: reader.token })).count, 5);
  });
});

describe('page links and backlinks in a space', () => {
  test('a page lists its own links; the target lists the page as a backlink; so does the file', async () => {
    const s = await linkedSpace();
    assert.equal((await list(`/v1/spaces/${s.spaceId}/content/page/${s.source}/links`)).count, 5);
    assert.equal((await list(`/v1/spaces/${s.spaceId}/content/page/${s.target}/links`)).count, 0);
    const backlinks = await list(`/v1/spaces/${s.spaceId}/content/page/${s.target}/backlinks`);
    assert.deepEqual(
      backlinks.items.map((l: Json) => [l.kind, l.page.id]),
      [['page', s.source]],
    );
    const fileBacklinks = await list(`/v1/spaces/${s.spaceId}/content/files/${s.fileId}/backlinks`);
    assert.deepEqual(
      fileBacklinks.items.map((l: Json) => l.page.id),
      [s.source],
    );
  });

  test('backlinks follow edits: a second page linking, then the first one deleted', async () => {
    const s = await linkedSpace();
    const second = await buildPage(t, s.spaceId, { title: 'Second', markdown: `Back to [target](/pages/${s.target}).` });
    let backlinks = await list(`/v1/spaces/${s.spaceId}/content/page/${s.target}/backlinks`);
    assert.deepEqual(backlinks.items.map((l: Json) => l.page.id).sort(), [s.source, second].sort());
    await editLive(t, s.spaceId, [{ operation: 'delete_page', page: s.source }]);
    backlinks = await list(`/v1/spaces/${s.spaceId}/content/page/${s.target}/backlinks`);
    assert.deepEqual(
      backlinks.items.map((l: Json) => l.page.id),
      [second],
    );
    assert.equal((await list(`/v1/spaces/${s.spaceId}/content/files/${s.fileId}/backlinks`)).count, 0);
  });

  test('a missing page or file answers 404', async () => {
    const s = await linkedSpace();
    assertError(await t.api('GET', `/v1/spaces/${s.spaceId}/content/page/nope/links`), 404, 'nope');
    assertError(await t.api('GET', `/v1/spaces/${s.spaceId}/content/page/nope/backlinks`), 404, 'nope');
    assertError(await t.api('GET', `/v1/spaces/${s.spaceId}/content/files/nope/backlinks`), 404, 'nope');
  });
});

describe('links in a change request', () => {
  test("deleting the target in a change request breaks the link there (counted as the change request's), not in the space", async () => {
    const s = await linkedSpace();
    const cr = await buildChangeRequest(t, s.spaceId);
    await writeContent(t, s.spaceId, cr.id, [{ operation: 'delete_page', page: s.target }]);
    const inCr = await list(`/v1/spaces/${s.spaceId}/change-requests/${cr.id}/content/page/${s.source}/links`);
    assert.deepEqual(inCr.stats, { total: 5, broken: { total: 3, changeRequest: 2 } });
    const inSpace = await list(`/v1/spaces/${s.spaceId}/content/page/${s.source}/links`);
    assert.deepEqual(inSpace.stats, { total: 5, broken: { total: 1 } });
    assertError(await t.api('GET', `/v1/spaces/${s.spaceId}/change-requests/${cr.id}/content/page/${s.target}/backlinks`), 404);
  });

  test("a page edited in a change request shows the change request's links; the base's pages keep theirs", async () => {
    const s = await linkedSpace();
    const cr = await buildChangeRequest(t, s.spaceId);
    const [, added] = await writeContent(t, s.spaceId, cr.id, [
      { operation: 'update_page', page: s.source, document: markdown('Only text now.') },
      { operation: 'insert_page', title: 'New', document: markdown(`Shows [the file](/files/${s.fileId}).`) },
    ]);
    assert.equal((await list(`/v1/spaces/${s.spaceId}/change-requests/${cr.id}/content/page/${s.source}/links`)).count, 0);
    const fileBacklinks = await list(`/v1/spaces/${s.spaceId}/change-requests/${cr.id}/content/files/${s.fileId}/backlinks`);
    assert.deepEqual(
      fileBacklinks.items.map((l: Json) => l.page.id),
      [added],
    );
    assert.equal((await list(`/v1/spaces/${s.spaceId}/change-requests/${cr.id}/content/page/${s.target}/backlinks`)).count, 0);
    // The space is untouched until the merge, then follows it.
    assert.deepEqual((await list(`/v1/spaces/${s.spaceId}/content/files/${s.fileId}/backlinks`)).items.map((l: Json) => l.page.id), [s.source]);
    await mergeChangeRequest(t, s.spaceId, cr.id);
    assert.deepEqual((await list(`/v1/spaces/${s.spaceId}/content/files/${s.fileId}/backlinks`)).items.map((l: Json) => l.page.id), [added]);
  });

  test('a page untouched by the change request keeps its links from the base', async () => {
    const s = await linkedSpace();
    const cr = await buildChangeRequest(t, s.spaceId);
    await writeContent(t, s.spaceId, cr.id, [{ operation: 'insert_page', title: 'Other', document: markdown('Text.') }]);
    const inCr = await list(`/v1/spaces/${s.spaceId}/change-requests/${cr.id}/content/page/${s.source}/links`);
    assert.deepEqual(inCr.stats, { total: 5, broken: { total: 1, changeRequest: 0 } });
    assert.equal((await list(`/v1/spaces/${s.spaceId}/change-requests/${cr.id}/content/page/${s.target}/backlinks`)).count, 1);
  });

  test('refused: a missing change request, and an outsider', async () => {
    const s = await linkedSpace();
    assertError(await t.api('GET', `/v1/spaces/${s.spaceId}/change-requests/nope/content/page/${s.source}/links`), 404);
    const cr = await buildChangeRequest(t, s.spaceId);
    const outsider = await t.outsider();
    assertError(await t.api('GET', `/v1/spaces/${s.spaceId}/change-requests/${cr.id}/content/files/${s.fileId}/backlinks`, { token: outsider.token }), 404);
  });
});

describe('documents stored before links were extracted', () => {
  test('the worker extracts their links once, and the lists show them', async () => {
    const space = await buildSpace(t, { title: 'Old' });
    const target = await buildPage(t, space.id, { title: 'Target' });
    const source = await buildPage(t, space.id, { title: 'Source', markdown: `[target](/pages/${target})` });
    // As if the document had been written before migration 0009.
    const page = ok(await t.api('GET', `/v1/spaces/${space.id}/content/page/${source}`));
    const version = await t.db.selectFrom('page_versions').select('document_id').where('page_id', '=', page.id).where('to_seq', 'is', null).executeTakeFirstOrThrow();
    await t.db.deleteFrom('document_links').where('document_id', '=', version.document_id!).execute();
    await t.db.updateTable('documents').set({ links_extracted: 0 }).where('id', '=', version.document_id!).execute();
    assert.equal((await list(`/v1/spaces/${space.id}/content/page/${target}/backlinks`)).count, 0);
    await t.app.jobs.runDue();
    assert.equal((await list(`/v1/spaces/${space.id}/content/page/${target}/backlinks`)).count, 1);
    await t.app.jobs.runDue();
    const rows = await t.db.selectFrom('document_links').select('position').where('document_id', '=', version.document_id!).execute();
    assert.equal(rows.length, 1);
  });
});

describe('external link checks by the job worker', () => {
  let server: Server;
  let base: string;
  const requests: string[] = [];
  before(async () => {
    server = createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      if (req.url === '/no-head' && req.method === 'HEAD') return void res.writeHead(405).end();
      if (req.url === '/no-head' || req.url === '/fine') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>hello</p>');
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('a URL answering 404 becomes broken after the check; HEAD refused falls back to GET; results are kept with their date', async () => {
    const space = await buildSpace(t, { title: 'External' });
    const page = await buildPage(t, space.id, { title: 'Out', markdown: `[a](${base}/fine) [b](${base}/no-head) [c](${base}/missing)` });
    const path = `/v1/spaces/${space.id}/content/page/${page}/links`;
    assert.deepEqual((await list(path)).stats.broken, { total: 0 }, 'unchecked links are ok');
    // One URL per host per run: three runs check the three URLs of this host.
    for (let i = 0; i < 3; i += 1) await t.app.jobs.runDue();
    const body = await list(path);
    assert.deepEqual(keys(body).sort(), [`${base}/fine ok`, `${base}/missing broken`, `${base}/no-head ok`].sort());
    assert.ok(requests.includes('HEAD /no-head') && requests.includes('GET /no-head'));
    assert.ok(!requests.includes('GET /fine'), 'a HEAD that answers is enough');
    const checks = await t.db.selectFrom('link_checks').selectAll().where('url', 'like', `${base}%`).orderBy('url').execute();
    assert.deepEqual(
      checks.map((c) => [c.url.slice(base.length), c.status, c.http_status, c.checked_at]),
      [
        ['/fine', 'ok', 200, t.clock.now().toISOString()],
        ['/missing', 'broken', 404, t.clock.now().toISOString()],
        ['/no-head', 'ok', 200, t.clock.now().toISOString()],
      ],
    );
    // Checked again only a day later.
    const before = requests.length;
    await t.app.jobs.runDue();
    assert.equal(requests.length, before);
  });
});
