import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError } from '../../api/client.ts';
import { Autosave, failure, type SaveTransport } from './autosave.ts';

/** A storage that keeps what the autosave writes, as localStorage would. */
function memoryStorage() {
  const items = new Map<string, string>();
  return { items, setItem: (k: string, v: string) => void items.set(k, v), removeItem: (k: string) => void items.delete(k) };
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
});
