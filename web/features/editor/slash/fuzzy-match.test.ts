import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matchScore, rankMatches } from './fuzzy-match.ts';

const item = (title: string, keywords = '', description = '') => ({ title, keywords, description });
const items = [item('Text', 'paragraph plain'), item('Heading 1', 'h1 title'), item('Heading 2', 'h2'), item('Inline math', 'formula tex'), item('Math', 'formula tex latex'), item('Page link', 'content reference card')];
const titles = (query: string) => rankMatches(items, query).map((i) => i.title);

test('a query finds items by their title first, then their keywords, then its letters in order', () => {
  assert.deepEqual(titles('head'), ['Heading 1', 'Heading 2']);
  assert.deepEqual(titles('math'), ['Math', 'Inline math'], 'the title that starts with the word first');
  assert.deepEqual(titles('h2'), ['Heading 2']);
  assert.deepEqual(titles('latex'), ['Math']);
  assert.deepEqual(titles('hdg'), ['Heading 1', 'Heading 2'], 'letters in order');
  assert.deepEqual(titles(''), items.map((i) => i.title), 'everything, in order, for no query');
});

test('a query with spaces must find every word of it', () => {
  assert.deepEqual(titles('page link'), ['Page link']);
  assert.deepEqual(titles('page  '), ['Page link']);
  assert.deepEqual(titles('page zebra'), []);
  assert.equal(matchScore('tt', item('Text')), 1, 'letters in order');
  assert.equal(matchScore('gh', item('Heading')), 0, 'letters out of order');
});
