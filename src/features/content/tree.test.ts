import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PageRecord } from './pages.ts';
import { buildTree, flattenTree, slugify, subtreeIds, uniqueSlug } from './tree.ts';

const T0 = '2026-01-01T00:00:00.000Z';
function page(id: string, fields: Partial<PageRecord> = {}): PageRecord {
  return { id, parentId: null, position: 'a0', kind: 'document', title: id, slug: id.toLowerCase(), documentId: null, attributes: {}, createdAt: T0, updatedAt: T0, ...fields };
}

describe('slugify', () => {
  test('lower-case words joined by single dashes, no dash at either end', () => {
    assert.equal(slugify('Getting Started'), 'getting-started');
    assert.equal(slugify('  What is   Quire?!  '), 'what-is-quire');
    assert.equal(slugify('API v2.1 — reference'), 'api-v2-1-reference');
    assert.equal(slugify('snake_case and/slashes'), 'snake-case-and-slashes');
  });

  test('Latin accents are dropped, compatibility forms folded', () => {
    assert.equal(slugify('Café au lait'), 'cafe-au-lait');
    assert.equal(slugify('Crème Brûlée'), 'creme-brulee');
    assert.equal(slugify('Ｆｕｌｌｗｉｄｔｈ'), 'fullwidth');
  });

  test('non-Latin titles keep their letters, composed', () => {
    assert.equal(slugify('日本語 ガイド'), '日本語-ガイド');
    assert.equal(slugify('한국어 문서'), '한국어-문서');
    assert.equal(slugify('Привет мир'), 'привет-мир');
    assert.equal(slugify('हिन्दी पाठ'), 'हिन्दी-पाठ');
  });

  test('a title without letters or digits gives "page"', () => {
    assert.equal(slugify(''), 'page');
    assert.equal(slugify('???'), 'page');
    assert.equal(slugify('🎉'), 'page');
  });

  test('slugs are cut at 100 characters without a trailing dash', () => {
    const slug = slugify(`${'a'.repeat(99)} b`);
    assert.equal(slug, 'a'.repeat(99));
    assert.equal(slugify('x'.repeat(300)).length, 100);
  });
});

describe('uniqueSlug', () => {
  test('the base when free, else the first free numbered one', () => {
    assert.equal(uniqueSlug('intro', new Set()), 'intro');
    assert.equal(uniqueSlug('intro', new Set(['intro'])), 'intro-2');
    assert.equal(uniqueSlug('intro', new Set(['intro', 'intro-2', 'intro-4'])), 'intro-3');
  });
});

describe('buildTree', () => {
  test('nests pages under their parents, siblings by position then id, with paths', () => {
    const tree = buildTree([
      page('C', { position: 'a2' }),
      page('A', { position: 'a0' }),
      page('B2', { parentId: 'A', position: 'a1' }),
      page('B1', { parentId: 'A', position: 'a0' }),
      page('D', { parentId: 'B1' }),
      page('Y', { position: 'a1' }),
      page('X', { position: 'a1' }),
    ]);
    const shape = (nodes: ReturnType<typeof buildTree>): unknown[] => nodes.map((n) => (n.children.length ? [n.path, shape(n.children)] : n.path));
    assert.deepEqual(shape(tree), [['a', [['a/b1', ['a/b1/d']], 'a/b2']], 'x', 'y', 'c']);
    assert.deepEqual(
      flattenTree(tree).map((n) => n.page.id),
      ['A', 'B1', 'D', 'B2', 'X', 'Y', 'C'],
    );
  });

  test('link pages add no path segment; their children hang on the parent path', () => {
    const tree = buildTree([page('G'), page('L', { kind: 'link', parentId: 'G' }), page('Under', { parentId: 'L' })]);
    assert.equal(tree[0]!.children[0]!.path, 'g');
    assert.equal(tree[0]!.children[0]!.children[0]!.path, 'g/under');
  });

  test('a page whose parent is missing shows at the root; a cycle does not loop', () => {
    const orphans = buildTree([page('A', { parentId: 'gone' })]);
    assert.deepEqual(
      orphans.map((n) => n.path),
      ['a'],
    );
    assert.ok(Array.isArray(buildTree([page('A', { parentId: 'B' }), page('B', { parentId: 'A' })])));
  });
});

describe('subtreeIds', () => {
  test('the page and everything below it, nothing else', () => {
    const pages = [page('A'), page('B', { parentId: 'A' }), page('C', { parentId: 'B' }), page('D')];
    assert.deepEqual([...subtreeIds(pages, 'A')].sort(), ['A', 'B', 'C']);
    assert.deepEqual([...subtreeIds(pages, 'D')], ['D']);
  });
});
