import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { indexPages, type TreePage } from './page-tree.ts';
import { dropChange, duplicateChange, moveChange, undeleteChanges } from './tree-changes.ts';

const page = (id: string, pages: TreePage[] = [], type = 'document'): TreePage => ({ id, title: id.toUpperCase(), type, pages });

describe('page tree edits as content changes', () => {
  const tree = [page('a', [page('a1'), page('a2')]), page('b'), page('c')];
  const index = indexPages(tree);
  const at = (id: string) => index.byId.get(id)!;

  test('a page moves up or down among its siblings, and not past the ends', () => {
    assert.deepEqual(moveChange(index, at('c'), 'up'), { operation: 'update_page', page: 'c', into: null, at: 1 });
    assert.deepEqual(moveChange(index, at('a1'), 'down'), { operation: 'update_page', page: 'a1', into: 'a', at: 1 });
    assert.equal(moveChange(index, at('a'), 'up'), null);
    assert.equal(moveChange(index, at('c'), 'down'), null);
  });

  test('a page moves into the page above (at its end) and out of its parent (right after it)', () => {
    assert.deepEqual(moveChange(index, at('b'), 'in'), { operation: 'update_page', page: 'b', into: 'a', at: 2 });
    assert.deepEqual(moveChange(index, at('a2'), 'out'), { operation: 'update_page', page: 'a2', into: null, at: 1 });
    assert.equal(moveChange(index, at('a1'), 'in'), null, 'no page above it');
    assert.equal(moveChange(index, at('b'), 'out'), null, 'already at the top');
  });

  test('a dropped page goes before the page it was dropped on, never inside itself', () => {
    assert.deepEqual(dropChange(index, at('c'), at('a2')), { operation: 'update_page', page: 'c', into: 'a', at: 1 });
    assert.deepEqual(dropChange(index, at('c'), at('a')), { operation: 'update_page', page: 'c', into: null, at: 0 });
    assert.equal(dropChange(index, at('a'), at('a1')), null);
    assert.equal(dropChange(index, at('b'), at('b')), null);
  });

  test('in a tree of groups, a page dropped on a group goes into it', () => {
    const grouped = indexPages([page('g1', [page('p')], 'group'), page('g2', [], 'group')]);
    assert.deepEqual(dropChange(grouped, grouped.byId.get('p')!, grouped.byId.get('g2')!), { operation: 'update_page', page: 'p', into: 'g2', at: 0 });
  });

  test('a duplicate comes right after the page, with its document', () => {
    const document = { object: 'document', nodes: [] };
    assert.deepEqual(duplicateChange(index, at('a1'), document), { operation: 'insert_page', title: 'A1 (copy)', document: { document }, into: 'a', at: 1 });
  });

  test('undoing a delete reverts the page then its sub-pages to the revision before', () => {
    assert.deepEqual(
      undeleteChanges(at('a'), 'r1').map((c) => c.page),
      ['a', 'a1', 'a2'],
    );
  });
});
