import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ancestorsOf, indexPages, pageAtPath, pagePath, type TreePage } from './page-tree.ts';

const doc = (id: string, path: string, pages: TreePage[] = []): TreePage => ({ id, title: id, type: 'document', path, pages });
const tree: TreePage[] = [
  { id: 'g', title: 'Group', type: 'group', path: 'group', pages: [doc('a', 'group/a', [doc('a1', 'group/a/a1')]), doc('b', 'group/b')] },
  doc('c', 'c'),
];

describe('page tree of a space', () => {
  test('pages are found by id and by path, documents in reading order', () => {
    const index = indexPages(tree);
    assert.equal(index.byId.get('a1')?.path, 'group/a/a1');
    assert.equal(index.byPath.get('group/b')?.id, 'b');
    assert.deepEqual(index.order.map((p) => p.id), ['a', 'a1', 'b', 'c']);
  });
  test('breadcrumbs run from the top down to the parent', () => {
    assert.deepEqual(ancestorsOf(indexPages(tree), 'a1').map((p) => p.id), ['g', 'a']);
    assert.deepEqual(ancestorsOf(indexPages(tree), 'c'), []);
  });
  test('an empty path opens the first readable page; a path with escapes is read decoded', () => {
    const index = indexPages([doc('x', 'x', []), doc('é', 'café')]);
    assert.equal(pageAtPath(index, '')?.id, 'x');
    assert.equal(pageAtPath(index, 'caf%C3%A9')?.id, 'é');
    assert.equal(pageAtPath(index, 'missing'), undefined);
  });
  test('a hidden first page is skipped when another can open the space', () => {
    const index = indexPages([{ ...doc('h', 'h'), hidden: true }, doc('v', 'v')]);
    assert.equal(pageAtPath(index, '/')?.id, 'v');
  });
  test('a deep tree is indexed without recursion', () => {
    let root = doc('p0', 'p0');
    const top = root;
    for (let i = 1; i < 20_000; i++) {
      const child = doc(`p${i}`, `p${i}`);
      root.pages = [child];
      root = child;
    }
    const index = indexPages([top]);
    assert.equal(index.order.length, 20_000);
    assert.equal(ancestorsOf(index, 'p19999').length, 19_999);
  });
  test('app paths are the ones the API gives in urls.app', () => assert.equal(pagePath('s1', doc('a', 'guide/setup')), '/s/s1/guide/setup'));
});
