import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { plainExcerpt } from './visitor-search.ts';

describe('search excerpts as the reader shows them', () => {
  test('the engine\'s marks become offsets into the unescaped text', () => {
    const { excerpt, marks } = plainExcerpt('Use <mark>npm</mark> &amp; <mark>yarn</mark> &lt;b&gt;');
    assert.equal(excerpt, 'Use npm & yarn <b>');
    assert.deepEqual(marks.map(([start, end]) => excerpt.slice(start, end)), ['npm', 'yarn']);
  });

  test('a page that writes "<mark>" in its text is not marked: the engine escaped it', () => {
    const { excerpt, marks } = plainExcerpt('write &lt;mark&gt;here&lt;/mark&gt;');
    assert.equal(excerpt, 'write <mark>here</mark>');
    assert.deepEqual(marks, []);
  });

  test('leading spaces are trimmed and the offsets follow; empty marks are left out', () => {
    const { excerpt, marks } = plainExcerpt('  <mark>Run</mark> the <mark></mark>installer  ');
    assert.equal(excerpt, 'Run the installer');
    assert.deepEqual(marks, [[0, 3]]);
  });
});
