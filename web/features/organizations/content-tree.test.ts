import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Collection, Space } from '../../api/types.ts';
import { contentTree, moveTargets } from './content-tree.ts';

const collection = (id: string, parent?: string) => ({ id, title: id, ...(parent ? { parent } : {}) }) as Collection;
const space = (id: string, parent?: string) => ({ id, title: id, ...(parent ? { parent } : {}) }) as Space;

describe('the sidebar tree of an organization', () => {
  test('collections hold their sub-collections and spaces, in the order listed', () => {
    const tree = contentTree([collection('a'), collection('b', 'a')], [space('s1', 'b'), space('s2'), space('s3', 'a')]);
    assert.deepEqual(
      tree.map((n) => (n.kind === 'collection' ? [n.collection.id, n.children.map((c) => (c.kind === 'collection' ? c.collection.id : c.space.id))] : n.space.id)),
      [['a', ['b', 's3']], 's2'],
    );
  });
  test('what sits in a collection this person cannot see shows at the top', () => {
    const tree = contentTree([], [space('s1', 'hidden')]);
    assert.equal(tree.length, 1);
  });
  test('a collection cannot move into itself or below itself', () => {
    const all = [collection('a'), collection('b', 'a'), collection('c', 'b'), collection('d')];
    assert.deepEqual(moveTargets(all, { kind: 'collection', id: 'a' }).map((c) => c.id), ['d']);
    assert.deepEqual(moveTargets(all, { kind: 'space', id: 's' }).map((c) => c.id), ['a', 'b', 'c', 'd']);
  });
});
