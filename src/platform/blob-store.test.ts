import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { blobHash, LocalBlobStore } from './blob-store.ts';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('local blob store', () => {
  let root: string;
  let store: LocalBlobStore;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'quire-blobs-'));
    store = new LocalBlobStore(join(root, 'blobs'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test('bytes are stored under ab/cd/<sha256> and read back', async () => {
    const bytes = Buffer.from('hello, blob store');
    const { hash, size } = await store.put(bytes);
    assert.equal(hash, blobHash(bytes));
    assert.match(hash, /^[0-9a-f]{64}$/);
    assert.equal(size, bytes.length);
    assert.ok(filesUnder(store.root).includes(join(store.root, hash.slice(0, 2), hash.slice(2, 4), hash)));
    assert.deepEqual(await store.get(hash), bytes);
    assert.equal(await store.has(hash), true);
  });

  test('the same content is stored once, even when written concurrently', async () => {
    const bytes = Buffer.from(`same content ${Date.now()}`);
    const results = await Promise.all([store.put(bytes), store.put(bytes), store.put(Buffer.from(bytes))]);
    assert.equal(new Set(results.map((r) => r.hash)).size, 1);
    const hash = results[0]!.hash;
    const copies = filesUnder(store.root).filter((path) => path.includes(hash));
    assert.deepEqual(copies, [join(store.root, hash.slice(0, 2), hash.slice(2, 4), hash)], 'one file, no temporary leftovers');
  });

  test('different content gets different addresses', async () => {
    const a = await store.put(Buffer.from('a'));
    const b = await store.put(Buffer.from('b'));
    assert.notEqual(a.hash, b.hash);
  });

  test('an empty file is a blob like any other', async () => {
    const { hash, size } = await store.put(Buffer.alloc(0));
    assert.equal(size, 0);
    assert.deepEqual(await store.get(hash), Buffer.alloc(0));
  });

  test('stream gives the size and the bytes', async () => {
    const { hash } = await store.put(Buffer.from('streamed bytes'));
    const stored = await store.stream(hash);
    assert.ok(stored);
    assert.equal(stored.size, 14);
    assert.equal(await text(stored.body), 'streamed bytes');
  });

  test('an unknown hash is absent', async () => {
    const unknown = blobHash(Buffer.from('never stored'));
    assert.equal(await store.get(unknown), undefined);
    assert.equal(await store.stream(unknown), undefined);
    assert.equal(await store.has(unknown), false);
  });

  test('anything but a lowercase sha256 never becomes a path', async () => {
    for (const hash of ['../../etc/passwd', '', 'ABCDEF'.repeat(11).slice(0, 64), `${'a'.repeat(63)}/`, 'a'.repeat(65)]) {
      assert.equal(await store.get(hash), undefined, hash);
      assert.equal(await store.stream(hash), undefined, hash);
      assert.equal(await store.has(hash), false, hash);
    }
  });
});
