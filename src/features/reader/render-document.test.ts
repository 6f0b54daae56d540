import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { code, doc, expandable, h, hint, item, leaf, link, p, quote, resolveRef, t, tab, tabs, ul } from '../content/document/test-fixtures.ts';
import { markdownToDocument } from '../content/document/to-document.ts';
import type { Document, FlowBlock } from '../content/document/types.ts';
import { headingAnchors, outline, slugify } from './heading-anchors.ts';
import { highlightCacheSize } from './highlight.ts';
import { renderDocument } from './render-document.tsx';
import { safeImageUrl, safeLinkUrl } from '../content/document/safe-url.ts';
import { everyBlockDocument, links, renderEveryBlock } from '../../../test/reader-documents.ts';

const render = (document: Document, options = {}) => renderDocument(document, links, options);
const block = (value: Record<string, unknown>): FlowBlock => ({ object: 'block', ...value }) as unknown as FlowBlock;

describe('renderDocument: every block renders', () => {
  test('headings get anchors one level below the page title, with a link to themselves', async () => {
    const html = await render(doc(h(1, 'Getting started'), h(2, 'Install'), h(3, 'On Linux')));
    assert.match(html, /<h2 id="getting-started">Getting started<a class="heading-anchor" href="#getting-started" aria-label="Link to Getting started">#<\/a><\/h2>/);
    assert.match(html, /<h3 id="install">Install/);
    assert.match(html, /<h4 id="on-linux">On Linux/);
  });

  test('marks become their elements', async () => {
    const html = await render(doc(p(t(leaf('b', 'bold'), leaf('i', 'italic'), leaf('s', 'strikethrough'), leaf('c', 'code'), leaf('k', 'keyboard'), leaf('u', 'superscript'), leaf('d', 'subscript'), leaf('bi', 'bold', 'italic')))));
    for (const fragment of ['<strong>b</strong>', '<em>i</em>', '<s>s</s>', '<code>c</code>', '<kbd>k</kbd>', '<sup>u</sup>', '<sub>d</sub>', '<em><strong>bi</strong></em>']) {
      assert.ok(html.includes(fragment), `${fragment} in ${html}`);
    }
  });

  test('a soft line break in a text is a <br>', async () => {
    assert.match(await render(doc(p('one\ntwo'))), /<p>one<br\/?>two<\/p>/);
  });

  test('page, anchor and file links resolve to published URLs; a broken reference is text', async () => {
    const html = await render(
      doc(p(link({ kind: 'page', page: 'guide' }, 'g'), link({ kind: 'anchor', anchor: 'x', page: 'guide' }, 'a'), link({ kind: 'file', file: 'f' }, 'f'), link({ kind: 'page', page: 'missing' }, 'gone'))),
    );
    assert.match(html, /<a href="\/docs\/guide">g<\/a>/);
    assert.match(html, /<a href="\/docs\/guide#x">a<\/a>/);
    assert.match(html, /<a href="\/files\/f">f<\/a>/);
    assert.match(html, /<span class="unresolved-link">gone<\/span>/);
  });

  test('external links open in a new tab only when the site says so', async () => {
    const document = doc(p(link({ kind: 'url', url: 'https://example.com/' }, 'out'), link({ kind: 'url', url: '/local' }, 'in')));
    const blank = await render(document, { externalLinks: 'blank' });
    assert.match(blank, /<a href="https:\/\/example.com\/" target="_blank" rel="noopener noreferrer">out<span class="sr-only"> \(opens in a new tab\)<\/span><\/a>/);
    assert.match(blank, /<a href="\/local">in<\/a>/);
    const self = await render(document, { externalLinks: 'self' });
    assert.doesNotMatch(self, /target=/);
  });

  test('lists, ordered lists with a start, and task lists', async () => {
    const { html } = await renderEveryBlock();
    assert.match(html, /<ul><li><p>First<\/p><\/li><li><p>Second<\/p><ul><li><p>Nested<\/p><\/li><\/ul><\/li><\/ul>/);
    assert.match(html, /<ol start="3"><li><p>Three<\/p><\/li>/);
    assert.match(html, /<ul class="task-list"><li class="task checked"><input type="checkbox" checked disabled aria-label="Done"\/?>/);
    assert.match(html, /<li class="task"><input type="checkbox" disabled aria-label="Not done"\/?>/);
  });

  test('code is highlighted with its title, language and line numbers', async () => {
    const html = await render(doc(code(['const answer = 42; // why', 'x()'], { syntax: 'JavaScript', title: 'answer.js', lineNumbers: true })));
    assert.match(html, /<figure class="code-block with-line-numbers">/);
    assert.match(html, /<span class="code-title">answer.js<\/span>/);
    assert.match(html, /data-language="javascript"/);
    assert.match(html, /<span class="c-token-keyword">const<\/span>/);
    assert.match(html, /<span class="c-token-comment">\/\/ why<\/span>/);
    assert.equal(html.match(/<span class="line">/g)?.length, 2);
  });

  test('code in an unknown language is shown plain, escaped', async () => {
    const html = await render(doc(code(['<b>not bold</b>'], { syntax: 'klingon' })));
    assert.match(html, /<span class="line">&lt;b>not bold&lt;\/b><\/span>/);
    assert.doesNotMatch(html, /data-language/);
  });

  test('highlighting is cached by language and code', async () => {
    const document = doc(code([`let unique${Date.now()} = 1;`], { syntax: 'js' }));
    await render(document);
    const size = highlightCacheSize();
    await render(document);
    assert.equal(highlightCacheSize(), size);
  });

  test('hints carry their style and an accessible name', async () => {
    const { html } = await renderEveryBlock();
    for (const [style, label] of [['info', 'Info'], ['warning', 'Warning'], ['danger', 'Danger'], ['success', 'Success']]) {
      assert.match(html, new RegExp(`<div class="hint hint-${style}" role="note" aria-label="${label}">`));
    }
  });

  test('a table is a table with headers, alignment and its cells content', async () => {
    const { html } = await renderEveryBlock();
    assert.match(html, /<th scope="col">Name<\/th><th scope="col" class="align-right">Value<\/th>/);
    assert.match(html, /<td><p>alpha<\/p><\/td><td class="align-right"><p>1<\/p><\/td>/);
  });

  test('a rich cell (GitBook HTML in a table row) renders its paragraphs, link and list', async () => {
    const markdown = '| Step | Details |\n| - | - |\n| A | <p>Create with <a href="https://example.com/eks">EKS</a></p><p>Then wait.</p> |\n| B | <ul><li>Degraded</li><li>Healthy</li></ul> |\n';
    const html = await render(markdownToDocument(markdown, resolveRef));
    assert.match(html, /<td><p>Create with <a href="https:\/\/example.com\/eks"[^>]*>EKS<\/a><\/p><p>Then wait.<\/p><\/td>/);
    assert.match(html, /<td><ul><li><p>Degraded<\/p><\/li><li><p>Healthy<\/p><\/li><\/ul><\/td>/);
  });

  test('cards: each its cover from its file, its listed fields, and its link on its title (stretched over the card)', async () => {
    const markdown = [
      '<table data-view="cards" data-card-size="large"><thead><tr><th></th><th></th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="files"></th><th data-hidden>Notes</th></tr></thead><tbody>',
      '<tr><td><strong>Guide</strong> to <a href="other.md">other</a></td><td>Read the <a href="other.md">other</a> one.</td><td><a href="guide.md">guide.md</a></td><td><a href=".gitbook/assets/diagram">diagram</a></td><td>Hidden notes</td></tr>',
      '<tr><td><strong>Elsewhere</strong></td><td>Off site.</td><td><a href="https://example.com/">example</a></td><td></td><td></td></tr>',
      '<tr><td><strong>Plain</strong></td><td>Goes nowhere.</td><td></td><td></td><td></td></tr>',
      '<tr><td></td><td></td><td><a href="guide.md">guide.md</a></td><td></td><td></td></tr>',
      '</tbody></table>',
      '',
    ].join('');
    const html = await render(markdownToDocument(markdown, resolveRef), { externalLinks: 'blank' });
    assert.match(html, /^<ul class="table-cards table-cards-large">/);
    const cards = html.match(/<li class="table-card">.*?<\/li>/g)!;
    assert.equal(
      cards[0],
      '<li class="table-card"><div class="table-card-cover"><img src="/files/diagram" alt loading="lazy" decoding="async"/></div>'
        // A link in the title would be a link in a link: its text only. The card's other links stay links.
        + '<div class="table-card-field"><a href="/docs/guide" class="table-card-link"><p><strong>Guide</strong> to <span class="unresolved-link">other</span></p></a></div>'
        + '<div class="table-card-field"><p>Read the <a href="/docs/other">other</a> one.</p></div></li>',
    );
    assert.match(cards[1]!, /<a href="https:\/\/example.com\/" class="table-card-link" target="_blank" rel="noopener noreferrer"><p><strong>Elsewhere<\/strong><\/p><span class="sr-only"> \(opens in a new tab\)<\/span><\/a>/);
    assert.doesNotMatch(cards[2]!, /<a /, 'a card without a target is no link');
    // A card with no words to name it: its link named by where it leads.
    assert.match(cards[3]!, /<div class="table-card-field"><a href="\/docs\/guide" class="table-card-link">Page guide<\/a><\/div><\/li>$/);
    assert.doesNotMatch(html, /Hidden notes|guide\.md/);
    assert.equal(html.match(/<img/g)!.length, 1, 'one cover: the other cards have none');
  });

  test('a card\'s cover URL is shown as the reader shows image URLs; one that could run script is not', async () => {
    const cards = (cover: string) =>
      `<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-cover data-type="image"></th></tr></thead><tbody><tr><td>A card</td><td><img src="${cover}"></td></tr></tbody></table>\n`;
    assert.match(await render(markdownToDocument(cards('/assets/cover.png'), resolveRef)), /<ul class="table-cards"><li class="table-card"><div class="table-card-cover"><img src="\/assets\/cover.png" alt/);
    assert.doesNotMatch(await render(markdownToDocument(cards('javascript:alert(1)'), resolveRef)), /<img/);
  });

  test('images are figures with alt text and captions; files resolve', async () => {
    const { html } = await renderEveryBlock();
    assert.match(html, /<figure class="image"><img src="\/files\/diagram" alt="A diagram" loading="lazy" decoding="async"\/?><figcaption><p>The caption<\/p><\/figcaption><\/figure>/);
  });

  test('tabs follow the ARIA tabs pattern, the first one open', async () => {
    const html = await render(doc(tabs(tab('npm', p('one')), tab('yarn', p('two')))));
    assert.match(html, /role="tablist"/);
    assert.match(html, /<button type="button" role="tab" id="q-tab-1-tab" aria-controls="q-tab-1-panel" aria-selected="true" tabindex="0">npm<\/button>/);
    assert.match(html, /<div class="tab-panel" role="tabpanel" id="q-tab-2-panel" aria-labelledby="q-tab-2-tab" tabindex="0" hidden>/);
  });

  test('expandables are <details> with their title as summary', async () => {
    const html = await render(doc(expandable('More', p('Inside'))));
    assert.match(html, /<details class="expandable"><summary>More<\/summary><div class="expandable-body"><p>Inside<\/p><\/div><\/details>/);
  });

  test('quotes and dividers', async () => {
    const html = await render(doc(quote(p('Said')), block({ type: 'divider', isVoid: true, data: {} })));
    assert.match(html, /<blockquote><p>Said<\/p><\/blockquote><hr\/?>/);
  });

  test('an embed is a link card, with no third-party frame or script', async () => {
    const html = await render(doc(block({ type: 'embed', isVoid: true, data: { url: 'https://www.youtube.com/watch?v=abc' } })));
    assert.match(html, /<div class="embed card">/);
    assert.match(html, /href="https:\/\/www.youtube.com\/watch\?v=abc"/);
    assert.doesNotMatch(html, /<iframe|<script/);
  });

  test('file blocks, content references, math, drawings, steppers and columns', async () => {
    const { html } = await renderEveryBlock();
    assert.match(html, /<a class="card-link" href="\/files\/report" download="report.png"><span class="card-title">report.png<\/span><span class="card-description">image\/png · 2.0 KB<\/span><\/a>/);
    assert.match(html, /<div class="content-ref card"><span class="card-icon" aria-hidden="true">📘<\/span><a href="\/docs\/guide" class="card-link"><span class="card-title">Page guide<\/span><\/a>/);
    assert.match(html, /<div class="math"><math display="block"/);
    assert.match(html, /<span class="math-inline"><math>/);
    assert.match(html, /<img src="\/files\/sketch" alt="Drawing"/);
    assert.match(html, /<ol class="stepper"><li class="step"><p>Step one<\/p><\/li>/);
    assert.match(html, /<div class="columns"><div class="column"><p>Left column<\/p><\/div>/);
  });

  test('emoji, icons, mentions and buttons inline', async () => {
    const { html } = await renderEveryBlock();
    assert.match(html, /an icon <svg class="inline-icon" viewBox="0 0 512 512" fill="currentColor" aria-hidden="true" focusable="false"><path d="M/);
    assert.match(html, /<span class="emoji">🚀<\/span>/);
    assert.match(html, /<a href="\/users\/ada" class="mention">Ada<\/a>/);
    assert.match(html, /<a href="\/docs\/guide" class="button button-primary">Try it<\/a>/);
  });

  test('a formula that does not parse is shown as its source', async () => {
    const html = await render(doc(block({ type: 'math', isVoid: true, data: { formula: '\\frac{' } })));
    assert.match(html, /<pre class="math-source"><code>\\frac\{<\/code><\/pre>/);
  });

  test('an expression shows its variable’s value, and nothing where the variable is unknown', async () => {
    const expression = (path: string) => ({ object: 'inline', type: 'expression', isVoid: true, data: { expression: path } });
    const document = doc(block({ type: 'paragraph', nodes: [t('Version '), expression('space.vars.version'), t(' on '), expression('page.vars.host'), t('.'), expression('space.vars.missing')] }));
    const variables = { space: { version: '2.1.0' }, page: { host: 'api.example.com' } };
    assert.equal(await render(document, { variables }), '<p>Version <span class="expression">2.1.0</span> on <span class="expression">api.example.com</span>.</p>');
    assert.equal(await render(document), '<p>Version  on .</p>');
  });

  test('conditional content shows only when the visitor matches', async () => {
    const document = doc(block({ type: 'if', data: { condition: 'visitor.claims.plan == "pro"' }, nodes: [p('Pro only')] }));
    assert.doesNotMatch(await render(document), /Pro only/);
    assert.match(await render(document, { evaluateCondition: (c: string) => c.includes('pro') }), /Pro only/);
  });

  test('unknown and malformed nodes are skipped without failing', async () => {
    const document = {
      object: 'document',
      nodes: [block({ type: 'openapi', data: {} }), block({ type: 'no-such-block' }), null, p('still here'), block({ type: 'paragraph', nodes: [{ object: 'inline', type: 'expression' }, null] })],
    } as unknown as Document;
    assert.equal(await render(document), '<p>still here</p><p></p>');
  });

  test('a very deep document renders its depth beyond the limit as text', async () => {
    let inner: FlowBlock = p('bottom');
    for (let i = 0; i < 200; i++) inner = quote(inner);
    const html = await render(doc(inner));
    assert.match(html, /<p>bottom<\/p>/);
    assert.ok((html.match(/<blockquote>/g) ?? []).length <= 40);
  });
});

describe('renderDocument: escaping', () => {
  test('hostile text is escaped everywhere it lands', async () => {
    const evil = '<script>alert(1)</script>"\'&';
    const html = await render(
      doc(h(1, evil), p(evil), code([evil], { syntax: 'js', title: evil }), hint('info', p(evil)), tabs(tab(evil, p('x'))), expandable(evil, p('y'))),
    );
    assert.doesNotMatch(html, /<script>/);
    assert.match(html, /&lt;script>alert\(1\)&lt;\/script>/);
  });

  test('javascript: and other script URLs are refused in links, embeds and images', async () => {
    const html = await render(
      doc(
        p(link({ kind: 'url', url: 'javascript:alert(1)' }, 'a'), link({ kind: 'url', url: ' JaVa\tScRiPt:alert(1)' }, 'b'), link({ kind: 'url', url: 'data:text/html,<script>' }, 'c'), link({ kind: 'url', url: 'vbscript:x' }, 'd')),
        block({ type: 'embed', isVoid: true, data: { url: 'javascript:alert(1)' } }),
        block({ type: 'images', isVoid: false, data: {}, nodes: [{ object: 'block', type: 'image', isVoid: true, data: { ref: { kind: 'url', url: 'javascript:alert(1)' } }, fragments: [] }] }),
      ),
    );
    assert.doesNotMatch(html, /javascript|vbscript|data:/i);
    assert.equal(html.match(/unresolved-link/g)?.length, 4);
  });

  test('safe URLs: what passes and what does not', () => {
    for (const ok of ['https://a.b/c', 'http://a', '/docs/x', 'x/y', '#anchor', '?q=1', 'mailto:a@b.c', 'tel:+1', '//cdn.example.com/x']) assert.equal(safeLinkUrl(ok), ok, ok);
    for (const bad of ['javascript:x', 'JAVASCRIPT:x', 'java\nscript:x', '\u0001javascript:x', 'data:text/html,x', 'file:///etc/passwd', '']) assert.equal(safeLinkUrl(bad), null, JSON.stringify(bad));
    assert.equal(safeImageUrl('data:image/png;base64,iVBORw0KGgo='), 'data:image/png;base64,iVBORw0KGgo=');
    assert.equal(safeImageUrl('data:image/svg+xml,<svg onload=alert(1)>'), null);
    assert.equal(safeImageUrl('mailto:a@b.c'), null);
  });

  test('colour marks accept only colour names as classes', async () => {
    const html = await render(doc(p(t({ object: 'leaf', text: 'x', marks: [{ object: 'mark', type: 'color', data: { text: 'red', background: '" onmouseover="alert(1)' } }] }))));
    assert.match(html, /<span class="color-red">x<\/span>/);
    assert.doesNotMatch(html, /onmouseover/);
  });
});

describe('heading anchors and the outline', () => {
  test('anchors are unique, explicit ids keep theirs, slugs keep letters of any script', () => {
    const explicit = { ...h(2, 'Custom'), data: { id: 'install' } } as FlowBlock;
    const document = doc(h(1, 'Install'), h(1, 'Install'), explicit, h(2, 'Überblick & 中文'), h(3, '!!!'), hint('info', h(2, 'Install')));
    const ids = [...headingAnchors(document).values()];
    assert.equal(new Set(ids).size, ids.length);
    assert.deepEqual(outline(document), [
      { id: 'install-2', title: 'Install', level: 1 },
      { id: 'install-3', title: 'Install', level: 1 },
      { id: 'install', title: 'Custom', level: 2 },
      { id: 'überblick-中文', title: 'Überblick & 中文', level: 2 },
      { id: 'section', title: '!!!', level: 3 },
    ]);
  });

  test('the rendered ids are the outline ids', async () => {
    const document = everyBlockDocument();
    const html = await render(document);
    for (const item of outline(document)) assert.ok(html.includes(` id="${item.id}"`), item.id);
  });

  test('slugs are bounded', () => {
    assert.ok(slugify('word '.repeat(100)).length <= 80);
    assert.doesNotMatch(slugify('word '.repeat(100)), /-$/);
  });
});

// Its cost is the reader-cold bench's (bench/reader-cold.ts): a test's clock measures the machine's load, not the code.
describe('renderDocument: a large page', () => {
  test('a 300-block page with 30 code blocks never highlighted before renders whole', async () => {
    const page = (seed: string) => {
      const blocks: FlowBlock[] = [];
      for (let i = 0; i < 300; i++) {
        const kind = i % 10;
        if (kind === 0) blocks.push(h(2, `Section ${i}`));
        else if (kind === 3) blocks.push(code([`const value${i}${seed} = compute(${i});`, `console.log(value${i});`], { syntax: 'typescript' }));
        else if (kind === 5) blocks.push(ul(item(p(`item ${i}`)), item(p(t('with ', leaf('bold', 'bold'))))));
        else if (kind === 7) blocks.push(hint('info', p(`hint ${i}`)));
        else blocks.push(p(t(`Paragraph ${i} with `, leaf('code', 'code'), ' and '), link({ kind: 'page', page: 'guide' }, 'a link'), t('.')));
      }
      return doc(...blocks);
    };
    // A running server has its grammars loaded and its code compiled: warm up on one page, then render
    // another whose 30 code blocks were never highlighted (nothing of it is cached).
    await render(page('warm'));
    const html = await render(page('cold'));
    assert.ok(html.length > 10_000);
    assert.equal(html.match(/<h3\b/g)?.length, 30, "a heading-2 is an h3 (the page title is the h1)");
    assert.match(html, /value3cold/);
  });
});
