import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError } from '../../api/client.ts';
import { Autosave, failure, type EditorPresence, type SaveTransport } from './autosave.ts';
import { unsavedEdits } from './save-queue.ts';

/** A storage that keeps what the autosave writes, as localStorage would. */
function memoryStorage() {
  const items = new Map<string, string>();
  return { items, getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v), removeItem: (k: string) => void items.delete(k) };
}

describe('the autosave of a page', () => {
  test('edits made in a burst go as one save after the delay, based on the revision read, then on the one written', async () => {
    const sent: Record<string, unknown>[] = [];
    let revision = 1;
    const transport: SaveTransport = async (change) => {
      sent.push(change);
      return { revision: `r${++revision}` };
    };
    const store = memoryStorage();
    const autosave = new Autosave('p', 'r1', transport, { key: 'k', store }, null, 20);
    autosave.edit({ title: 'A' });
    autosave.edit({ title: 'AB' });
    assert.equal(store.items.has('k'), true, 'kept in the browser until saved');
    await sleep(60);
    assert.deepEqual(sent, [{ operation: 'update_page', page: 'p', baseRevision: 'r1', title: 'AB' }]);
    assert.equal(autosave.snapshot().status, 'saved');
    assert.equal(store.items.has('k'), false, 'forgotten once saved');
    autosave.edit({ description: 'D' });
    await autosave.flush();
    assert.equal(sent[1]!.baseRevision, 'r2');
    autosave.dispose();
  });

  test('a network failure keeps the edits and tries again', async () => {
    let up = false;
    const transport: SaveTransport = async () => {
      if (!up) throw new ApiError(0, 'The server could not be reached');
      return { revision: 'r2' };
    };
    const autosave = new Autosave('p', 'r1', transport, { key: 'k', store: memoryStorage() }, null, 5);
    autosave.edit({ title: 'T' });
    await autosave.flush();
    assert.equal(autosave.snapshot().status, 'offline');
    up = true;
    autosave.online();
    await sleep(20);
    assert.equal(autosave.snapshot().status, 'saved');
    autosave.dispose();
  });

  test('edits kept from an earlier visit are the first save, on their own base revision', async () => {
    const sent: Record<string, unknown>[] = [];
    const autosave = new Autosave('p', 'r9', async (c) => (sent.push(c), { revision: 'r10' }), { key: 'k', store: memoryStorage() }, { base: 'r3', edit: { title: 'Kept' }, at: '' });
    await autosave.flush();
    assert.deepEqual(sent, [{ operation: 'update_page', page: 'p', baseRevision: 'r3', title: 'Kept' }]);
    autosave.dispose();
  });

  test("a 409 with conflicts is a conflict to show; another refusal is the API's message", () => {
    const body = { error: { code: 409, message: 'both' }, revision: 'r5', conflicts: [{ page: 'p', field: 'title', kind: 'edited', base: 'a', ours: 'b', theirs: 'c' }] };
    assert.equal(failure(new ApiError(409, 'both', body)).type, 'conflict');
    assert.deepEqual(failure(new ApiError(409, 'The change request is merged')), { type: 'failed', message: 'The change request is merged' });
    assert.equal(failure(new TypeError('Failed to fetch')).type, 'offline');
  });

  test("another tab's kept edits are left in the browser by this editor's save; its own are forgotten", async () => {
    const store = memoryStorage();
    const theirs = JSON.stringify({ base: 'r1', edit: { description: 'Theirs' }, at: '', tab: 'other' });
    let written = false;
    const transport: SaveTransport = async () => {
      // Another tab of the same page writes its own copy while this editor's request is under way.
      if (!written) store.items.set('k', theirs);
      written = true;
      return { revision: 'r2' };
    };
    const autosave = new Autosave('p', 'r1', transport, { key: 'k', store }, null, 5);
    autosave.edit({ title: 'Mine' });
    assert.equal(JSON.parse(store.items.get('k')!).tab, autosave.tab, 'named after the editor that wrote them');
    await autosave.flush();
    assert.equal(autosave.snapshot().status, 'saved');
    assert.equal(store.items.get('k'), theirs, 'not removed unread');
    autosave.edit({ title: 'Mine again' });
    await autosave.flush();
    assert.equal(store.items.has('k'), false, 'its own copy forgotten once saved');
    autosave.dispose();
  });

  test("a closed tab's edits, arriving after this editor opened, are shown and sent on their own base", async () => {
    const sent: Record<string, unknown>[] = [];
    const store = memoryStorage();
    const autosave = new Autosave('p', 'r5', async (c) => (sent.push(c), { revision: 'r6' }), { key: 'k', store }, null, 5);
    // A tab still open writes its copy too: it sends its own edits, this editor leaves them to it.
    autosave.adopt({ base: 'r4', edit: { description: 'Still typing' }, at: '', tab: 'open' });
    assert.equal(autosave.snapshot().status, 'idle');
    const document = { object: 'document', data: {}, nodes: [] } as never;
    autosave.adopt({ base: 'r4', edit: { description: 'Left behind', document }, at: '', tab: 'gone', closed: true });
    const state = autosave.snapshot();
    assert.deepEqual([unsavedEdits(state), state.base, state.resolvedAt, state.replacedAt], [{ description: 'Left behind', document }, 'r4', 1, 1]);
    await sleep(30);
    assert.deepEqual(sent, [{ operation: 'update_page', page: 'p', baseRevision: 'r4', description: 'Left behind', document: { document } }]);
    assert.equal(store.items.has('k'), false, 'taken in, then forgotten once saved');
    autosave.dispose();
  });

  test("a closed tab's edits found while this editor has its own unsaved go once those are saved", async () => {
    const sent: Record<string, unknown>[] = [];
    let revision = 1;
    const autosave = new Autosave('p', 'r1', async (c) => (sent.push(c), { revision: `r${++revision}` }), { key: 'k', store: memoryStorage() }, null, 5);
    autosave.edit({ title: 'Mine' });
    autosave.adopt({ base: 'r0', edit: { description: 'Left behind' }, at: '', tab: 'gone', closed: true });
    assert.deepEqual(unsavedEdits(autosave.snapshot()), { title: 'Mine' }, 'this editor’s edits are not mixed with them');
    await autosave.flush();
    await sleep(30);
    assert.deepEqual(
      sent.map((c) => [c.baseRevision, c.title ?? c.description]),
      [['r1', 'Mine'], ['r0', 'Left behind']],
    );
    autosave.dispose();
  });

  test("another editor's copy is taken in once that editor is gone, even when its last write never came", async () => {
    const sent: Record<string, unknown>[] = [];
    const store = memoryStorage();
    // The browser's presence, as Web Locks give it: an editor is gone when it lets go.
    const open = new Set<string>();
    const watchers = new Map<string, () => void>();
    const presence: EditorPresence = {
      hold: (tab) => (open.add(tab), () => {
        open.delete(tab);
        watchers.get(tab)?.();
        watchers.delete(tab);
      }),
      whenGone: (tab, callback) => {
        if (!open.has(tab)) queueMicrotask(callback);
        else watchers.set(tab, callback);
        return () => watchers.delete(tab);
      },
    };
    let revision = 5;
    const transport: SaveTransport = async (c) => (sent.push(c), { revision: `r${++revision}` });
    const here = new Autosave('p', 'r5', transport, { key: 'k', store }, null, 5, presence);
    const other = new Autosave('p', 'r5', async () => Promise.reject(new ApiError(0, 'offline')), { key: 'k', store }, null, 5, presence);
    const closeHere = here.open();
    const closeOther = other.open();
    other.online();
    other.edit({ description: 'Typed offline' });
    here.noticed(JSON.parse(store.items.get('k')!));
    other.edit({ description: 'Typed offline, then more' });
    here.noticed(JSON.parse(store.items.get('k')!));
    await sleep(20);
    assert.deepEqual(sent, [], 'an open editor sends its own');
    // The other tab closes without its copy marked closed (its renderer ended first): its last copy is taken in.
    closeOther();
    other.dispose();
    await sleep(30);
    assert.deepEqual(sent, [{ operation: 'update_page', page: 'p', baseRevision: 'r5', description: 'Typed offline, then more' }]);
    assert.equal(store.items.has('k'), false, 'forgotten once saved');
    // Its copy marked closed arriving late after all is the same copy: not sent twice.
    here.noticed({ base: 'r5', edit: { description: 'Typed offline, then more' }, at: '', tab: other.tab, closed: true });
    await sleep(20);
    assert.equal(sent.length, 1);
    // A copy whose editor is already gone when first seen goes at once.
    here.noticed({ base: 'r6', edit: { title: 'From a tab long closed' }, at: '', tab: 'gone' });
    await sleep(30);
    assert.deepEqual(sent.at(-1), { operation: 'update_page', page: 'p', baseRevision: 'r6', title: 'From a tab long closed' });
    closeHere();
    assert.equal(watchers.size, 0, 'nothing watched once closed');
    here.dispose();
  });

  test('a tab closing with unsaved edits marks its copy as left for the next editor', async () => {
    const store = memoryStorage();
    const autosave = new Autosave('p', 'r1', async () => Promise.reject(new ApiError(0, 'offline')), { key: 'k', store }, null, 5);
    autosave.edit({ title: 'Unsent' });
    autosave.leave();
    const kept = () => JSON.parse(store.items.get('k')!);
    assert.deepEqual([kept().edit, kept().closed, kept().tab], [{ title: 'Unsent' }, true, autosave.tab]);
    await sleep(10);
    assert.equal(kept().closed, true, 'still left once the last flush failed');
    autosave.back();
    assert.equal(kept().closed, undefined, 'its own again when the tab comes back');
    autosave.dispose();
  });
});
