import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { changedPages } from './changed-pages.ts';

const page = (id: string, title = id) => ({ id, title });

describe('the changed pages of a change request', () => {
  test('each page is one row with what happened to it', () => {
    const rows = changedPages([
      { type: 'page_created', page: page('a', 'New') },
      { type: 'page_moved', page: page('b', 'Guide'), parent: { after: { title: 'Docs' } } },
      { type: 'page_edited', page: page('b', 'Guide'), attributes: { document: { before: 'x', after: 'y' }, title: { before: 'Old guide', after: 'Guide' } } },
      { type: 'page_deleted', page: page('c', 'Gone') },
      { type: 'file_created' },
    ]);
    assert.deepEqual(rows, [
      { id: 'a', title: 'New', kinds: ['added'] },
      { id: 'b', title: 'Guide', kinds: ['moved', 'renamed', 'edited'], detail: 'moved to Docs; was “Old guide”' },
      { id: 'c', title: 'Gone', kinds: ['deleted'] },
    ]);
  });

  test('a page only renamed is not said to be edited', () => {
    assert.deepEqual(changedPages([{ type: 'page_edited', page: page('a'), attributes: { slug: { before: 'x', after: 'y' } } }])[0]?.kinds, ['renamed']);
  });
});
