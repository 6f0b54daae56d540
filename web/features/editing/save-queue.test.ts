import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Document } from '../../../src/features/content/document/types.ts';
import { initialSaveState, saveReducer, shouldSend, statusText, unsavedEdits, updatePageChange, type SaveEvent, type SaveState } from './save-queue.ts';

function doc(...blocks: string[]): Document {
  return {
    object: 'document',
    data: {},
    nodes: blocks.map((b) => ({ object: 'block', type: 'paragraph', key: b.split(':')[0], nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: b.split(':')[1]!, marks: [] }] }] })),
  } as unknown as Document;
}
const texts = (d: Document | undefined) => (d?.nodes ?? []).map((n) => `${(n as { key: string }).key}:${((n as { nodes: { leaves: { text: string }[] }[] }).nodes[0]!.leaves[0]!.text)}`);
const run = (state: SaveState, ...events: SaveEvent[]) => events.reduce(saveReducer, state);

describe('the save queue of a page being edited', () => {
  const start = initialSaveState('p1', 'r1');

  test('edits gather until sent, then the save moves the base to the revision written', () => {
    let s = run(start, { type: 'edit', edit: { title: 'A' } }, { type: 'edit', edit: { description: 'B' } });
    assert.equal(s.status, 'pending');
    assert.deepEqual(s.pending, { title: 'A', description: 'B' });
    s = saveReducer(s, { type: 'send' });
    assert.equal(statusText(s), 'Saving…');
    assert.deepEqual(updatePageChange(s.pageId, s.base, s.inFlight!), { operation: 'update_page', page: 'p1', baseRevision: 'r1', title: 'A', description: 'B' });
    s = saveReducer(s, { type: 'saved', revision: 'r2' });
    assert.deepEqual([s.status, s.base, s.pending, s.inFlight], ['saved', 'r2', null, null]);
  });

  test('one request at a time: edits made meanwhile wait for the next one', () => {
    let s = run(start, { type: 'edit', edit: { title: 'A' } }, { type: 'send' }, { type: 'edit', edit: { title: 'AB' } });
    assert.equal(shouldSend(s), false);
    s = saveReducer(s, { type: 'saved', revision: 'r2' });
    assert.deepEqual([s.status, s.pending], ['pending', { title: 'AB' }]);
    assert.equal(shouldSend(s), true);
  });

  test('offline keeps every edit, in flight or not, and sends them when back online', () => {
    let s = run(start, { type: 'edit', edit: { title: 'A' } }, { type: 'send' }, { type: 'edit', edit: { description: 'B' } }, { type: 'offline' });
    assert.equal(statusText(s), 'Offline – changes kept');
    assert.deepEqual(s.pending, { title: 'A', description: 'B' });
    assert.equal(shouldSend(s), false);
    s = saveReducer(s, { type: 'edit', edit: { title: 'C' } });
    assert.equal(s.status, 'offline');
    s = saveReducer(s, { type: 'online' });
    assert.equal(shouldSend(s), true);
    assert.equal(s.base, 'r1', 'still based on the revision the edits were made on');
  });

  test("an API error shows the API's message and keeps the edits", () => {
    const s = run(start, { type: 'edit', edit: { title: 'A' } }, { type: 'send' }, { type: 'failed', message: 'body/title must NOT have fewer than 1 characters' });
    assert.equal(statusText(s), 'Not saved: body/title must NOT have fewer than 1 characters');
    assert.deepEqual(unsavedEdits(s), { title: 'A' });
  });

  test('a merged answer replaces the document, carrying over edits made while the request was under way', () => {
    const s = run(
      start,
      { type: 'edit', edit: { document: doc('a:ONE', 'b:two', 'c:three') } },
      { type: 'send' },
      { type: 'edit', edit: { document: doc('a:ONE', 'b:TWO', 'c:three') } },
      { type: 'saved', revision: 'r3', merged: doc('a:ONE', 'b:two', 'c:THEIRS') },
    );
    assert.deepEqual(texts(s.replaced), ['a:ONE', 'b:TWO', 'c:THEIRS']);
    assert.deepEqual(texts(s.pending?.document), ['a:ONE', 'b:TWO', 'c:THEIRS']);
    assert.equal(s.replacedAt, 1);
    assert.equal(s.base, 'r3');
  });

  test('a conflict waits for a choice; keep mine / keep theirs make the next save, on the revision of the conflict', () => {
    const conflicted = run(
      start,
      { type: 'edit', edit: { document: doc('a:one', 'b:mine'), title: 'Mine' } },
      { type: 'send' },
      {
        type: 'conflict',
        revision: 'r5',
        message: 'both changed block "b"',
        document: doc('a:one', 'b:mine'),
        conflicts: [
          { page: 'p1', field: 'document', block: 'b', kind: 'edited', base: null, ours: doc('b:mine').nodes[0], theirs: doc('b:theirs').nodes[0] },
          { page: 'p1', field: 'title', kind: 'edited', base: 'Old', ours: 'Mine', theirs: 'Theirs' },
        ],
      },
    );
    assert.equal(conflicted.status, 'conflict');
    assert.equal(shouldSend(saveReducer(conflicted, { type: 'edit', edit: { description: 'x' } })), false);
    const theirs = saveReducer(conflicted, { type: 'resolve', choices: new Map([[0, 'theirs'], [1, 'mine']]) });
    assert.deepEqual(texts(theirs.pending?.document), ['a:one', 'b:theirs']);
    assert.equal(theirs.pending?.title, 'Mine');
    assert.deepEqual(texts(theirs.replaced), ['a:one', 'b:theirs']);
    assert.equal(theirs.base, 'r5');
    assert.equal(shouldSend(theirs), true);
    const mine = saveReducer(conflicted, { type: 'resolve', choices: new Map([[0, 'mine'], [1, 'theirs']]) });
    assert.deepEqual(texts(mine.pending?.document), ['a:one', 'b:mine']);
    assert.equal(mine.pending?.title, 'Theirs');
  });

  test('a block the other side deleted is removed when theirs is kept', () => {
    const s = run(
      start,
      { type: 'edit', edit: { document: doc('a:one', 'b:mine') } },
      { type: 'send' },
      { type: 'conflict', revision: 'r5', message: 'x', document: doc('a:one', 'b:mine'), conflicts: [{ page: 'p1', field: 'document', block: 'b', kind: 'deleted', base: null, ours: doc('b:mine').nodes[0], theirs: null }] },
      { type: 'resolve', choices: new Map([[0, 'theirs']]) },
    );
    assert.deepEqual(texts(s.pending?.document), ['a:one']);
  });
});
