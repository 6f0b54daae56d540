import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContentChange } from '../content/change-schemas.ts';
import { importChanges } from './changes.ts';
import type { CrawledImage, CrawledPage } from './crawl.ts';
import { readHtmlPage } from './html-to-markdown.ts';

function crawled(url: string, html: string, aliases: string[] = []): CrawledPage {
  return { url, aliases, depth: 0, html: readHtmlPage(html, url) };
}

function image(url: string): CrawledImage {
  return { url, name: url.split('/').pop()!, contentType: 'image/png', bytes: Buffer.alloc(1) };
}

const markdownOf = (change: ContentChange | undefined) => {
  assert.ok(change && (change.operation === 'insert_page' || change.operation === 'update_page') && change.document && 'markdown' in change.document);
  return change.document.markdown;
};

describe('the batch of an import', () => {
  const home = crawled(
    'https://acme.test/',
    '<title>Acme</title><main><h1>Welcome</h1><p><a href="/guide#setup">Setup</a> <a href="/old">Old</a> <a href="/?x=1">Query</a> <a href="https://other.test/">Other</a></p><img src="/a.png" alt="A"><img src="/b.png" alt="B"></main>',
  );
  const guide = crawled('https://acme.test/guide', '<main><h2>Setup</h2><p><a href="/">Home</a></p></main>', ['https://acme.test/old']);

  test('each page is inserted with a ref, its title in front matter; links between pages use the refs, images their files', () => {
    const { changes, fileKeys } = importChanges([home, guide], [image('https://acme.test/a.png')], { into: 'root' });
    assert.deepEqual(changes.map((c) => c.operation), ['insert_files', 'insert_page', 'insert_page']);
    assert.deepEqual(changes[0], { operation: 'insert_files', files: [{ ref: 'image-1', name: 'a.png', url: 'https://acme.test/a.png' }] });
    assert.deepEqual([...fileKeys.values()], ['0/0']);
    const [, first, second] = changes as [ContentChange, Extract<ContentChange, { operation: 'insert_page' }>, Extract<ContentChange, { operation: 'insert_page' }>];
    assert.equal(first.ref, 'page-1');
    assert.equal(second.ref, 'page-2');
    assert.equal(first.into, undefined);
    assert.equal(
      markdownOf(first),
      '---\ntitle: "Welcome"\n---\n\n[Setup](./page-2.md#setup) [Old](./page-2.md) [Query](https://acme.test/?x=1) [Other](https://other.test/)\n\n![A](./image-1)![B](https://acme.test/b.png)\n',
    );
    // No <h1> nor <title>: the page is named after its URL.
    assert.match(markdownOf(second), /^---\ntitle: "guide"\n---\n\n## Setup\n\n\[Home\]\(\.\/page-1\.md\)\n$/);
  });

  test('into a page: the start page updates it and links to it by its id; the others go under it', () => {
    const { changes } = importChanges([crawled(home.url, '<main><h1>Welcome</h1></main>'), crawled(guide.url, '<main><a href="/">Home</a></main>')], [], { into: 'page', pageId: 'P1' });
    assert.equal(changes[0]!.operation, 'update_page');
    assert.equal((changes[0] as { page: string }).page, 'P1');
    assert.equal(changes[1]!.operation, 'insert_page');
    assert.equal((changes[1] as { into?: string }).into, 'P1');
    assert.match(markdownOf(changes[1]), /\[Home\]\(\/pages\/P1\)/);
  });

  test('images come 20 to a change, as the batch schema allows', () => {
    const images = Array.from({ length: 25 }, (_, i) => image(`https://acme.test/${i}.png`));
    const { changes, fileKeys } = importChanges([], images, { into: 'root' });
    assert.deepEqual(
      changes.map((c) => (c.operation === 'insert_files' ? c.files.length : 0)),
      [20, 5],
    );
    assert.equal(fileKeys.get(images[19]!), '0/19');
    assert.equal(fileKeys.get(images[20]!), '1/0');
  });

  test('a title with quotes and colons survives the front matter', () => {
    const { changes } = importChanges([crawled('https://acme.test/', '<h1>Q: "why"?</h1>')], [], { into: 'root' });
    assert.match(markdownOf(changes[0]), /^---\ntitle: "Q: \\"why\\"\?"\n---/);
  });
});
