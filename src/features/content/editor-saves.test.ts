import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok } from '../../../test/assertions.ts';
import { buildChangeRequest, buildSpace } from '../../../test/factories.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

function paragraph(key: string, text: string) {
  return { object: 'block', type: 'paragraph', key, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] };
}
/** A JSON document of paragraphs, each written `key:text`. */
function doc(...blocks: string[]) {
  return { object: 'document', data: {}, nodes: blocks.map((b) => paragraph(b.split(':')[0]!, b.split(':')[1]!)) };
}
const texts = (document: Json): string[] => (document?.nodes ?? []).map((n: Json) => `${n.key}:${n.nodes[0].leaves[0].text}`);

describe('editor saves: based on a revision, never a silent overwrite', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  /** A change request holding one page of three blocks; returns the page and the revision it was written at. */
  async function pageInChangeRequest() {
    const space = await buildSpace(t, { title: 'Docs' });
    const cr = await buildChangeRequest(t, space.id);
    const url = `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`;
    const written = ok(await t.api('POST', url, { body: { changes: [{ operation: 'insert_page', title: 'Guide', document: { document: doc('a:one', 'b:two', 'c:three') } }] } }));
    return { space, cr, url, page: written.changes[0].page.id as string, revision: written.revision as string };
  }

  const save = (url: string, page: string, document: Json, extra: Record<string, unknown> = {}) =>
    t.api('POST', url, { body: { changes: [{ operation: 'update_page', page, document: { document }, ...extra }] } });

  async function documentOf(spaceId: string, crId: string, page: string) {
    const cr = ok(await t.api('GET', `/v1/spaces/${spaceId}/change-requests/${crId}`));
    return ok(await t.api('GET', `/v1/spaces/${spaceId}/revisions/${cr.revision}/page/${page}/document`));
  }

  test('two saves from one base that edit different blocks keep both, and the second answers the merged document', async () => {
    const { space, cr, url, page, revision } = await pageInChangeRequest();
    const first = ok(await save(url, page, doc('a:ONE', 'b:two', 'c:three'), { baseRevision: revision }));
    assert.deepEqual(first.merged, [], 'nothing changed since the first save\'s base');
    const second = ok(await save(url, page, doc('a:one', 'b:two', 'c:THREE'), { baseRevision: revision }));
    assert.deepEqual(second.merged.map((m: Json) => [m.page, texts(m.document)]), [[page, ['a:ONE', 'b:two', 'c:THREE']]]);
    assert.notEqual(second.revision, first.revision);
    assert.deepEqual(texts(await documentOf(space.id, cr.id, page)), ['a:ONE', 'b:two', 'c:THREE']);
  });

  test('two saves from one base that edit the same block: 409 naming the block, with both versions, and nothing written', async () => {
    const { space, cr, url, page, revision } = await pageInChangeRequest();
    const first = ok(await save(url, page, doc('a:one', 'b:mine', 'c:three'), { baseRevision: revision }));
    const res = await save(url, page, doc('a:one', 'b:yours', 'c:three'), { baseRevision: revision });
    assert.equal(res.status, 409, JSON.stringify(res.body));
    assert.equal(res.body.error.code, 409);
    assert.match(res.body.error.message, /block "b"/);
    assert.equal(res.body.revision, first.revision);
    const [conflict] = res.body.conflicts;
    assert.deepEqual([conflict.page, conflict.field, conflict.block, conflict.kind], [page, 'document', 'b', 'edited']);
    assert.deepEqual([texts({ nodes: [conflict.ours] }), texts({ nodes: [conflict.theirs] }), texts({ nodes: [conflict.base] })], [['b:yours'], ['b:mine'], ['b:two']]);
    assert.deepEqual(texts(res.body.documents[0].document), ['a:one', 'b:yours', 'c:three']);
    assert.deepEqual(texts(await documentOf(space.id, cr.id, page)), ['a:one', 'b:mine', 'c:three']);
    // Resolved by choosing a version and saving on the current revision.
    ok(await save(url, page, doc('a:one', 'b:yours', 'c:three'), { baseRevision: res.body.revision }));
    assert.deepEqual(texts(await documentOf(space.id, cr.id, page)), ['a:one', 'b:yours', 'c:three']);
  });

  test('a title changed by both saves differently is a conflict; by one, it is kept', async () => {
    const { url, page, revision } = await pageInChangeRequest();
    ok(await t.api('POST', url, { body: { changes: [{ operation: 'update_page', page, title: 'Theirs', baseRevision: revision }] } }));
    const res = await t.api('POST', url, { body: { changes: [{ operation: 'update_page', page, title: 'Mine', baseRevision: revision }] } });
    assert.equal(res.status, 409, JSON.stringify(res.body));
    assert.deepEqual(res.body.conflicts.map((c: Json) => [c.field, c.ours, c.theirs]), [['title', 'Mine', 'Theirs']]);
    ok(await t.api('POST', url, { body: { changes: [{ operation: 'update_page', page, description: 'About', baseRevision: revision }] } }));
  });

  test('a save without a base overwrites as before', async () => {
    const { space, cr, url, page, revision } = await pageInChangeRequest();
    ok(await save(url, page, doc('a:one', 'b:mine', 'c:three'), { baseRevision: revision }));
    ok(await save(url, page, doc('a:one', 'b:last', 'c:three')));
    assert.deepEqual(texts(await documentOf(space.id, cr.id, page)), ['a:one', 'b:last', 'c:three']);
  });

  test('a base revision of another space is refused, naming the field', async () => {
    const { url, page } = await pageInChangeRequest();
    const other = await buildSpace(t, { title: 'Other' });
    const res = await save(url, page, doc('a:x'), { baseRevision: other.revision });
    assertError(res, 400, '/baseRevision');
  });

  describe('updateSpaceContent: live writes', () => {
    test('a live space is written on its main line, with the same merge', async () => {
      const space = await buildSpace(t, { title: 'Live' });
      const url = `/v1/spaces/${space.id}/content`;
      const inserted = ok(await t.api('POST', url, { body: { changes: [{ operation: 'insert_page', title: 'Home', document: { document: doc('a:one', 'b:two') } }] } }));
      const page = inserted.changes[0].page.id;
      ok(await save(url, page, doc('a:ONE', 'b:two'), { baseRevision: inserted.revision }));
      const merged = ok(await save(url, page, doc('a:one', 'b:TWO'), { baseRevision: inserted.revision }));
      assert.deepEqual(texts(merged.merged[0].document), ['a:ONE', 'b:TWO']);
      const current = ok(await t.api('GET', `/v1/spaces/${space.id}`));
      assert.equal(current.revision, merged.revision);
      const read = ok(await t.api('GET', `/v1/spaces/${space.id}/content/page/${page}?format=document`));
      assert.deepEqual(texts(read.document), ['a:ONE', 'b:TWO']);
    });

    test('a space edited through change requests refuses live writes, naming the rule', async () => {
      const space = await buildSpace(t, { title: 'Reviewed', editMode: 'change-requests' });
      assertError(await t.api('POST', `/v1/spaces/${space.id}/content`, { body: { changes: [{ operation: 'insert_page', title: 'X', document: {} }] } }), 409, 'editMode is "change-requests"');
      const cr = await buildChangeRequest(t, space.id, { pages: ['Through a change request'] });
      assert.equal(cr.pages.length, 1);
    });

    test('a space edited through change requests refuses a template and an import into it as it refuses live writes', async () => {
      const space = await buildSpace(t, { title: 'Reviewed', editMode: 'change-requests' });
      const before = ok(await t.api('GET', `/v1/spaces/${space.id}`)).revision;
      assertError(await t.api('POST', `/v1/spaces/${space.id}/content/template`, { body: { id: 'blank' } }), 409, 'editMode is "change-requests"');
      // Refused before the URL is fetched: no server answers at this address.
      assertError(await t.api('POST', `/v1/spaces/${space.id}/content/import`, { body: { url: 'https://docs.example.com/guide.md', source: 'markdown' } }), 409, 'editMode is "change-requests"');
      assert.equal(ok(await t.api('GET', `/v1/spaces/${space.id}`)).revision, before, 'nothing written');
    });

    test('a locked space refuses live writes', async () => {
      const space = await buildSpace(t, { title: 'Locked', editMode: 'locked' });
      assertError(await t.api('POST', `/v1/spaces/${space.id}/content`, { body: { changes: [{ operation: 'insert_page', title: 'X', document: {} }] } }), 403, 'locked');
    });
  });

  test('insert_page with type group adds a group at the top level, and refuses one inside a page', async () => {
    const space = await buildSpace(t, { title: 'Groups' });
    const url = `/v1/spaces/${space.id}/content`;
    const written = ok(await t.api('POST', url, { body: { changes: [{ operation: 'insert_page', type: 'group', title: 'Guides', document: {} }] } }));
    const group = written.changes[0].page.id;
    ok(await t.api('POST', url, { body: { changes: [{ operation: 'insert_page', title: 'Start', into: group, document: {} }] } }));
    const pages = ok(await t.api('GET', `/v1/spaces/${space.id}/content`)).pages;
    assert.deepEqual([pages[0].type, pages[0].title, pages[0].pages[0].title], ['group', 'Guides', 'Start']);
    assertError(await t.api('POST', url, { body: { changes: [{ operation: 'insert_page', type: 'group', title: 'Nested', into: pages[0].pages[0].id, document: {} }] } }), 400, '/into');
  });
});
