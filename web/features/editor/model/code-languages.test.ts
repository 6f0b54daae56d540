import assert from 'node:assert/strict';
import { test } from 'node:test';
import { filterLanguages, languageName, PLAIN_TEXT } from './code-languages.ts';

const LANGUAGES = [
  { id: 'javascript', name: 'JavaScript', aliases: ['js'] },
  { id: 'json', name: 'JSON', aliases: [] },
  { id: 'shellscript', name: 'Shell', aliases: ['bash', 'sh', 'shell', 'zsh'] },
  { id: 'typescript', name: 'TypeScript', aliases: ['ts'] },
];

test('with nothing typed every language is offered, plain text first', () => {
  assert.deepEqual(filterLanguages(LANGUAGES, ' ').map((l) => l.id), ['', 'javascript', 'json', 'shellscript', 'typescript']);
});

test('a name or alias typed whole comes before names that start with it, then names that hold it', () => {
  assert.deepEqual(filterLanguages(LANGUAGES, 'js').map((l) => l.id), ['javascript', 'json']);
  assert.deepEqual(filterLanguages(LANGUAGES, 'BASH').map((l) => l.id), ['shellscript']);
  assert.deepEqual(filterLanguages(LANGUAGES, 'script').map((l) => l.id), ['javascript', 'shellscript', 'typescript']);
});

test('plain text can be found by its name, and nothing is offered for a name no language has', () => {
  assert.deepEqual(filterLanguages(LANGUAGES, 'plain'), [PLAIN_TEXT]);
  assert.deepEqual(filterLanguages(LANGUAGES, 'cobolx'), []);
});

test("a block's language is shown by its name, by alias too, and as written when the highlighter does not know it", () => {
  assert.equal(languageName(LANGUAGES, 'bash'), 'Shell');
  assert.equal(languageName(LANGUAGES, 'typescript'), 'TypeScript');
  assert.equal(languageName(LANGUAGES, 'mylang'), 'mylang');
  assert.equal(languageName(LANGUAGES, ''), 'Plain text');
});
