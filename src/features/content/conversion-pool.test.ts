import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok } from '../../../test/assertions.ts';
import { buildChangeRequest, buildSpace } from '../../../test/factories.ts';
import { markdownToDocument } from './document/to-document.ts';
import { documentToMarkdown } from './document/to-markdown.ts';
import { INLINE_MAX_CHARS } from './conversion-pool.ts';
import { refToHref } from './markdown.ts';

/** About `size` characters of varied markdown: headings, paragraphs with links and marks, lists, code, tables. */
export function largeMarkdown(size: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < size; i++) {
    const section = [
      `## Section ${i}`,
      `Some **bold** and _italic_ text with [a link](https://example.com/${i}) and \`code ${i}\`. ${'A sentence of plain prose that goes on for a while. '.repeat(8)}`,
      `- item ${i}a\n- item ${i}b\n  - nested ${i}`,
      '```js\nconsole.log(' + i + ');\n```',
      `| a | b |\n| --- | --- |\n| ${i} | ${i * 2} |`,
    ].join('\n\n');
    parts.push(section);
    length += section.length + 2;
  }
  return parts.join('\n\n');
}

describe('conversions of large pages run on the worker pool', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  async function write(markdown: string, server = t) {
    const space = await buildSpace(server);
    const cr = await buildChangeRequest(server, space.id);
    const res = await server.api('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
      body: { changes: [{ operation: 'insert_page', title: 'Big', document: { markdown } }] },
    });
    return { res, space, cr };
  }

  test('a page over the inline threshold reads back as the request thread would have converted it', async () => {
    const markdown = `${largeMarkdown(INLINE_MAX_CHARS * 3)}\n\nSee [the other page](/pages/abc) and [an anchor](#top).`;
    const { res, space, cr } = await write(markdown);
    const page = ok(res).changes[0].page.id;
    const base = `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${page}`;
    const expected = markdownToDocument(markdown, (href) => (href === '/pages/abc' ? { kind: 'page', page: 'abc' } : href === '#top' ? { kind: 'anchor', anchor: 'top' } : { kind: 'url', url: href }));
    const asDocument = ok(await t.api('GET', base));
    assert.deepEqual(asDocument.document.nodes, JSON.parse(JSON.stringify(expected.nodes)));
    const asMarkdown = ok(await t.api('GET', `${base}?format=markdown`));
    assert.equal(asMarkdown.markdown, documentToMarkdown(expected, refToHref));
  });

  test('the event loop keeps turning while the largest accepted page is written and read', async () => {
    const markdown = largeMarkdown(990_000);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    const { res, space, cr } = await write(markdown);
    const page = ok(res).changes[0].page.id;
    ok(await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${page}?format=markdown`));
    delay.disable();
    const worst = delay.max / 1e6;
    // The conversions (seconds on this machine) are off the thread; what stays on it is the storing.
    assert.ok(worst < (performance.now() - started) / 2, `the longest stall (${worst.toFixed(0)} ms) is a small part of the whole`);
  });
});

describe('a conversion past CONVERSION_TIMEOUT_MS', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer({ env: { CONVERSION_TIMEOUT_MS: '1' } });
  });
  after(() => t.close());

  test('answers 422 naming the time limit, and nothing is written', async () => {
    const space = await buildSpace(t);
    const cr = await buildChangeRequest(t, space.id);
    const res = await t.api('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
      body: { changes: [{ operation: 'insert_page', title: 'Big', document: { markdown: largeMarkdown(500_000) } }] },
    });
    assertError(res, 422, 'CONVERSION_TIMEOUT_MS');
    const pages = ok(await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/pages`));
    assert.equal(pages.pages.length, 0);
  });
});
