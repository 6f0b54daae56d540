import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Thread } from '../change-requests/comment-place.ts';
import { commentRanges, quotedWords } from './comment-anchors.ts';

test('the words a comment quotes at its start, over lines, with markdown escapes undone', () => {
  assert.equal(quotedWords('> the volume\n\nWhy not keep it?'), 'the volume');
  assert.equal(quotedWords('> Never delete\n> the *volume*\\!\n\nreally'), 'Never delete the *volume*!');
  assert.equal(quotedWords('Why? > not a quote'), '');
  assert.equal(quotedWords(undefined), '');
});

test('open comments on words of a block are ranges; resolved ones, page comments and comments quoting nothing are not', () => {
  const thread = (id: string, markdown: string, node?: string, status: Thread['status'] = 'open') => ({ id, body: { markdown }, status, target: node ? { node: { id: node } } : {} }) as Thread;
  const threads = [thread('a', '> the volume\n\nok?', 'k1'), thread('b', 'No quote', 'k1'), thread('c', '> words', undefined), thread('d', '> done', 'k2', 'resolved'), thread('e', '> again', 'k2')];
  assert.deepEqual(commentRanges(threads, 'e'), [
    { id: 'a', node: 'k1', text: 'the volume' },
    { id: 'e', node: 'k2', text: 'again', active: true },
  ]);
});
