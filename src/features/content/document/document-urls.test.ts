import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isStorableUrl, unsafeUrlProblem, withoutUnsafeUrls } from './document-urls.ts';
import { markdownToDocument } from './to-document.ts';
import { documentProblem } from './validate.ts';

const text = (value: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] });
const link = (url: string, label = 'click') => ({ object: 'inline', type: 'link', data: { ref: { kind: 'url', url } }, nodes: [text(label)] });
const paragraph = (...nodes: object[]) => ({ object: 'block', type: 'paragraph', nodes });
const doc = (...nodes: object[]) => ({ object: 'document', nodes });
const image = (url: string, dark?: string) => ({
  object: 'block', type: 'images', isVoid: false, data: {},
  nodes: [{ object: 'block', type: 'image', isVoid: true, data: { ref: { kind: 'url', url }, ...(dark ? { refDark: { kind: 'url', url: dark } } : {}) }, fragments: [] }],
});

/** Spellings of hostile schemes a browser still follows (case, leading spaces and controls, tabs and newlines inside). */
const HOSTILE = [
  'javascript:alert(1)', 'JaVaScRiPt:alert(1)', '  javascript:alert(1)', '\u0001javascript:alert(1)', 'java\tscript:alert(1)', 'java\nscript:alert(1)',
  'vbscript:msgbox(1)', 'VBScript:msgbox(1)', 'data:text/html,<script>alert(1)</script>', ' DATA:text/html;base64,PHNjcmlwdD4=', 'data:image/svg+xml,<svg onload=alert(1)>',
];

describe('URLs a document may hold', () => {
  test('links: http(s), mailto and tel URLs, relative ones, fragments and the empty URL', () => {
    for (const url of ['https://example.com/a?b#c', 'HTTP://example.com', 'mailto:a@example.com', 'tel:+331234', '/docs/page', '../up', 'page.md', '#anchor', '?q=1', '//cdn.example.com/x', '']) {
      assert.equal(isStorableUrl(url, 'link'), true, url);
      assert.equal(documentProblem(doc(paragraph(text('a '), link(url)))), null, url);
    }
  });

  test('a hostile scheme, however spelled, is named with the JSON path of its URL', () => {
    for (const url of HOSTILE) {
      const problem = documentProblem(doc(paragraph(text('a')), paragraph(text('a '), link(url))));
      assert.equal(problem?.path, '/nodes/1/nodes/1/data/ref/url', JSON.stringify(url));
      assert.match(problem!.message, /^is a (javascript|vbscript|data): URL, which a document may not hold/, JSON.stringify(url));
    }
  });

  test('images may also be base64 raster data URLs, never SVG or HTML ones; their dark variant is checked too', () => {
    assert.equal(unsafeUrlProblem(doc(image('data:image/png;base64,iVBORw0KGgo='))), null);
    assert.equal(unsafeUrlProblem(doc(image('https://x.test/a.png', '/dark.png'))), null);
    assert.equal(unsafeUrlProblem(doc(image('data:image/svg+xml;base64,PHN2Zz4=')))?.path, '/nodes/0/nodes/0/data/ref/url');
    assert.equal(unsafeUrlProblem(doc(image('https://x.test/a.png', 'javascript:alert(1)')))?.path, '/nodes/0/nodes/0/data/refDark/url');
    assert.equal(isStorableUrl('data:image/png;base64,iVBORw0KGgo=', 'link'), false, 'a data URL is no link');
  });

  test("embeds, cards, buttons and table cells are checked where they hold URLs; pages' and files' references are not URLs", () => {
    const embed = { object: 'block', type: 'embed', isVoid: true, data: { url: 'javascript:alert(1)' } };
    assert.equal(unsafeUrlProblem(doc(embed))?.path, '/nodes/0/data/url');
    const card = { object: 'block', type: 'content-ref', isVoid: true, data: { ref: { kind: 'url', url: 'vbscript:x' } } };
    assert.equal(unsafeUrlProblem(doc(card))?.path, '/nodes/0/data/ref/url');
    const button = { object: 'inline', type: 'button', isVoid: true, data: { label: 'Go', ref: { kind: 'url', url: 'javascript:go()' } } };
    assert.equal(unsafeUrlProblem(doc(paragraph(text(''), button, text(''))))?.path, '/nodes/0/nodes/1/data/ref/url');
    const table = {
      object: 'block', type: 'table', isVoid: true, fragments: [],
      data: { view: { type: 'grid', columns: ['c/1'], hideHeader: false }, definition: { 'c/1': { id: 'c/1', title: 'Link', type: 'content-ref' } }, records: { r1: { orderIndex: 'a0', values: { 'c/1': { kind: 'url', url: 'javascript:x' } } } } },
    };
    assert.equal(unsafeUrlProblem(doc(table))?.path, '/nodes/0/data/records/r1/values/c~11/url');
    const page = { object: 'inline', type: 'link', data: { ref: { kind: 'page', page: 'javascript:alert(1)' } }, nodes: [text('p')] };
    assert.equal(unsafeUrlProblem(doc(paragraph(page))), null, 'a page id is not followed by the browser');
  });

  test('dropping them: a link keeps its text (run on with the text around it), anything else gets the empty URL; a clean document is returned as it is', () => {
    const clean = doc(paragraph(text('a '), link('https://example.com')));
    assert.equal(withoutUnsafeUrls(clean), clean);
    const hostile = doc(paragraph(text('see '), link('JaVaScRiPt:alert(1)', 'this'), text(' now')), { object: 'block', type: 'embed', isVoid: true, data: { url: 'data:text/html,x' } });
    const dropped = withoutUnsafeUrls(hostile);
    assert.deepEqual(dropped, doc(paragraph(text('see this now')), { object: 'block', type: 'embed', isVoid: true, data: { url: '' } }), 'one Text, as the editor can hold it');
    assert.equal((hostile.nodes[0] as { nodes: { type?: string }[] }).nodes[1]!.type, 'link', 'the original is untouched');
    assert.equal((hostile.nodes[1] as { data: { url: string } }).data.url, 'data:text/html,x');
    assert.equal(documentProblem(dropped), null);
  });

  test('markdown and HTML converted to a document (imports, markdown writes, pastes) lose their hostile URLs, not their text', () => {
    const asUrl = (href: string) => ({ kind: 'url' as const, url: href });
    const converted = markdownToDocument(
      [
        'A [data link](data:image/png;base64,AAAA) in text.',
        '',
        '{% embed url="javascript:alert(1)" %}',
        '',
        '<a href="JaVaScRiPt:alert(2)" class="button primary">Go</a>',
        '',
        '<img src="  javascript:alert(3)" alt="pic">',
      ].join('\n'),
      asUrl,
    );
    assert.equal(documentProblem(converted), null);
    const json = JSON.stringify(converted);
    assert.doesNotMatch(json, /"url":"[^"]*(javascript|data):/i);
    assert.match(json, /"text":"A data link in text."/, "the link's text stays, in its sentence");
  });
});
