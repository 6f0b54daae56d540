import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { PageNode } from '../content/tree.ts';
import type { PageRecord } from '../content/pages.ts';
import { ancestry, defaultOf, firstPage, listedTree, locate, pagesByPath, pageUrl, readingOrder, visibleTree, type VisibleSite } from './site-view.ts';
import { decideConditions, llmsTxt, robotsTxt, sitemapXml } from './machine-readable.ts';

function node(id: string, path: string, attributes: PageRecord['attributes'] = {}, children: PageNode[] = [], kind: PageRecord['kind'] = 'document'): PageNode {
  const page: PageRecord = { id, parentId: null, position: id, kind, title: id, slug: path.split('/').pop() ?? '', documentId: null, attributes, createdAt: '', updatedAt: '' };
  return { page, path, children };
}

const variant = (id: string, path: string, isDefault: boolean, url: string) => ({ id, title: id, path, isDefault, url, spaceId: `s-${id}`, revisionId: `r-${id}` });

const site: VisibleSite = {
  sections: [
    { id: 'guides', title: 'Guides', path: 'guides', isDefault: true, url: '/sites/x/', variants: [variant('v2', 'v2', true, '/sites/x/'), variant('v1', 'v1', false, '/sites/x/v1/')] },
    { id: 'api', title: 'API', path: 'api', isDefault: false, url: '/sites/x/api/', variants: [variant('ref', 'ref', true, '/sites/x/api/')] },
  ],
};

describe('site-view: locating a URL', () => {
  test('the root is the default section and variant', () => {
    const found = locate(site, []);
    assert.equal(found?.section.id, 'guides');
    assert.equal(found?.variant.id, 'v2');
    assert.equal(found?.pagePath, '');
  });
  test('a section path, then a variant path, then the page path', () => {
    assert.deepEqual([locate(site, ['api', 'intro', 'more'])?.section.id, locate(site, ['api', 'intro', 'more'])?.pagePath], ['api', 'intro/more']);
    assert.deepEqual([locate(site, ['v1', 'a'])?.variant.id, locate(site, ['v1', 'a'])?.pagePath], ['v1', 'a']);
  });
  test('the default section or variant is not named by its path (it lives at its parent URL)', () => {
    assert.equal(locate(site, ['guides'])?.pagePath, 'guides');
    assert.equal(locate(site, ['v2'])?.pagePath, 'v2');
  });
  test('a site with nothing visible locates nothing', () => {
    assert.equal(locate({ sections: [] }, ['a']), undefined);
    assert.equal(locate({ sections: [{ ...site.sections[0]!, variants: [] }] }, []), undefined);
  });
  test('a hidden default hands over to the first visible sibling', () => {
    assert.equal(defaultOf([{ isDefault: false, n: 1 }, { isDefault: false, n: 2 }])?.n, 1);
    assert.equal(defaultOf([{ isDefault: false, n: 1 }, { isDefault: true, n: 2 }])?.n, 2);
    assert.equal(defaultOf([]), undefined);
  });
});

describe('site-view: pages as a visitor sees them', () => {
  const tree = [
    node('group', '', {}, [node('intro', 'intro'), node('hidden', 'hidden', { hidden: true }, [node('under-hidden', 'hidden/under')])], 'group'),
    node('beta', 'beta', { condition: 'beta' }, [node('beta-child', 'beta/child')]),
    node('guide', 'guide', {}, [node('install', 'guide/install')]),
  ];
  const holds = (c: string) => c === 'yes';

  test('a failing condition removes the page and its subtree', () => {
    const visible = visibleTree(tree, holds);
    assert.deepEqual([...pagesByPath(visible).keys()], ['intro', 'hidden', 'hidden/under', 'guide', 'guide/install']);
    assert.ok(pagesByPath(visibleTree(tree, () => true)).has('beta/child'));
  });
  test('hidden pages are reachable by path but not listed; reading order skips groups', () => {
    const visible = visibleTree(tree, holds);
    assert.deepEqual(readingOrder(listedTree(visible)).map((n) => n.page.id), ['intro', 'guide', 'install']);
    assert.equal(firstPage(visible)?.page.id, 'intro');
  });
  test('the first page answers at the variant URL, others at their path, segments encoded', () => {
    const visible = visibleTree(tree, holds);
    const first = firstPage(visible);
    assert.equal(pageUrl({ url: '/sites/x/' }, first!, first), '/sites/x/');
    assert.equal(pageUrl({ url: '/sites/x/' }, node('p', 'a b/c'), first), '/sites/x/a%20b/c');
  });
  test('ancestry is the chain down to the page', () => {
    assert.deepEqual(ancestry(tree, 'install').map((n) => n.page.id), ['guide', 'install']);
    assert.deepEqual(ancestry(tree, 'nope'), []);
  });
});

describe('machine-readable text', () => {
  test('adaptive blocks are decided before markdown: kept content unwrapped, the rest dropped', () => {
    const document = {
      object: 'document',
      nodes: [
        { object: 'block', type: 'if', data: { condition: 'yes' }, nodes: [{ object: 'block', type: 'paragraph', nodes: [] }] },
        { object: 'block', type: 'if', data: { condition: 'no' }, nodes: [{ object: 'block', type: 'heading-1', nodes: [] }] },
        { object: 'block', type: 'if', data: {}, nodes: [{ object: 'block', type: 'heading-2', nodes: [] }] },
        // The spec's name for the condition, as imported `{% if %}` blocks hold it.
        { object: 'block', type: 'if', data: { expression: 'yes' }, nodes: [{ object: 'block', type: 'quote', nodes: [] }] },
        { object: 'block', type: 'if', data: { expression: 'no' }, nodes: [{ object: 'block', type: 'heading-3', nodes: [] }] },
      ],
    } as never;
    assert.deepEqual(
      (decideConditions(document, (c) => c === 'yes') as unknown as { nodes: { type: string }[] }).nodes.map((n) => n.type),
      ['paragraph', 'quote'],
    );
  });
  test('the sitemap escapes URLs; robots.txt keeps robots out of sites that are not public', () => {
    assert.match(sitemapXml(['https://a.test/x?a=1&b=2']), /<loc>https:\/\/a.test\/x\?a=1&amp;b=2<\/loc>/);
    assert.match(sitemapXml([]), /<urlset [^>]*>\n<\/urlset>/);
    const row = { visibility: 'unlisted', published: 1 } as never;
    assert.equal(robotsTxt(row, '/sites/x/', [], ''), 'User-agent: *\nDisallow: /sites/x/\n');
    const open = robotsTxt({ visibility: 'public', published: 1 } as never, '/sites/x/', ['/sites/x/secret'], 'https://a.test/sites/x/sitemap.xml');
    assert.match(open, /Allow: \/sites\/x\/\nDisallow: \/sites\/x\/secret\n\nSitemap: https:\/\/a.test\/sites\/x\/sitemap.xml/);
  });
  test('llms.txt lists each variant with links to the markdown of its pages', () => {
    const text = llmsTxt('Acme', 'Docs of Acme', [{ title: 'Guides', pages: [{ title: 'Intro [1]', url: 'https://a.test/intro', description: 'Start here' }] }]);
    assert.equal(text, '# Acme\n\n> Docs of Acme\n\n## Guides\n\n- [Intro 1](https://a.test/intro.md): Start here\n');
  });
});
