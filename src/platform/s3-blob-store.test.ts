// @sqlite-run-only: the S3 blob store against s3rver; no database.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { startTestS3, TEST_S3_KEY, type TestS3 } from '../../test/s3-server.ts';
import { blobHash } from './blob-store.ts';
import { S3BlobStore } from './s3-blob-store.ts';
import type { S3Settings } from '../config.ts';

describe('S3 blob store (against s3rver in its own process)', () => {
  let s3: TestS3;
  let dir: string;
  let store: S3BlobStore;
  const settings = (bucket: string, more: Partial<S3Settings> = {}): S3Settings => ({
    endpoint: s3.endpoint,
    bucket,
    region: 'us-east-1',
    accessKeyId: TEST_S3_KEY,
    secretAccessKey: TEST_S3_KEY,
    forcePathStyle: true,
    presignedDownloads: false,
    prefix: '',
    ...more,
  });
  before(async () => {
    s3 = await startTestS3(['files', 'listing', 'shared']);
    dir = mkdtempSync(join(tmpdir(), 'quire-s3-store-'));
    store = new S3BlobStore(settings('files'), join(dir, 'incoming'));
    await store.verify();
  });
  after(async () => {
    store?.client.destroy();
    await s3?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('bytes are stored under ab/cd/<sha256>, read back whole or by range, and stat gives their size', async () => {
    const bytes = randomBytes(70_000);
    const { hash, size } = await store.put(bytes);
    assert.equal(hash, blobHash(bytes));
    assert.equal(size, bytes.length);
    assert.deepEqual(await store.get(hash), bytes);
    assert.equal(await store.has(hash), true);
    assert.equal(await store.has(hash, bytes.length), true);
    assert.equal(await store.has(hash, bytes.length - 1), false, 'another size is not the blob');
    const ranged = await store.stream(hash, { start: 1000, end: 1999 });
    assert.equal(ranged?.size, bytes.length, 'the size is the whole blob\'s');
    const chunks: Buffer[] = [];
    for await (const chunk of ranged!.body) chunks.push(chunk as Buffer);
    assert.deepEqual(Buffer.concat(chunks), bytes.subarray(1000, 2000));
    assert.equal((await store.stat(hash))?.size, bytes.length);
    assert.match(store.location, /^s3:\/\/files\/ at http:\/\/127\.0\.0\.1:\d+$/);
  });

  test('a large file is streamed from the disk to the bucket, and its incoming file removed', async () => {
    const bytes = randomBytes(12 * 1024 * 1024 + 5);
    const path = await store.incomingPath();
    writeFileSync(path, bytes);
    const hash = blobHash(bytes);
    await store.putFile(path, hash);
    assert.equal(existsSync(path), false);
    const back = await store.stream(hash);
    assert.equal(back?.size, bytes.length);
    const chunks: Buffer[] = [];
    for await (const chunk of back!.body) chunks.push(chunk as Buffer);
    assert.ok(Buffer.concat(chunks).equals(bytes), 'the same bytes, not aws-chunked framing');
  });

  test('what is not stored is undefined, never an error', async () => {
    const hash = blobHash(Buffer.from('never stored'));
    assert.equal(await store.get(hash), undefined);
    assert.equal(await store.stream(hash), undefined);
    assert.equal(await store.stat(hash), undefined);
    assert.equal(await store.has(hash), false);
    assert.equal(await store.get('../../etc/passwd'), undefined, 'a hash that is not one names nothing');
    await store.delete(hash);
  });

  test('bytes the bucket checks against the SHA-256 they are stored under: a PUT whose bytes are not their name is refused', async () => {
    const bytes = Buffer.from('the real bytes');
    const path = await store.incomingPath();
    writeFileSync(path, Buffer.from('other bytes'));
    // s3rver stores what it is sent; a real S3 refuses it (BadDigest). Either way the row is never written for it,
    // and the incoming file is gone.
    await store.putFile(path, blobHash(bytes)).catch(() => undefined);
    assert.equal(existsSync(path), false);
  });

  test('an object cut short by a killed upload is not taken for the blob: storing the bytes again writes them whole', async () => {
    const bytes = randomBytes(400_000);
    const hash = blobHash(bytes);
    // A PUT that sends half of its declared length, then its connection dies (the process sending it was killed).
    await new Promise<void>((resolve) => {
      const url = new URL(`${s3.endpoint}/files/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`);
      const date = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');
      const cut = request(url, {
        method: 'PUT',
        headers: {
          'content-length': bytes.length,
          'x-amz-content-sha256': 'UNSIGNED-PAYLOAD',
          'x-amz-date': date,
          authorization: `AWS4-HMAC-SHA256 Credential=${TEST_S3_KEY}/${date.slice(0, 8)}/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=${'0'.repeat(64)}`,
        },
      });
      cut.on('error', () => undefined);
      cut.write(bytes.subarray(0, 200_000));
      setTimeout(() => {
        cut.destroy();
        setTimeout(resolve, 300);
      }, 200);
    });
    const partial = await store.stat(hash);
    if (partial) assert.notEqual(partial.size, bytes.length, 's3rver keeps the cut object: it must not pass for the blob');
    assert.equal(await store.has(hash, bytes.length), false);
    await store.put(bytes);
    assert.deepEqual(await store.get(hash), bytes);
  });

  test('listing pages through the bucket, only this store\'s objects, under its prefix', async () => {
    const prefixed = new S3BlobStore(settings('listing', { prefix: 'quire/' }), join(dir, 'incoming'), 7);
    const other = new S3BlobStore(settings('listing', { prefix: 'other/' }), join(dir, 'incoming'), 7);
    try {
      const stored = new Set<string>();
      for (let i = 0; i < 23; i++) stored.add((await prefixed.put(Buffer.from(`listed ${i}`))).hash);
      await other.put(Buffer.from('someone else\'s'));
      const listed = [];
      for await (const blob of prefixed.list()) listed.push(blob);
      assert.deepEqual(new Set(listed.map((b) => b.hash)), stored);
      assert.ok(listed.every((b) => b.size > 0 && b.storedAt.getTime() > Date.now() - 60_000));
      const gone = [...stored][0]!;
      await prefixed.delete(gone);
      assert.equal(await prefixed.has(gone), false);
      assert.equal(await other.has(gone), false);
    } finally {
      prefixed.client.destroy();
      other.client.destroy();
    }
  });

  test('a presigned download URL serves the bytes with the type and name the server would have given', async () => {
    const signed = new S3BlobStore(settings('files', { presignedDownloads: true }), join(dir, 'incoming'));
    try {
      const { hash } = await signed.put(Buffer.from('presigned text'));
      assert.equal(await store.downloadUrl(hash, { contentType: 'text/plain', disposition: 'inline' }), undefined, 'off unless S3_PRESIGNED_DOWNLOADS');
      const url = await signed.downloadUrl(hash, { contentType: 'text/plain', disposition: 'attachment; filename="notes.txt"' });
      assert.match(url!, /X-Amz-Signature=/);
      const response = await fetch(url!);
      assert.equal(response.status, 200);
      assert.equal(await response.text(), 'presigned text');
      assert.equal(response.headers.get('content-type'), 'text/plain');
      assert.equal(response.headers.get('content-disposition'), 'attachment; filename="notes.txt"');
    } finally {
      signed.client.destroy();
    }
  });

  test('a bucket that is not there, or a wrong endpoint, is one clear line naming the setting', async () => {
    const missing = new S3BlobStore(settings('no-such-bucket'), join(dir, 'incoming'));
    await assert.rejects(missing.verify(), /S3_BUCKET "no-such-bucket" at http:\/\/127\.0\.0\.1:\d+ cannot be used: there is no such bucket/);
    missing.client.destroy();
    const nowhere = new S3BlobStore({ ...settings('files'), endpoint: 'http://127.0.0.1:9' }, join(dir, 'incoming'));
    await assert.rejects(nowhere.verify(), /S3_BUCKET "files" at http:\/\/127\.0\.0\.1:9 cannot be used: it failed/);
    nowhere.client.destroy();
  });
});
