import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok } from '../../../test/assertions.ts';
import { buildChangeRequest, buildPage, buildSpace, mergeChangeRequest, writeContent } from '../../../test/factories.ts';
import { MAX_PAGE_MARKDOWN } from './change-schemas.ts';

/*
 * Issue 14: what a hostile or careless caller sends is refused with a 4xx naming what was wrong, and what is
 * accepted can always be read back (no poisoned page, no stack overflow).
 */
describe('hostile page content', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  /** Inserts a page; `document` may be JSON text already (JSON.stringify itself overflows on deep values). */
  async function insert(document: unknown) {
    const space = await buildSpace(t);
    const cr = await buildChangeRequest(t, space.id);
    const json = typeof document === 'string' ? document : JSON.stringify(document);
    const res = await t.api('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
      body: `{"changes":[{"operation":"insert_page","title":"P","document":${json}}]}`,
      headers: { 'content-type': 'application/json' },
    });
    return { res, space, cr };
  }

  test('a document with a null node is a 400 naming its path, and nothing is written', async () => {
    const { res, space, cr } = await insert({ document: { object: 'document', nodes: [null] } });
    assertError(res, 400, 'changes[0] (insert_page): /document/document/nodes/0 must be a node object, not null');
    const pages = ok(await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/pages`));
    assert.equal(pages.pages.length, 0);
  });

  test('unknown node types and missing fields are 400s naming the path', async () => {
    const { res: bad } = await insert({ document: { object: 'document', nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text' }] }] } });
    assertError(bad, 400, '/document/document/nodes/0');
    const { res: unknown } = await insert({ document: { object: 'document', nodes: [{ object: 'block', type: 'marquee', nodes: [] }] } });
    assertError(unknown, 400, '/document/document/nodes/0');
  });

  test('a document nested 3,000 deep is a 400 naming the depth limit (no stack overflow)', async () => {
    const open = '{"object":"block","type":"blockquote","nodes":['.repeat(3000);
    const node = `${open}{"object":"block","type":"paragraph","nodes":[]}${']}'.repeat(3000)}`;
    const { res } = await insert(`{"document":{"object":"document","nodes":[${node}]}}`);
    assertError(res, 400, 'nested more than 64 levels deep');
  });

  test('markdown over the page limit is a 400 naming the limit', async () => {
    const { res } = await insert({ markdown: 'a'.repeat(MAX_PAGE_MARKDOWN + 1) });
    assertError(res, 400, String(MAX_PAGE_MARKDOWN));
  });

  test('"_a" x 70,000 (140,000 escapes, past the arguments a spread can take) reads back as markdown', async () => {
    const space = await buildSpace(t);
    const page = await buildPage(t, space.id, { title: 'Underscores', markdown: '_a'.repeat(70_000) });
    const res = ok(await t.api('GET', `/v1/spaces/${space.id}/content/page/${page}?format=markdown`));
    assert.ok(res.markdown.includes('\\_a\\_a'), 'underscores come back escaped');
  });

  test('template ids that are Object.prototype keys are 400s, not 500s', async () => {
    const space = await buildSpace(t);
    for (const id of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const res = await t.api('POST', `/v1/spaces/${space.id}/content/template`, { body: { id } });
      assert.ok(res.status >= 400 && res.status < 500, `${id}: ${res.status} ${JSON.stringify(res.body)}`);
      assertError(res, res.status);
    }
  });

  test('a page stored before validation with null nodes still reads, merges and renders', async () => {
    const space = await buildSpace(t, { title: 'Old docs' });
    // Two change requests from the same base, so that the second merge is a three-way merge of the old page.
    const page = await buildPage(t, space.id, { title: 'Old', markdown: 'First.\n\nSecond.' });
    const ours = await buildChangeRequest(t, space.id);
    const theirs = await buildChangeRequest(t, space.id);
    const { document_id: documentId } = await t.db.selectFrom('page_versions').select('document_id').where('page_id', '=', page).where('to_seq', 'is', null).executeTakeFirstOrThrow();
    const stored = JSON.parse((await t.db.selectFrom('documents').select('body').where('id', '=', documentId!).executeTakeFirstOrThrow()).body);
    // As an old server wrote it: null among the blocks, the inlines and the leaves.
    const paragraph = stored.nodes[0];
    paragraph.nodes.push(null);
    for (const node of paragraph.nodes) if (node?.leaves) node.leaves.push(null);
    stored.nodes.splice(1, 0, null);
    stored.nodes.push(null);
    await t.db.updateTable('documents').set({ body: JSON.stringify(stored) }).where('id', '=', documentId!).execute();

    const asDocument = ok(await t.api('GET', `/v1/spaces/${space.id}/content/page/${page}`));
    assert.equal(asDocument.document.nodes.length, 2, 'the null blocks are left out');
    assert.ok(!JSON.stringify(asDocument.document).includes('null'), JSON.stringify(asDocument.document));
    const asMarkdown = ok(await t.api('GET', `/v1/spaces/${space.id}/content/page/${page}?format=markdown`));
    assert.equal(asMarkdown.markdown.trim(), 'First.\n\nSecond.');

    const site = ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites`, { body: { title: 'Old site', visibility: 'public', spaces: [space.id] } }), 201);
    ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites/${site.id}/publish`));
    const rendered = await t.app.inject({ method: 'GET', url: `/sites/${site.id}/` });
    assert.equal(rendered.statusCode, 200);
    assert.match(rendered.body, /First\./);

    await writeContent(t, space.id, ours.id, [{ operation: 'update_page', page, document: { markdown: 'First.\n\nSecond.\n\nThird.' } }]);
    await writeContent(t, space.id, theirs.id, [{ operation: 'update_page', page, document: { markdown: 'Zero.\n\nFirst.\n\nSecond.' } }]);
    await mergeChangeRequest(t, space.id, ours.id);
    await mergeChangeRequest(t, space.id, theirs.id);
    const merged = ok(await t.api('GET', `/v1/spaces/${space.id}/content/page/${page}?format=markdown`));
    assert.equal(merged.markdown.trim(), 'Zero.\n\nFirst.\n\nSecond.\n\nThird.');
  });

  test('a comment over the node limit is a 400 naming it; a long list of big comments reads as markdown quickly', async () => {
    const space = await buildSpace(t);
    const table = `| a | b |\n| --- | --- |\n${'| x | y |\n'.repeat(9_000)}`;
    assertError(await t.api('POST', `/v1/spaces/${space.id}/comments`, { body: { body: { markdown: table.slice(0, 96_000) } } }), 400, 'nodes (the limit per comment)');
    const deep = { object: 'document', nodes: Array.from({ length: 4_000 }, () => ({ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'x', marks: [] }] }] })) };
    assertError(await t.api('POST', `/v1/spaces/${space.id}/comments`, { body: { body: { document: deep } } }), 400, 'nodes (the limit per comment)');
    // Big table comments near the node limit (a thousand rows each), as markdown, five times.
    const largest = `| a | b |\n| --- | --- |\n${'| x | y |\n'.repeat(1_000)}`;
    for (let i = 0; i < 5; i++) ok(await t.api('POST', `/v1/spaces/${space.id}/comments`, { body: { body: { markdown: largest } } }));
    const started = performance.now();
    const listed = await t.api('GET', `/v1/spaces/${space.id}/comments?format=markdown`);
    ok(listed);
    assert.equal(listed.body.items.length, 5);
    assert.ok(JSON.stringify(listed.body).length < 1_000_000, 'the answer stays under a megabyte');
    assert.ok(performance.now() - started < 10_000, `listed in ${Math.round(performance.now() - started)} ms`);
  });

  describe('links a browser would run as script (issue 38)', () => {
    const link = (url: string) => ({ object: 'inline', type: 'link', data: { ref: { kind: 'url', url } }, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'click', marks: [] }] }] });
    const withLink = (url: string) => ({
      object: 'document',
      nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'See ', marks: [] }] }, link(url)] }],
    });
    const SPELLINGS: [string, string][] = [
      ['javascript:alert(document.cookie)', 'javascript:'],
      ['JaVaScRiPt:alert(1)', 'javascript:'],
      ['   javascript:alert(1)', 'javascript:'],
      ['java\tscript:alert(1)', 'javascript:'],
      ['data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==', 'data:'],
      ['vbscript:msgbox(1)', 'vbscript:'],
    ];

    test('a page written with one is a 400 naming the path of the link, in the error shape, and nothing is written', async () => {
      for (const [url, scheme] of SPELLINGS) {
        const { res, space, cr } = await insert({ document: withLink(url) });
        assertError(res, 400, `changes[0] (insert_page): /document/document/nodes/0/nodes/1/data/ref/url is a ${scheme} URL, which a document may not hold`);
        assert.equal(ok(await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/pages`)).pages.length, 0, JSON.stringify(url));
      }
    });

    test("an update of the space's live content, a change request's description and a comment are refused alike", async () => {
      const space = await buildSpace(t, { editMode: 'live' });
      const page = await buildPage(t, space.id, { title: 'Live', markdown: 'Safe.' });
      const update = await t.api('POST', `/v1/spaces/${space.id}/content?compat=false`, { body: { changes: [{ operation: 'update_page', page, document: { document: withLink('JaVaScRiPt:alert(1)') } }] } });
      assertError(update, 400, '/document/document/nodes/0/nodes/1/data/ref/url is a javascript: URL');
      const cr = await buildChangeRequest(t, space.id);
      assertError(await t.api('PATCH', `/v1/spaces/${space.id}/change-requests/${cr.id}`, { body: { description: withLink(' data:text/html,x') } }), 400, 'body/description/nodes/0/nodes/1/data/ref/url is a data: URL');
      assertError(await t.api('POST', `/v1/spaces/${space.id}/comments`, { body: { body: { document: withLink('vbscript:x') } } }), 400, '/nodes/0/nodes/1/data/ref/url is a vbscript: URL');
    });

    test('http(s), mailto, tel, page and relative links are written as they are', async () => {
      const { res } = await insert({ document: withLink('https://example.com') });
      ok(res);
      for (const url of ['mailto:a@example.com', 'tel:+33123', '/docs/x', '#top', '']) ok((await insert({ document: withLink(url) })).res, 200);
    });

    test('markdown with one is written without it: the link keeps its text', async () => {
      const space = await buildSpace(t);
      const page = await buildPage(t, space.id, { title: 'Embeds', markdown: 'Before.\n\n{% embed url="javascript:alert(1)" %}\n\n<a href="JaVaScRiPt:alert(2)" class="button primary">Go</a>' });
      const read = ok(await t.api('GET', `/v1/spaces/${space.id}/content/page/${page}?format=document`));
      assert.doesNotMatch(JSON.stringify(read.document), /javascript:/i);
    });
  });
});
