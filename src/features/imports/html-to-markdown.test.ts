import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeHtml, htmlPageToMarkdown, isHtmlResponse, MAX_HTML_DEPTH, MAX_PAGE_HTML, readHtmlPage } from './html-to-markdown.ts';

const asIs = (_kind: 'link' | 'image', url: URL) => url.href;

describe('reading an HTML page', () => {
  test('HTML nested deeper than the limit is refused with a 400 naming it, before anything recurses', () => {
    for (const depth of [5_000, 100_000]) {
      const html = `<body>${'<div>'.repeat(depth)}deep${'</div>'.repeat(depth)}</body>`;
      const started = Date.now();
      assert.throws(
        () => readHtmlPage(html, 'https://acme.test/deep'),
        (error: { statusCode?: number; message?: string }) => error.statusCode === 400 && new RegExp(`more than ${MAX_HTML_DEPTH} deep`).test(error.message ?? ''),
      );
      assert.ok(Date.now() - started < 5_000, `refused in ${Date.now() - started} ms`);
    }
    const fine = readHtmlPage(`<main>${'<div>'.repeat(100)}ok${'</div>'.repeat(100)}</main>`, 'https://acme.test/');
    assert.equal(htmlPageToMarkdown(fine, asIs), 'ok');
  });

  test('a page whose content is more HTML than an import converts is refused with a 413 naming the limit', () => {
    const html = `<main>${'<p>words and more words</p>'.repeat(Math.ceil(MAX_PAGE_HTML / 20))}</main>`;
    assert.throws(
      () => readHtmlPage(html, 'https://acme.test/huge'),
      (error: { statusCode?: number; message?: string }) => error.statusCode === 413 && error.message!.includes(String(MAX_PAGE_HTML)),
    );
  });

  test('the content is the <main> element; the navigation around it still gives its links', () => {
    const page = readHtmlPage(
      '<html><head><title>Acme docs</title></head><body><nav><a href="/pricing">Pricing</a></nav><main><h1>Install</h1><p>Run it.</p></main><footer>© Acme</footer></body></html>',
      'https://acme.test/docs/install',
    );
    assert.equal(page.title, 'Install');
    assert.deepEqual(page.links, ['https://acme.test/pricing']);
    assert.equal(htmlPageToMarkdown(page, asIs), 'Run it.');
  });

  test('without <main>, the <article> is the content', () => {
    const page = readHtmlPage('<body><div class="menu">Menu</div><article><h1>Post</h1><p>Text</p></article></body>', 'https://acme.test/');
    assert.equal(page.title, 'Post');
    assert.equal(htmlPageToMarkdown(page, asIs), 'Text');
  });

  test('without either, the body is the content, less its navigation, header, footer and asides', () => {
    const page = readHtmlPage(
      '<html><body><header>Site</header><nav><a href="/a">A</a></nav><h1>Hello</h1><p>World</p><aside>Ad</aside><footer>Foot</footer></body></html>',
      'https://acme.test/',
    );
    assert.equal(page.title, 'Hello');
    assert.equal(htmlPageToMarkdown(page, asIs), 'World');
    assert.deepEqual(page.links, ['https://acme.test/a']);
  });

  test('a page without <h1> takes its <title>; the body keeps its other headings', () => {
    const page = readHtmlPage('<html><head><title> Release   notes </title></head><body><h2>v1</h2><p>First.</p></body></html>', 'https://acme.test/notes');
    assert.equal(page.title, 'Release notes');
    assert.equal(htmlPageToMarkdown(page, asIs), '## v1\n\nFirst.');
  });

  test('a page with neither has no title', () => {
    assert.equal(readHtmlPage('<p>Just text</p>', 'https://acme.test/').title, undefined);
  });

  test('scripts, styles, forms and hidden elements are not content', () => {
    const page = readHtmlPage(
      '<main><script>alert(1)</script><style>p{}</style><form><input name="q"><button>Go</button></form><p hidden>Secret</p><p>Kept</p></main>',
      'https://acme.test/',
    );
    assert.equal(htmlPageToMarkdown(page, asIs), 'Kept');
  });

  test('links are absolute, against the page URL or its <base>; only http(s) ones are listed', () => {
    const page = readHtmlPage(
      '<head><base href="https://acme.test/v2/"></head><body><a href="intro">Intro</a> <a href="../up">Up</a> <a href="mailto:a@acme.test">Mail</a> <a href="#top">Top</a> <a href="javascript:void(0)">JS</a></body>',
      'https://acme.test/v1/page',
    );
    assert.deepEqual(page.links, ['https://acme.test/v2/intro', 'https://acme.test/up', 'https://acme.test/v2/#top']);
  });

  test('images of the content are listed once, absolute; lazy sources win over placeholders; data: URIs are dropped', () => {
    const page = readHtmlPage(
      '<main><img src="a.png" alt="A"><img src="/a.png"><img src="blank.gif" data-src="/real.jpg"><img src="data:image/png;base64,AAAA" alt="inline"></main>',
      'https://acme.test/docs/',
    );
    assert.deepEqual(page.images, ['https://acme.test/docs/a.png', 'https://acme.test/a.png', 'https://acme.test/real.jpg']);
    assert.doesNotMatch(htmlPageToMarkdown(page, asIs), /data:/);
  });
});

describe('writing markdown', () => {
  test('links and images are written by the caller; same-page anchors and mail links stay', () => {
    const page = readHtmlPage(
      '<main><p><a href="/guide#setup">Setup</a>, <a href="#faq">FAQ</a>, <a href="mailto:a@acme.test">mail</a></p><p><img src="/logo.png" alt="Logo"></p></main>',
      'https://acme.test/',
    );
    const written: string[] = [];
    const markdown = htmlPageToMarkdown(page, (kind, url) => {
      written.push(`${kind} ${url.href}`);
      return kind === 'image' ? './image-1' : './page-2.md#setup';
    });
    assert.deepEqual(written, ['link https://acme.test/guide#setup', 'image https://acme.test/logo.png']);
    assert.equal(markdown, '[Setup](./page-2.md#setup), [FAQ](#faq), [mail](mailto:a@acme.test)\n\n![Logo](./image-1)');
  });

  test('GitHub-flavoured tables, strikethrough and fenced code blocks', () => {
    const page = readHtmlPage(
      '<main><table><thead><tr><th>Key</th><th>Value</th></tr></thead><tbody><tr><td>a</td><td>1</td></tr></tbody></table><p><del>old</del></p><pre><code class="language-js">let a = 1;\n</code></pre><ul><li>one</li></ul></main>',
      'https://acme.test/',
    );
    const markdown = htmlPageToMarkdown(page, asIs);
    assert.match(markdown, /\| Key \| Value \|\n\| --- \| --- \|\n\| a \| 1 \|/);
    // Two tildes: one is text to CommonMark's readers, ours included.
    assert.match(markdown, /(^|[^~])~~old~~(?!~)/m);
    assert.match(markdown, /```js\nlet a = 1;\n```/);
    assert.match(markdown, /^- +one$/m);
  });

  test('text that looks like markdown is escaped', () => {
    const page = readHtmlPage('<main><p>1. not a list, *not emphasis*</p></main>', 'https://acme.test/');
    assert.equal(htmlPageToMarkdown(page, asIs), '1\\. not a list, \\*not emphasis\\*');
  });
});

describe('recognising and decoding HTML', () => {
  test('by Content-Type, or by its first bytes when there is none', () => {
    assert.equal(isHtmlResponse('text/html; charset=utf-8', Buffer.from('')), true);
    assert.equal(isHtmlResponse('application/xhtml+xml', Buffer.from('')), true);
    assert.equal(isHtmlResponse('application/json', Buffer.from('<html>')), false);
    assert.equal(isHtmlResponse(undefined, Buffer.from('\n<!DOCTYPE html><html>')), true);
    assert.equal(isHtmlResponse(undefined, Buffer.from('%PDF-1.7')), false);
  });

  test('the charset comes from the Content-Type, else a <meta>, else UTF-8', () => {
    const latin1 = Buffer.from('<p>café</p>', 'latin1');
    assert.equal(decodeHtml(latin1, 'text/html; charset=ISO-8859-1'), '<p>café</p>');
    const withMeta = Buffer.concat([Buffer.from('<meta charset="windows-1252">'), latin1]);
    assert.match(decodeHtml(withMeta, 'text/html'), /café/);
    assert.equal(decodeHtml(Buffer.from('<p>café</p>'), 'text/html'), '<p>café</p>');
    assert.equal(decodeHtml(Buffer.from('<p>café</p>'), 'text/html; charset=no-such-charset'), '<p>café</p>');
  });
});
