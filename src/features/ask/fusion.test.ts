import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { fuseRankings } from './fusion.ts';

test('what both rankings found comes before what one ranked first', () => {
  assert.deepEqual(fuseRankings([['a', 'b', 'c'], ['x', 'c', 'b']]), ['b', 'c', 'a', 'x']);
});

test('one ranking alone keeps its order; none gives nothing', () => {
  assert.deepEqual(fuseRankings([[3, 1, 2]]), [3, 1, 2]);
  assert.deepEqual(fuseRankings([[], [5, 4]]), [5, 4]);
  assert.deepEqual(fuseRankings([]), []);
});

test('ties keep the best rank, then the first ranking', () => {
  assert.deepEqual(fuseRankings([['a', 'b'], ['b', 'a']]), ['a', 'b']);
  assert.deepEqual(fuseRankings([['a'], ['b']]), ['a', 'b']);
});

test('every item of every ranking is kept once, and an item first in both is first', () => {
  fc.assert(
    fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 50 })), fc.uniqueArray(fc.integer({ min: 0, max: 50 })), (a, b) => {
      const fused = fuseRankings([a, b]);
      assert.deepEqual([...fused].sort((x, y) => x - y), [...new Set([...a, ...b])].sort((x, y) => x - y));
      if (a.length > 0 && a[0] === b[0]) assert.equal(fused[0], a[0]);
    }),
  );
});
