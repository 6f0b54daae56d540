import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseLanguages } from './languages.ts';

test('typed language codes become a list of distinct codes', () => {
  assert.deepEqual(parseLanguages('fr, de ja'), ['fr', 'de', 'ja']);
  assert.deepEqual(parseLanguages(' FR,fr;;  '), ['fr']);
  assert.deepEqual(parseLanguages(''), []);
});
