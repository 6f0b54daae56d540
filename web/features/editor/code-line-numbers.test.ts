import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lineStarts } from './code-line-numbers.ts';

test('each line of a code block starts at its text start or after a newline', () => {
  assert.deepEqual(lineStarts(''), [0]);
  assert.deepEqual(lineStarts('npm start'), [0]);
  assert.deepEqual(lineStarts('a\nbc\n'), [0, 2, 5]);
  assert.deepEqual(lineStarts('\n\n'), [0, 1, 2]);
});
