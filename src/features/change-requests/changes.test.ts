import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok } from '../../../test/assertions.ts';
import { buildChangeRequest, buildSpace, writeMain } from '../../../test/factories.ts';
import { page } from '../../../test/merge-scenarios.ts';
import { fileChanges, pageChanges, variableChanges, type FileSide } from '../content/semantic-changes.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe('semantic changes (pure)', () => {
  test('a page only after is created, only before is deleted, on neither side nothing', () => {
    assert.deepEqual(pageChanges({ before: undefined, after: page('A'), pathAfter: 'a' }), [{ type: 'page_created', page: { id: 'A', type: 'document', title: 'A', path: 'a' } }]);
    assert.deepEqual(pageChanges({ before: page('A', { kind: 'group' }), after: undefined }), [{ type: 'page_deleted', page: { id: 'A', type: 'group', title: 'A' } }]);
    assert.deepEqual(pageChanges({ before: undefined, after: undefined }), []);
  });

  test('an unchanged page gives nothing, even with a new updatedAt or position', () => {
    assert.deepEqual(pageChanges({ before: page('A'), after: page('A', { updatedAt: '2027-01-01T00:00:00.000Z', position: 'b0' }) }), []);
  });

  test('edited attributes name what changed, with before and after', () => {
    const [change] = pageChanges({
      before: page('A', { title: 'Old', documentId: 'd1', attributes: { emoji: '🔥' } }),
      after: page('A', { title: 'New', slug: 'new', documentId: 'd2', attributes: { description: 'Now described' } }),
      pathAfter: 'new',
    });
    assert.deepEqual(change, {
      type: 'page_edited',
      page: { id: 'A', type: 'document', title: 'New', path: 'new' },
      attributes: {
        title: { before: 'Old', after: 'New' },
        slug: { before: 'a', after: 'new' },
        document: { before: 'd1', after: 'd2' },
        description: { after: 'Now described' },
        emoji: { before: '🔥' },
      },
    });
  });

  test('a new parent is a move, reported with both parents; an edit in the same change is reported too', () => {
    const changes = pageChanges({
      before: page('A', { parentId: 'P' }),
      after: page('A', { parentId: null, title: 'Moved' }),
      parentBefore: page('P'),
    });
    assert.deepEqual(
      changes.map((c) => c.type),
      ['page_moved', 'page_edited'],
    );
    assert.deepEqual(changes[0]!.parent, { before: { id: 'P', type: 'document', title: 'P' } });
  });

  test('files: created, deleted, edited by name or bytes', () => {
    const f = (fields: Partial<FileSide> = {}): FileSide => ({ id: 'F', name: 'a.png', contentType: 'image/png', downloadURL: 'http://x/files/h/a.png', size: 10, ...fields });
    assert.deepEqual(
      fileChanges(undefined, f()).map((c) => c.type),
      ['file_created'],
    );
    assert.deepEqual(
      fileChanges(f(), undefined).map((c) => c.type),
      ['file_deleted'],
    );
    assert.deepEqual(fileChanges(f(), f()), []);
    assert.deepEqual(fileChanges(f(), f({ name: 'b.png' }))[0]!.attributes, { name: { before: 'a.png', after: 'b.png' } });
    assert.deepEqual(Object.keys(fileChanges(f(), f({ size: 11, downloadURL: 'http://x/files/i/a.png' }))[0]!.attributes as object).sort(), ['downloadURL', 'size']);
  });

  test('variables: one change listing added, removed and changed ones', () => {
    assert.deepEqual(variableChanges({ a: '1' }, { a: '1' }), []);
    assert.deepEqual(variableChanges({ a: '1', b: '2' }, { a: '9', c: '3' }), [
      { type: 'variables_edited', variables: { a: { before: '1', after: '9' }, b: { before: '2' }, c: { after: '3' } } },
    ]);
  });
});

describe('getChangeRequestChanges', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  /** A space whose main line has Home, Guides > (Install, Configure), and an open change request on it. */
  async function setup() {
    const space = await buildSpace(t, { title: 'Docs' });
    await writeMain(t, space.id, [
      { operation: 'insert_page', title: 'Home', document: {} },
      { operation: 'insert_page', title: 'Guides', ref: 'guides', document: {} },
      { operation: 'insert_page', title: 'Install', into: 'guides', document: {} },
      { operation: 'insert_page', title: 'Configure', into: 'guides', document: {} },
    ]);
    const pages = (await t.api('GET', `/v1/spaces/${space.id}/content/pages`)).body.pages;
    const ids = { home: pages[0].id, guides: pages[1].id, install: pages[1].pages[0].id, configure: pages[1].pages[1].id };
    const cr = await buildChangeRequest(t, space.id);
    return { spaceId: space.id as string, crId: cr.id as string, ids };
  }

  async function write(s: { spaceId: string; crId: string }, changes: unknown[]) {
    return ok(await t.api('POST', `/v1/spaces/${s.spaceId}/change-requests/${s.crId}/content?compat=false`, { body: { changes } }));
  }

  async function changesOf(s: { spaceId: string; crId: string }, query = '') {
    return ok(await t.api('GET', `/v1/spaces/${s.spaceId}/change-requests/${s.crId}/changes${query}`)) as { changes: Json[]; more?: number };
  }

  test('a fresh change request changes nothing', async () => {
    const s = await setup();
    assert.deepEqual(await changesOf(s), { changes: [] });
  });

  test('page_created names the new page with its path', async () => {
    const s = await setup();
    const body = await write(s, [{ operation: 'insert_page', title: 'Upgrade', ref: 'u', into: s.ids.guides, document: {} }]);
    const id = body.changes[0].page.id;
    assert.deepEqual((await changesOf(s)).changes, [{ type: 'page_created', page: { id, type: 'document', title: 'Upgrade', path: 'guides/upgrade' } }]);
  });

  test('page_edited lists the changed attributes', async () => {
    const s = await setup();
    await write(s, [{ operation: 'update_page', page: s.ids.home, title: 'Start', emoji: '🏠', document: { document: { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Hi' }] }] }] } } }]);
    const { changes } = await changesOf(s);
    assert.equal(changes.length, 1);
    assert.equal(changes[0].type, 'page_edited');
    assert.deepEqual(changes[0].page, { id: s.ids.home, type: 'document', title: 'Start', path: 'start' });
    assert.deepEqual(changes[0].attributes.title, { before: 'Home', after: 'Start' });
    assert.deepEqual(changes[0].attributes.slug, { before: 'home', after: 'start' });
    assert.deepEqual(changes[0].attributes.emoji, { after: '🏠' });
    assert.equal(typeof changes[0].attributes.document.after, 'string');
    assert.equal(changes[0].attributes.document.before, undefined, 'the page had no document');
  });

  test('page_deleted lists each page of a deleted subtree with its old path', async () => {
    const s = await setup();
    await write(s, [{ operation: 'delete_page', page: s.ids.guides }]);
    const { changes } = await changesOf(s);
    assert.deepEqual(changes.map((c) => c.type), ['page_deleted', 'page_deleted', 'page_deleted']);
    assert.deepEqual(changes.map((c) => c.page.path).sort(), ['guides', 'guides/configure', 'guides/install']);
  });

  test('page_moved names the old and the new parent', async () => {
    const s = await setup();
    await write(s, [{ operation: 'update_page', page: s.ids.install, into: s.ids.home }]);
    const { changes } = await changesOf(s);
    assert.deepEqual(changes, [
      {
        type: 'page_moved',
        page: { id: s.ids.install, type: 'document', title: 'Install', path: 'home/install' },
        parent: { before: { id: s.ids.guides, type: 'document', title: 'Guides' }, after: { id: s.ids.home, type: 'document', title: 'Home' } },
      },
    ]);
    await write(s, [{ operation: 'update_page', page: s.ids.install, into: null }]);
    const [moved] = (await changesOf(s)).changes;
    assert.deepEqual(moved.parent, { before: { id: s.ids.guides, type: 'document', title: 'Guides' } }, 'to the root: no parent after');
  });

  test('file_created for an inserted file', async () => {
    const s = await setup();
    const body = await write(s, [{ operation: 'insert_files', files: [{ name: 'note.txt', contentType: 'text/plain', base64: Buffer.from('note').toString('base64') }] }]);
    const file = body.insertedFiles[0];
    assert.deepEqual((await changesOf(s)).changes, [{ type: 'file_created', file: { id: file.id, name: 'note.txt', contentType: 'text/plain', downloadURL: file.downloadURL } }]);
  });

  test('what was undone in the change request is no change at all', async () => {
    const s = await setup();
    const body = await write(s, [
      { operation: 'insert_page', title: 'Temp', ref: 't', document: {} },
      { operation: 'update_page', page: s.ids.home, title: 'Renamed' },
    ]);
    const temp = body.changes.find((c: Json) => c.ref === 't').page.id;
    await write(s, [
      { operation: 'delete_page', page: temp },
      { operation: 'revert_page', page: s.ids.home },
    ]);
    assert.deepEqual(await changesOf(s), { changes: [] });
  });

  test('variables_edited when the change request has other variables than its base', async () => {
    const s = await setup();
    await t.db.updateTable('revisions').set({ variables: JSON.stringify({ product: 'Quire' }) }).where('branch_id', '=', s.crId).execute();
    assert.deepEqual((await changesOf(s)).changes, [{ type: 'variables_edited', variables: { product: { after: 'Quire' } } }]);
  });

  test('limit cuts the list and more tells how many were left out; the default limit is 10', async () => {
    const s = await setup();
    await write(
      s,
      Array.from({ length: 12 }, (_, i) => ({ operation: 'insert_page', title: `Page ${i}`, document: {} })),
    );
    const all = await changesOf(s, '?limit=100');
    assert.equal(all.changes.length, 12);
    assert.equal(all.more, undefined);
    const first = await changesOf(s);
    assert.equal(first.changes.length, 10);
    assert.equal(first.more, 2);
    const three = await changesOf(s, '?limit=3');
    assert.equal(three.changes.length, 3);
    assert.equal(three.more, 9);
    assert.deepEqual(three.changes, all.changes.slice(0, 3), 'the order is stable');
    assert.deepEqual((await changesOf(s, '?limit=12')).more, undefined);
    assertError(await t.api('GET', `/v1/spaces/${s.spaceId}/change-requests/${s.crId}/changes?limit=0`), 400, 'limit');
  });

  test('changes come in the order they were made', async () => {
    const s = await setup();
    await write(s, [{ operation: 'update_page', page: s.ids.configure, title: 'Configure it' }]);
    await write(s, [{ operation: 'update_page', page: s.ids.home, title: 'Home page' }]);
    await write(s, [{ operation: 'insert_page', title: 'Last', document: {} }]);
    assert.deepEqual(
      (await changesOf(s)).changes.map((c) => c.page.title),
      ['Configure it', 'Home page', 'Last'],
    );
  });

  test('a reader may read them; an outsider and an unknown change request get 404', async () => {
    const s = await setup();
    const reader = await t.member('read');
    assert.equal((await t.api('GET', `/v1/spaces/${s.spaceId}/change-requests/${s.crId}/changes`, { token: reader.token })).status, 200);
    const outsider = await t.outsider();
    assertError(await t.api('GET', `/v1/spaces/${s.spaceId}/change-requests/${s.crId}/changes`, { token: outsider.token }), 404);
    assertError(await t.api('GET', `/v1/spaces/${s.spaceId}/change-requests/missing/changes`), 404);
  });
});
