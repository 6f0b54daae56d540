// @sqlite-run-only: markdown conversion on and off the worker pool; no database.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeConversionPool, configureConversions, INLINE_MAX_CHARS, prepareMarkdownOffThread } from './conversion-pool.ts';
import { canonicalJson } from './document-store.ts';
import { markdownToDocument } from './document/to-document.ts';
import type { ContentRef } from './document/types.ts';
import { convertMarkdownOnce, parseMarkdownDocument, parseMarkdownHere, parseMarkdownOffThread, resolveFixedHrefOrUrl, type HrefResolver } from './markdown.ts';

/*
 * Links of markdown are resolved by one function whichever side converts it: the request's thread for small
 * pages, the conversion pool for large ones (markdown.ts convertResolvingLinks around convertMarkdownOnce, which
 * the pool's threads run too). These tests convert the same markdown both ways and compare.
 */

const LINKS = [
  'Fixed forms: [a page](/pages/abc), [a heading of it](/pages/abc#setup), [a file](/files/f1), [here](#top).',
  'A URL: [example](https://example.com/x) and a protocol-relative one [cdn](//cdn.example.com/y).',
  'Relative: [setup](guide/setup.md), [its install part](guide/setup.md#install) and [nowhere](missing.md).',
  'Odd names: [proto](__proto__) and [ctor](constructor).',
  '![an image](/files/img1)',
].join('\n\n');

/** Markdown over the inline limit, so that parseMarkdownDocument sends it to the pool when the pool is on. */
const LARGE = `${LINKS}\n\n${'A paragraph of plain prose that pads the page. '.repeat(Math.ceil(INLINE_MAX_CHARS / 40))}\n\n${LINKS}`;

/** A page tree of one page: `guide/setup.md` is page "setup"; everything else is read in its fixed form or as a URL. */
function recordingResolver(): { resolve: HrefResolver; calls: string[] } {
  const calls: string[] = [];
  const resolve: HrefResolver = async (href) => {
    calls.push(href);
    if (href === 'guide/setup.md') return { kind: 'page', page: 'setup' };
    if (href === 'guide/setup.md#install') return { kind: 'anchor', anchor: 'install', page: 'setup' };
    return resolveFixedHrefOrUrl(href);
  };
  return { resolve, calls };
}

/** The same markdown converted on both sides: parseMarkdownDocument sends it to the pool, being large. */
async function parseOnBothSides(markdown: string, resolve: () => HrefResolver) {
  return { inline: await parseMarkdownHere(markdown, resolve()), pooled: await parseMarkdownDocument(markdown, resolve()) };
}

function refsOf(document: unknown): ContentRef[] {
  const refs: ContentRef[] = [];
  JSON.stringify(document, (_key, value: unknown) => {
    if (value && typeof value === 'object' && 'ref' in value) refs.push((value as { ref: ContentRef }).ref);
    return value;
  });
  return refs;
}

describe('markdown links resolve alike on the request thread and on the conversion pool', () => {
  // One thread for the whole file: starting the pool from the sources takes seconds (tsx compiles the worker).
  before(() => configureConversions({ threads: 1, timeoutMs: 60_000 }));
  after(() => closeConversionPool());

  test('a large page with fixed, relative and odd links converts to the same document on both sides', async () => {
    const { inline, pooled } = await parseOnBothSides(LARGE, () => recordingResolver().resolve);
    assert.equal(canonicalJson(pooled), canonicalJson(inline));
    // The resolver's answers are in the document, not only the first conversion's assumptions.
    assert.ok(refsOf(inline).some((ref) => ref.kind === 'page' && ref.page === 'setup'));
    assert.ok(refsOf(inline).some((ref) => ref.kind === 'anchor' && ref.page === 'setup' && ref.anchor === 'install'));
    assert.ok(refsOf(inline).some((ref) => ref.kind === 'url' && ref.url === '__proto__'));
  });

  test('each link is resolved once, in the order the page meets them, on both sides', async () => {
    const inline = recordingResolver();
    await parseMarkdownHere(LARGE, inline.resolve);
    const pooled = recordingResolver();
    await parseMarkdownOffThread(LARGE, pooled.resolve);
    assert.deepEqual(pooled.calls, inline.calls);
    // Every link and image source of the page, each once though the page holds LINKS twice.
    assert.deepEqual(inline.calls, [
      '/pages/abc',
      '/pages/abc#setup',
      '/files/f1',
      '#top',
      'https://example.com/x',
      '//cdn.example.com/y',
      'guide/setup.md',
      'guide/setup.md#install',
      'missing.md',
      '__proto__',
      'constructor',
      '/files/img1',
    ]);
  });

  test('one conversion on the pool is the conversion on the request thread, with and without refs', async () => {
    const refs = new Map<string, ContentRef>([
      ['guide/setup.md', { kind: 'page', page: 'setup' }],
      ['__proto__', { kind: 'page', page: 'proto' }],
    ]);
    for (const given of [undefined, refs]) {
      const here = convertMarkdownOnce(LINKS, given);
      const there = await prepareMarkdownOffThread(LINKS, given);
      assert.equal(there.prepared.body, canonicalJson(here.document));
      assert.deepEqual([...there.assumed], [...here.assumed]);
    }
    assert.deepEqual(convertMarkdownOnce(LINKS, refs).assumed.get('__proto__'), { kind: 'page', page: 'proto' });
  });

  test('links taken as written keep their fixed forms and make the rest URLs, on both sides', async () => {
    const { inline, pooled } = await parseOnBothSides(LARGE, () => resolveFixedHrefOrUrl);
    assert.equal(canonicalJson(pooled), canonicalJson(inline));
    const refs = refsOf(inline);
    assert.ok(refs.some((ref) => ref.kind === 'page' && ref.page === 'abc'));
    assert.ok(refs.some((ref) => ref.kind === 'url' && ref.url === 'guide/setup.md'));
  });

  test('a resolver that fails fails the conversion on both sides', async () => {
    const failing: HrefResolver = async (href) => {
      if (href === 'missing.md') throw new Error('no page at missing.md');
      return resolveFixedHrefOrUrl(href);
    };
    await assert.rejects(parseMarkdownHere(LARGE, failing), /missing\.md/);
    await assert.rejects(parseMarkdownOffThread(LARGE, failing), /missing\.md/);
  });
});

/** What parseMarkdownDocument gave before it learnt to keep its first reading: every link resolved, then read again. */
async function readTwice(markdown: string, resolve: HrefResolver) {
  const hrefs = new Set<string>();
  markdownToDocument(markdown, (href) => {
    hrefs.add(href);
    return { kind: 'url', url: href };
  });
  const resolved = new Map<string, ContentRef>();
  for (const href of hrefs) resolved.set(href, await resolve(href));
  return markdownToDocument(markdown, (href) => resolved.get(href) ?? { kind: 'url', url: href });
}

const SAMPLES = [
  'A comment with **bold** text.',
  'See [the guide](https://example.com/guide), [a page](/pages/abc123#setup), [a file](/files/f1) and [here](#top).',
  '![a picture](https://example.com/a.png)\n\n- [ ] a task with [a link](../guide/setup.md)\n- [x] done',
  '# Title\n\n> a quote with [a relative link](setup.md) and the same [again](setup.md)\n\n```ts\nconst a = 1;\n```',
  '{% content-ref url="../other.md" %}\n[other.md](../other.md)\n{% endcontent-ref %}',
];

describe('markdown links: the first reading is kept only when it is the reading with the links resolved', () => {
  test('links resolved as first assumed (fixed forms, else URLs) give the document a second reading would', async () => {
    for (const markdown of SAMPLES) assert.deepEqual(await parseMarkdownDocument(markdown, resolveFixedHrefOrUrl), await readTwice(markdown, resolveFixedHrefOrUrl), markdown);
  });

  test('a link the caller resolves otherwise (a relative path to a page) is read with its answer', async () => {
    const toPage: HrefResolver = async (href) => (href.endsWith('.md') ? { kind: 'page', page: `page-of-${href}` } : resolveFixedHrefOrUrl(href));
    for (const markdown of SAMPLES) assert.deepEqual(await parseMarkdownDocument(markdown, toPage), await readTwice(markdown, toPage), markdown);
  });
});
