import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyBetween } from 'fractional-indexing';
import { positionAfter, positionAtEnd, positionBefore } from './positions.ts';

/** `count` keys in order, as a run of appends would produce them. */
function keys(count: number): string[] {
  const result: string[] = [];
  for (let i = 0; i < count; i++) result.push(positionAtEnd(result));
  return result;
}

function isBetween(key: string, lower: string | undefined, upper: string | undefined): boolean {
  return (lower === undefined || key > lower) && (upper === undefined || key < upper);
}

describe('positions', () => {
  test('the first item of an empty parent gets a key', () => {
    const key = positionAtEnd([]);
    assert.equal(typeof key, 'string');
    assert.ok(key.length > 0);
  });

  test('a key at the end sorts after every sibling', () => {
    const ordered = keys(5);
    const key = positionAtEnd(ordered);
    assert.ok(ordered.every((k) => key > k));
  });

  test('appended keys are strictly increasing', () => {
    const ordered = keys(50);
    for (let i = 1; i < ordered.length; i++) assert.ok(ordered[i - 1]! < ordered[i]!);
  });

  test('before the first sibling sorts before it', () => {
    const ordered = keys(3);
    assert.ok(positionBefore(ordered, 0) < ordered[0]!);
  });

  test('before a middle sibling sorts between it and the one before', () => {
    const ordered = keys(3);
    assert.ok(isBetween(positionBefore(ordered, 1), ordered[0], ordered[1]));
    assert.ok(isBetween(positionBefore(ordered, 2), ordered[1], ordered[2]));
  });

  test('after the last sibling sorts after it', () => {
    const ordered = keys(3);
    assert.ok(positionAfter(ordered, 2) > ordered[2]!);
  });

  test('after a middle sibling sorts between it and the one after', () => {
    const ordered = keys(3);
    assert.ok(isBetween(positionAfter(ordered, 0), ordered[0], ordered[1]));
    assert.ok(isBetween(positionAfter(ordered, 1), ordered[1], ordered[2]));
  });

  test('a single sibling can be preceded and followed', () => {
    const ordered = keys(1);
    assert.ok(positionBefore(ordered, 0) < ordered[0]!);
    assert.ok(positionAfter(ordered, 0) > ordered[0]!);
  });

  test('repeated inserts before the same sibling keep finding room', () => {
    const ordered = keys(2);
    for (let i = 0; i < 100; i++) {
      const key = positionBefore(ordered, 1);
      assert.ok(isBetween(key, ordered[0], ordered[1]));
      ordered.splice(1, 0, key);
    }
    for (let i = 1; i < ordered.length; i++) assert.ok(ordered[i - 1]! < ordered[i]!);
  });

  test('repeated inserts after the same sibling keep finding room', () => {
    const ordered = keys(2);
    for (let i = 0; i < 100; i++) {
      const key = positionAfter(ordered, 0);
      assert.ok(isBetween(key, ordered[0], ordered[1]));
      ordered.splice(1, 0, key);
    }
    for (let i = 1; i < ordered.length; i++) assert.ok(ordered[i - 1]! < ordered[i]!);
  });

  describe('equal keys from concurrent inserts', () => {
    const a0 = generateKeyBetween(null, null);
    const a1 = generateKeyBetween(a0, null);
    const a2 = generateKeyBetween(a1, null);

    test('at the end, after two equal last keys', () => {
      assert.ok(positionAtEnd([a0, a1, a1]) > a1);
    });

    test('before the second of two equal keys sorts strictly before both', () => {
      const key = positionBefore([a0, a1, a1, a2], 2);
      assert.ok(isBetween(key, a0, a1));
    });

    test('before the first of two equal keys at the start sorts before both', () => {
      assert.ok(positionBefore([a1, a1, a2], 1) < a1);
      assert.ok(positionBefore([a1, a1, a2], 0) < a1);
    });

    test('after the first of two equal keys sorts strictly after both', () => {
      const key = positionAfter([a0, a1, a1, a2], 1);
      assert.ok(isBetween(key, a1, a2));
    });

    test('after the first of two equal keys at the end sorts after both', () => {
      assert.ok(positionAfter([a0, a1, a1], 1) > a1);
      assert.ok(positionAfter([a0, a1, a1], 2) > a1);
    });

    test('three equal keys in a row are skipped over', () => {
      assert.ok(isBetween(positionBefore([a0, a1, a1, a1, a2], 3), a0, a1));
      assert.ok(isBetween(positionAfter([a0, a1, a1, a1, a2], 1), a1, a2));
    });

    test('when every sibling has the same key, before and after still give a different key', () => {
      assert.ok(positionBefore([a1, a1, a1], 1) < a1);
      assert.ok(positionAfter([a1, a1, a1], 1) > a1);
    });
  });
});
