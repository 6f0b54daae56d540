import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { normalized, similarity, vectorBytes, vectorOfBytes } from './vectors.ts';

test('a normalized vector has length 1, and its cosine with itself is 1', () => {
  const v = normalized([3, 4]);
  assert.deepEqual([...v].map((x) => Math.round(x * 1e6) / 1e6), [0.6, 0.8]);
  assert.ok(Math.abs(similarity(v, v) - 1) < 1e-6);
  assert.deepEqual([...normalized([0, 0])], [0, 0], 'a zero vector is near nothing');
});

test('vectors of different lengths (two models) are not compared', () => {
  assert.equal(similarity(normalized([1, 0]), normalized([1, 0, 0])), 0);
});

test('bytes are little-endian float32 and read back exactly', () => {
  assert.deepEqual([...vectorBytes(new Float32Array([1]))], [0, 0, 0x80, 0x3f]);
  fc.assert(
    fc.property(fc.array(fc.float({ noNaN: true, noDefaultInfinity: true }), { maxLength: 64 }), (values) => {
      const vector = Float32Array.from(values);
      assert.deepEqual(vectorOfBytes(vectorBytes(vector)), vector);
    }),
  );
});

test('read from a view into a larger buffer (a database driver may hand one out)', () => {
  const bytes = vectorBytes(new Float32Array([0.5, -2]));
  const padded = new Uint8Array(bytes.length + 3);
  padded.set(bytes, 3);
  assert.deepEqual([...vectorOfBytes(padded.subarray(3))], [0.5, -2]);
});
