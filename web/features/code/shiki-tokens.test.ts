import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { tokenClasses } from './highlight.ts';
import { kindOfColor, MAX_HIGHLIGHT_CHARS, tokenizeCode as highlightCode } from './shiki-tokens.ts';

describe('code highlighting in the app (the worker’s tokenizer)', () => {
  test('shell code is coloured with the reader’s token kinds, line by line', async () => {
    const lines = await highlightCode('bash', 'quire serve # start\necho "hi"');
    assert.ok(lines);
    assert.equal(lines.length, 2);
    assert.deepEqual(lines.map((line) => line.map((token) => token.text).join('')), ['quire serve # start', 'echo "hi"'], 'no text is lost');
    assert.deepEqual(lines[0]!.find((token) => token.text === '# start'), { text: '# start', kind: 'token-comment' });
    assert.equal(lines[1]!.find((token) => token.text === '"hi"')?.kind, 'token-string-expression');
  });

  test('a language is found by its aliases, in any case', async () => {
    const lines = await highlightCode(' JS ', 'const answer = 42;');
    assert.equal(lines?.[0]?.find((token) => token.text === 'const')?.kind, 'token-keyword');
  });

  test('an unknown language, no language and code too long stay plain', async () => {
    assert.equal(await highlightCode('no-such-language', 'x'), null);
    assert.equal(await highlightCode(undefined, 'x'), null);
    assert.equal(await highlightCode('bash', 'x'.repeat(MAX_HIGHLIGHT_CHARS + 1)), null);
  });

  test('empty lines stay, and a very long line is kept as one plain token', async () => {
    const long = `echo ${'a'.repeat(3000)}`;
    const lines = await highlightCode('bash', `echo 1\n\n${long}`);
    assert.deepEqual(lines?.[1], []);
    assert.deepEqual(lines?.[2], [{ text: long }]);
  });

  test('token classes are the reader’s', () => {
    assert.equal(kindOfColor('var(--code-token-keyword)'), 'token-keyword');
    assert.equal(kindOfColor('var(--code-foreground)'), undefined);
    assert.equal(tokenClasses({ text: 'x', kind: 'token-comment', italic: true }), 'c-token-comment c-italic');
    assert.equal(tokenClasses({ text: 'x' }), '');
  });
});
