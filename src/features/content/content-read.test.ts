import { after, before, describe, test } from 'node:test';
import { png } from '../../../test/fixtures/png.ts';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok } from '../../../test/assertions.ts';
import { buildChangeRequest, buildSpace, writeMain } from '../../../test/factories.ts';

const HAS_MARKDOWN = existsSync(new URL('./document/to-markdown.ts', import.meta.url)) && existsSync(new URL('./document/to-document.ts', import.meta.url));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

function doc(...texts: string[]) {
  return {
    document: {
      object: 'document',
      data: {},
      nodes: texts.map((text, i) => ({ object: 'block', type: 'paragraph', key: `b${i}`, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] })),
    },
  };
}

function textsOf(document: Json): string[] {
  return (document?.nodes ?? []).map((n: Json) => (n.nodes ?? []).flatMap((t: Json) => (t.leaves ?? []).map((l: Json) => l.text)).join(''));
}

function outline(pages: Json[]): string[] {
  return pages.map((p) => (p.pages?.length ? `${p.title}(${outline(p.pages).join(',')})` : p.title));
}


describe('content reads', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  async function writeCr(spaceId: string, crId: string, changes: unknown[]) {
    return ok(await t.api('POST', `/v1/spaces/${spaceId}/change-requests/${crId}/content?compat=false`, { body: { changes } })) as { changeRequest: Json; changes: Json[]; insertedFiles: Json[] };
  }

  /** Page ids of the main line by title, after writing a small tree there. */
  async function spaceWithTree() {
    const space = await buildSpace(t);
    await writeMain(t, space.id, [
      { operation: 'insert_page', title: 'Home', ref: 'home', document: doc('Welcome', 'to the docs') },
      { operation: 'insert_page', title: 'Guides', ref: 'guides', emoji: '📚', document: {} },
      { operation: 'insert_page', title: 'Install', ref: 'install', into: 'guides', document: doc('How to install') },
      { operation: 'insert_page', title: 'Linux', ref: 'linux', into: 'install', description: 'On Linux', document: doc('apt install it') },
      { operation: 'insert_page', title: 'Configure', ref: 'configure', into: 'guides', document: {} },
    ]);
    const pages = (await t.api('GET', `/v1/spaces/${space.id}/content/pages`)).body.pages;
    const ids: Record<string, string> = {};
    const walk = (list: Json[]) => {
      for (const p of list) {
        ids[p.title] = p.id;
        walk(p.pages ?? []);
      }
    };
    walk(pages);
    const revision = (await t.api('GET', `/v1/spaces/${space.id}`)).body.revision as string;
    return { spaceId: space.id, initialRevision: space.revision, revision, ids };
  }

  describe('getCurrentRevision and getRevisionById', () => {
    test('the current revision holds the page tree, files, parents and type', async () => {
      const s = await spaceWithTree();
      const res = await t.api('GET', `/v1/spaces/${s.spaceId}/content`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const r = res.body;
      assert.equal(r.object, 'revision');
      assert.equal(r.id, s.revision);
      assert.deepEqual(r.parents, [s.initialRevision]);
      assert.equal(r.type, 'edits');
      assert.deepEqual(r.variables, {});
      assert.deepEqual(r.files, []);
      assert.deepEqual(r.reusableContents, []);
      assert.ok(!Number.isNaN(Date.parse(r.createdAt)));
      assert.ok(r.urls.app.startsWith('http://quire.test/'));
      assert.deepEqual(outline(r.pages), ['Home', 'Guides(Install(Linux),Configure)']);
      const linux = r.pages[1].pages[0].pages[0];
      assert.equal(linux.path, 'guides/install/linux');
      assert.equal(linux.document, undefined, 'a revision lists pages without their documents');
      assert.equal(r.pages[1].emoji, '📚');
    });

    test('a new space has an empty first revision; metadata and computed flags are accepted', async () => {
      const space = await buildSpace(t);
      const res = await t.api('GET', `/v1/spaces/${space.id}/content?metadata=false&computed=false`);
      assert.equal(res.status, 200);
      assert.equal(res.body.id, space.revision);
      assert.deepEqual(res.body.pages, []);
      assert.deepEqual(res.body.parents, []);
      assertError(await t.api('GET', `/v1/spaces/${space.id}/content?metadata=maybe`), 400, 'metadata');
    });

    test('older revisions of the main line stay readable as they were', async () => {
      const s = await spaceWithTree();
      await writeMain(t, s.spaceId, [
        { operation: 'update_page', page: s.ids.Home!, title: 'Start', document: doc('Changed') },
        { operation: 'delete_page', page: s.ids.Guides! },
      ]);
      const old = await t.api('GET', `/v1/spaces/${s.spaceId}/revisions/${s.revision}`);
      assert.equal(old.status, 200);
      assert.deepEqual(outline(old.body.pages), ['Home', 'Guides(Install(Linux),Configure)']);
      const first = await t.api('GET', `/v1/spaces/${s.spaceId}/revisions/${s.initialRevision}`);
      assert.deepEqual(first.body.pages, []);
      const current = await t.api('GET', `/v1/spaces/${s.spaceId}/content`);
      assert.deepEqual(outline(current.body.pages), ['Start']);
    });

    test("an older revision of a change request stays readable and unchanged after later writes", async () => {
      const s = await spaceWithTree();
      const cr = await buildChangeRequest(t, s.spaceId);
      const first = await writeCr(s.spaceId, cr.id, [
        { operation: 'insert_page', title: 'Draft', ref: 'd', document: doc('draft v1') },
        { operation: 'update_page', page: s.ids.Home!, title: 'Home v1' },
      ]);
      const r1 = first.changeRequest.revision;
      const snapshot = (await t.api('GET', `/v1/spaces/${s.spaceId}/revisions/${r1}`)).body;
      const draftId = first.changes.find((c) => c.ref === 'd').page.id;
      await writeCr(s.spaceId, cr.id, [
        { operation: 'update_page', page: draftId, title: 'Draft v2', document: doc('draft v2') },
        { operation: 'delete_page', page: s.ids.Guides! },
        { operation: 'insert_page', title: 'Later', document: {} },
      ]);
      await writeCr(s.spaceId, cr.id, [{ operation: 'delete_page', page: draftId }]);
      const again = await t.api('GET', `/v1/spaces/${s.spaceId}/revisions/${r1}`);
      assert.equal(again.status, 200);
      assert.deepEqual(again.body, snapshot);
      assert.deepEqual(outline(again.body.pages), ['Home v1', 'Guides(Install(Linux),Configure)', 'Draft']);
      const now = await t.api('GET', `/v1/spaces/${s.spaceId}/change-requests/${cr.id}/content`);
      assert.deepEqual(outline(now.body.pages), ['Home v1', 'Later']);
    });

    test('older change request revisions survive the main line moving on', async () => {
      const s = await spaceWithTree();
      const cr = await buildChangeRequest(t, s.spaceId);
      const r1 = (await writeCr(s.spaceId, cr.id, [{ operation: 'insert_page', title: 'Mine', document: {} }])).changeRequest.revision;
      const before = (await t.api('GET', `/v1/spaces/${s.spaceId}/revisions/${r1}`)).body;
      await writeMain(t, s.spaceId, [
        { operation: 'update_page', page: s.ids.Home!, title: 'Main moved' },
        { operation: 'insert_page', title: 'Main only', document: {} },
      ]);
      assert.deepEqual((await t.api('GET', `/v1/spaces/${s.spaceId}/revisions/${r1}`)).body, before);
      const crContent = await t.api('GET', `/v1/spaces/${s.spaceId}/change-requests/${cr.id}/content`);
      assert.deepEqual(outline(crContent.body.pages), ['Home', 'Guides(Install(Linux),Configure)', 'Mine'], 'a change request sees its base, not the newer main');
    });

    test('unknown revisions and revisions of another space are 404', async () => {
      const s = await spaceWithTree();
      const other = await spaceWithTree();
      assertError(await t.api('GET', `/v1/spaces/${s.spaceId}/revisions/nope`), 404);
      assertError(await t.api('GET', `/v1/spaces/${s.spaceId}/revisions/${other.revision}`), 404);
      const cr = await buildChangeRequest(t, other.spaceId);
      assertError(await t.api('GET', `/v1/spaces/${s.spaceId}/revisions/${cr.revision}`), 404);
      assert.equal((await t.api('GET', `/v1/spaces/${other.spaceId}/revisions/${cr.revision}`)).status, 200);
    });
  });

  describe('getRevisionOfChangeRequestById', () => {
    test("a change request's content is its base with its own changes over it", async () => {
      const s = await spaceWithTree();
      const cr = await buildChangeRequest(t, s.spaceId);
      const fresh = await t.api('GET', `/v1/spaces/${s.spaceId}/change-requests/${cr.id}/content`);
      assert.equal(fresh.status, 200);
      assert.equal(fresh.body.id, cr.revision);
      assert.deepEqual(fresh.body.parents, [s.revision]);
      assert.deepEqual(outline(fresh.body.pages), ['Home', 'Guides(Install(Linux),Configure)']);
      const body = await writeCr(s.spaceId, cr.id, [
        { operation: 'update_page', page: s.ids.Install!, into: null },
        { operation: 'delete_page', page: s.ids.Configure! },
        { operation: 'insert_page', title: 'News', into: s.ids.Guides!, document: {} },
      ]);
      const res = await t.api('GET', `/v1/spaces/${s.spaceId}/change-requests/${cr.number}/content`);
      assert.equal(res.body.id, body.changeRequest.revision);
      assert.deepEqual(outline(res.body.pages), ['Home', 'Guides(News)', 'Install(Linux)']);
      assert.equal(res.body.pages[2].pages[0].path, 'install/linux');
      assertError(await t.api('GET', `/v1/spaces/${s.spaceId}/change-requests/missing/content`), 404);
    });
  });

  describe('pages', () => {
    test('listPages and listPagesInChangeRequest give the nested tree with paths', async () => {
      const s = await spaceWithTree();
      const cr = await buildChangeRequest(t, s.spaceId);
      await writeCr(s.spaceId, cr.id, [{ operation: 'update_page', page: s.ids.Linux!, title: 'GNU Linux' }]);
      const main = await t.api('GET', `/v1/spaces/${s.spaceId}/content/pages`);
      assert.equal(main.status, 200);
      assert.deepEqual(outline(main.body.pages), ['Home', 'Guides(Install(Linux),Configure)']);
      const paths = (list: Json[]): string[] => list.flatMap((p) => [p.path, ...paths(p.pages ?? [])]);
      assert.deepEqual(paths(main.body.pages), ['home', 'guides', 'guides/install', 'guides/install/linux', 'guides/configure']);
      const inCr = await t.api('GET', `/v1/spaces/${s.spaceId}/change-requests/${cr.id}/content/pages`);
      assert.deepEqual(paths(inCr.body.pages), ['home', 'guides', 'guides/install', 'guides/install/gnu-linux', 'guides/configure']);
    });

    test('getPageById gives the page, its document, its sub-pages and its path', async () => {
      const s = await spaceWithTree();
      const res = await t.api('GET', `/v1/spaces/${s.spaceId}/content/page/${s.ids.Install}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const page = res.body;
      assert.equal(page.id, s.ids.Install);
      assert.equal(page.title, 'Install');
      assert.equal(page.type, 'document');
      assert.equal(page.kind, 'sheet');
      assert.equal(page.slug, 'install');
      assert.equal(page.path, 'guides/install');
      assert.deepEqual(textsOf(page.document), ['How to install']);
      assert.equal(page.pages.length, 1);
      assert.equal(page.pages[0].title, 'Linux');
      assert.equal(page.pages[0].path, 'guides/install/linux');
      assert.equal(page.pages[0].description, 'On Linux');
      assert.equal(page.pages[0].document, undefined, 'sub-pages come without their documents');
      assert.ok(page.urls.app.startsWith('http://quire.test/'));
      assert.equal(typeof page.layout, 'object');
      const explicit = await t.api('GET', `/v1/spaces/${s.spaceId}/content/page/${s.ids.Install}?format=document`);
      assert.deepEqual(explicit.body, page);
      const empty = await t.api('GET', `/v1/spaces/${s.spaceId}/content/page/${s.ids.Configure}`);
      assert.equal(empty.body.document, undefined);
      assert.deepEqual(empty.body.pages, []);
    });

    test('getPageInChangeRequestById reads the change request, not the space', async () => {
      const s = await spaceWithTree();
      const cr = await buildChangeRequest(t, s.spaceId);
      const body = await writeCr(s.spaceId, cr.id, [
        { operation: 'update_page', page: s.ids.Home!, document: doc('Edited in the CR') },
        { operation: 'insert_page', title: 'Extra', ref: 'x', into: s.ids.Home!, document: {} },
        { operation: 'delete_page', page: s.ids.Configure! },
      ]);
      const inCr = await t.api('GET', `/v1/spaces/${s.spaceId}/change-requests/${cr.id}/content/page/${s.ids.Home}`);
      assert.deepEqual(textsOf(inCr.body.document), ['Edited in the CR']);
      assert.deepEqual(
        inCr.body.pages.map((p: Json) => p.title),
        ['Extra'],
      );
      const inMain = await t.api('GET', `/v1/spaces/${s.spaceId}/content/page/${s.ids.Home}`);
      assert.deepEqual(textsOf(inMain.body.document), ['Welcome', 'to the docs']);
      assert.deepEqual(inMain.body.pages, []);
      const extra = body.changes.find((c) => c.ref === 'x').page.id;
      assertError(await t.api('GET', `/v1/spaces/${s.spaceId}/content/page/${extra}`), 404);
      assertError(await t.api('GET', `/v1/spaces/${s.spaceId}/change-requests/${cr.id}/content/page/${s.ids.Configure}`), 404);
      assert.equal((await t.api('GET', `/v1/spaces/${s.spaceId}/content/page/${s.ids.Configure}`)).status, 200);
    });

    test('getPageByPath follows nested paths; a missing path is a 404', async () => {
      const s = await spaceWithTree();
      const linux = await t.api('GET', `/v1/spaces/${s.spaceId}/content/path/guides/install/linux`);
      assert.equal(linux.status, 200, JSON.stringify(linux.body));
      assert.equal(linux.body.id, s.ids.Linux);
      assert.deepEqual(textsOf(linux.body.document), ['apt install it']);
      assert.equal((await t.api('GET', `/v1/spaces/${s.spaceId}/content/path/guides`)).body.id, s.ids.Guides);
      assert.equal((await t.api('GET', `/v1/spaces/${s.spaceId}/content/path/guides/`)).body.id, s.ids.Guides);
      assert.equal((await t.api('GET', `/v1/spaces/${s.spaceId}/content/path/guides%2Finstall`)).body.id, s.ids.Install);
      for (const path of ['linux', 'guides/linux', 'guides/install/linux/more', 'nope']) {
        assertError(await t.api('GET', `/v1/spaces/${s.spaceId}/content/path/${path}`), 404, path);
      }
    });

    test('paths with non-Latin slugs are found when percent-encoded', async () => {
      const space = await buildSpace(t);
      await writeMain(t, space.id, [{ operation: 'insert_page', title: '日本語 ガイド', document: {} }]);
      const [page] = (await t.api('GET', `/v1/spaces/${space.id}/content/pages`)).body.pages;
      assert.equal(page.slug, '日本語-ガイド');
      const res = await t.api('GET', `/v1/spaces/${space.id}/content/path/${encodeURIComponent(page.slug)}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.id, page.id);
    });

    test('getPageInChangeRequestByPath sees moves and renames of the change request', async () => {
      const s = await spaceWithTree();
      const cr = await buildChangeRequest(t, s.spaceId);
      await writeCr(s.spaceId, cr.id, [
        { operation: 'update_page', page: s.ids.Install!, into: null, title: 'Setup' },
      ]);
      const moved = await t.api('GET', `/v1/spaces/${s.spaceId}/change-requests/${cr.id}/content/path/setup/linux`);
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      assert.equal(moved.body.id, s.ids.Linux);
      assert.equal(moved.body.path, 'setup/linux');
      assertError(await t.api('GET', `/v1/spaces/${s.spaceId}/change-requests/${cr.id}/content/path/guides/install/linux`), 404);
      assert.equal((await t.api('GET', `/v1/spaces/${s.spaceId}/content/path/guides/install/linux`)).body.id, s.ids.Linux);
    });

    test('unknown page ids are 404', async () => {
      const s = await spaceWithTree();
      const cr = await buildChangeRequest(t, s.spaceId);
      assertError(await t.api('GET', `/v1/spaces/${s.spaceId}/content/page/nope`), 404);
      assertError(await t.api('GET', `/v1/spaces/${s.spaceId}/change-requests/${cr.id}/content/page/nope`), 404);
      const other = await spaceWithTree();
      assertError(await t.api('GET', `/v1/spaces/${s.spaceId}/content/page/${other.ids.Home}`), 404); // a page of another space
    });

    test('format=markdown returns the page as markdown', { skip: !HAS_MARKDOWN && 'the markdown converter is not there yet' }, async () => {
      const s = await spaceWithTree();
      const res = await t.api('GET', `/v1/spaces/${s.spaceId}/content/page/${s.ids.Home}?format=markdown`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.document, undefined);
      assert.match(res.body.markdown, /Welcome\s+to the docs/);
      const empty = await t.api('GET', `/v1/spaces/${s.spaceId}/content/page/${s.ids.Configure}?format=markdown`);
      assert.equal(empty.body.markdown, '');
      const cr = await buildChangeRequest(t, s.spaceId);
      const inCr = await t.api('GET', `/v1/spaces/${s.spaceId}/change-requests/${cr.id}/content/path/home?format=markdown`);
      assert.match(inCr.body.markdown, /Welcome/);
    });

    test('an unknown format is a 400', async () => {
      const s = await spaceWithTree();
      assertError(await t.api('GET', `/v1/spaces/${s.spaceId}/content/page/${s.ids.Home}?format=html`), 400, 'format');
    });
  });

  describe('files', () => {
    const text = (name: string, content: string) => ({ name, contentType: 'text/plain', base64: Buffer.from(content).toString('base64') });

    test('listFiles pages through the files of the space; getFileById reads one; downloadURL serves the bytes', async () => {
      const space = await buildSpace(t);
      await writeMain(t, space.id, [
        { operation: 'insert_files', files: [text('a.txt', 'file a'), text('b.txt', 'file b'), text('c.txt', 'file c')] },
        { operation: 'insert_files', files: [{ name: 'pixel.png', contentType: 'image/png', base64: png(4, 3).toString('base64') }, text('d.txt', 'file d'), text('e.txt', 'file e')] },
      ]);
      const seen: Json[] = [];
      let next: string | undefined;
      let pages = 0;
      do {
        const res = await t.api('GET', `/v1/spaces/${space.id}/content/files?limit=2${next ? `&page=${encodeURIComponent(next)}` : ''}`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.count, 6);
        seen.push(...res.body.items);
        next = res.body.next?.page;
        pages += 1;
      } while (next && pages < 10);
      assert.equal(pages, 3);
      assert.equal(new Set(seen.map((f) => f.id)).size, 6);
      assert.deepEqual(seen.map((f) => f.name).sort(), ['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt', 'pixel.png']);
      const revision = (await t.api('GET', `/v1/spaces/${space.id}/content`)).body;
      assert.equal(revision.files.length, 6);

      const image = seen.find((f) => f.name === 'pixel.png');
      const one = await t.api('GET', `/v1/spaces/${space.id}/content/files/${image.id}`);
      assert.equal(one.status, 200);
      assert.deepEqual(one.body, image);
      assert.equal(image.contentType, 'image/png');
      assert.deepEqual(image.dimensions, { width: 4, height: 3 });
      const download = await t.app.inject({ method: 'GET', url: image.downloadURL.slice('http://quire.test'.length) });
      assert.equal(download.statusCode, 200);
      assert.equal(download.headers['content-type'], 'image/png');
      assert.deepEqual(download.rawPayload, png(4, 3));
      const a = seen.find((f) => f.name === 'a.txt');
      assert.equal(a.size, 6);
      assert.equal(a.dimensions, undefined);
      assert.equal((await t.app.inject({ method: 'GET', url: a.downloadURL.slice('http://quire.test'.length) })).body, 'file a');
    });

    test('files of a change request: its own over its base, read by id; the space does not see them', async () => {
      const space = await buildSpace(t);
      await writeMain(t, space.id, [{ operation: 'insert_files', files: [text('base.txt', 'in main')] }]);
      const cr = await buildChangeRequest(t, space.id);
      const body = await writeCr(space.id, cr.id, [{ operation: 'insert_files', files: [text('one.txt', 'one'), text('two.txt', 'two'), text('three.txt', 'three')] }]);
      const mine = body.insertedFiles[1];
      const listed: Json[] = [];
      let next: string | undefined;
      do {
        const res = await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/files?limit=3${next ? `&page=${encodeURIComponent(next)}` : ''}`);
        assert.equal(res.status, 200);
        assert.equal(res.body.count, 4);
        listed.push(...res.body.items);
        next = res.body.next?.page;
      } while (next);
      assert.deepEqual(listed.map((f) => f.name).sort(), ['base.txt', 'one.txt', 'three.txt', 'two.txt']);
      const one = await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/files/${mine.id}`);
      assert.equal(one.status, 200);
      assert.deepEqual(one.body, mine);
      assertError(await t.api('GET', `/v1/spaces/${space.id}/content/files/${mine.id}`), 404);
      const base = listed.find((f) => f.name === 'base.txt');
      assert.equal((await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/files/${base.id}`)).status, 200);
      assertError(await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/files/nope`), 404);
      assertError(await t.api('GET', `/v1/spaces/${space.id}/content/files/nope`), 404);
      assertError(await t.api('GET', `/v1/spaces/${space.id}/content/files?page=forged`), 400, 'page');
    });
  });

  describe('who may read', () => {
    test('a reader reads every content route; an outsider gets 404 on each', async () => {
      const s = await spaceWithTree();
      const cr = await buildChangeRequest(t, s.spaceId);
      const reader = await t.member('read');
      const outsider = await t.outsider();
      const paths = [
        `/v1/spaces/${s.spaceId}/content`,
        `/v1/spaces/${s.spaceId}/content/pages`,
        `/v1/spaces/${s.spaceId}/content/page/${s.ids.Home}`,
        `/v1/spaces/${s.spaceId}/content/path/home`,
        `/v1/spaces/${s.spaceId}/content/files`,
        `/v1/spaces/${s.spaceId}/revisions/${s.revision}`,
        `/v1/spaces/${s.spaceId}/change-requests/${cr.id}/content`,
        `/v1/spaces/${s.spaceId}/change-requests/${cr.id}/content/pages`,
        `/v1/spaces/${s.spaceId}/change-requests/${cr.id}/content/page/${s.ids.Home}`,
        `/v1/spaces/${s.spaceId}/change-requests/${cr.id}/content/path/home`,
        `/v1/spaces/${s.spaceId}/change-requests/${cr.id}/content/files`,
      ];
      for (const path of paths) {
        assert.equal((await t.api('GET', path, { token: reader.token })).status, 200, path);
        assertError(await t.api('GET', path, { token: outsider.token }), 404);
      }
      assertError(await t.api('GET', `/v1/spaces/${s.spaceId}/content`, { token: null }), 401);
    });
  });
});
