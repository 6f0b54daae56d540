import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { markdownToDocument } from './document/to-document.ts';
import type { ContentRef } from './document/types.ts';
import { parseMarkdownDocument, resolveFixedHref } from './markdown.ts';

/** What parseMarkdownDocument gave before it learnt to keep its first reading: every link resolved, then read again. */
async function readTwice(markdown: string, resolve: (href: string) => Promise<ContentRef>) {
  const hrefs = new Set<string>();
  markdownToDocument(markdown, (href) => {
    hrefs.add(href);
    return { kind: 'url', url: href };
  });
  const resolved = new Map<string, ContentRef>();
  for (const href of hrefs) resolved.set(href, await resolve(href));
  return markdownToDocument(markdown, (href) => resolved.get(href) ?? { kind: 'url', url: href });
}

const fixedOrUrl = async (href: string): Promise<ContentRef> => resolveFixedHref(href) ?? { kind: 'url', url: href };
const samples = [
  'A comment with **bold** text.',
  'See [the guide](https://example.com/guide), [a page](/pages/abc123#setup), [a file](/files/f1) and [here](#top).',
  '![a picture](https://example.com/a.png)\n\n- [ ] a task with [a link](../guide/setup.md)\n- [x] done',
  '# Title\n\n> a quote with [a relative link](setup.md) and the same [again](setup.md)\n\n```ts\nconst a = 1;\n```',
  '{% content-ref url="../other.md" %}\n[other.md](../other.md)\n{% endcontent-ref %}',
];

describe('markdown to a document with its links resolved', () => {
  test('links resolved as first assumed (fixed forms, else URLs) give the document a second reading would', async () => {
    for (const markdown of samples) assert.deepEqual(await parseMarkdownDocument(markdown, fixedOrUrl), await readTwice(markdown, fixedOrUrl), markdown);
  });

  test('a link the caller resolves otherwise (a relative path to a page) is read with its answer', async () => {
    const toPage = async (href: string): Promise<ContentRef> => (href.endsWith('.md') ? { kind: 'page', page: `page-of-${href}` } : fixedOrUrl(href));
    for (const markdown of samples) assert.deepEqual(await parseMarkdownDocument(markdown, toPage), await readTwice(markdown, toPage), markdown);
    const document = await parseMarkdownDocument('Read [the setup](../guide/setup.md).', toPage);
    assert.match(JSON.stringify(document), /"page":"page-of-..\/guide\/setup.md"/);
  });

  test('every link is given to the resolver, and what it refuses stops the conversion', async () => {
    const asked: string[] = [];
    await parseMarkdownDocument(samples[1]!, async (href) => {
      asked.push(href);
      return fixedOrUrl(href);
    });
    assert.deepEqual(asked.sort(), ['#top', '/files/f1', '/pages/abc123#setup', 'https://example.com/guide'].sort());
    await assert.rejects(
      parseMarkdownDocument('[x](missing.md)', async () => {
        throw new Error('no page missing.md');
      }),
      /no page missing.md/,
    );
  });
});
