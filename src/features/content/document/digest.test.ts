// @sqlite-run-only: digests only; no database.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { base64url, pureSha1, pureSha256, sha1, sha256 } from './digest.ts';

const node = (algorithm: string, value: string) => createHash(algorithm).update(value).digest('base64url');

describe('digests the same in Node and in a browser', () => {
  test('the pure SHA-256 and SHA-1 equal node:crypto on any string (lone surrogates and astral characters included)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.string({ minLength: 50, maxLength: 300 }), fc.json()), (value) => {
        assert.equal(pureSha256(value), node('sha256', value));
        assert.equal(pureSha1(value), node('sha1', value));
      }),
      { numRuns: 2000 },
    );
    for (const value of ['', 'a', 'ab', 'abc', '\u{1F600}', '\uD800', 'x'.repeat(55), 'x'.repeat(56), 'x'.repeat(64), 'é'.repeat(1000)]) {
      assert.equal(pureSha256(value), node('sha256', value));
      assert.equal(pureSha1(value), node('sha1', value));
    }
  });

  test('base64url writes any bytes as Buffer does', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 70 }), (bytes) => assert.equal(base64url(bytes), Buffer.from(bytes).toString('base64url'))));
  });

  test('in Node the exported digests are node:crypto', () => {
    assert.equal(sha256('quire'), node('sha256', 'quire'));
    assert.equal(sha1('quire'), node('sha1', 'quire'));
  });

});
