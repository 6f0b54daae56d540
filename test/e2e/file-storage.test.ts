import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { collectUnreferencedBlobs } from '../../src/features/files/collect.ts';
import { openFileDownload } from '../../src/features/files/service.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { ok } from '../assertions.ts';
import { buildSpace } from '../factories.ts';
import { noisyPng } from '../fixtures/png.ts';
import { listenOnRandomPort, startServer, type TestServer } from '../helpers.ts';
import { startTestS3, type TestS3 } from '../s3-server.ts';
import { officialClient } from './gitbook-client.ts';

/*
 * Files through the API on each store: DATA_DIR (the default) and an S3-compatible bucket (FILE_STORAGE=s3, here
 * s3rver in its own process). Uploaded over HTTP, downloaded whole or by range, inserted and read with the
 * official client; bytes missing from the store are a 404 and a log line; bytes no row names are collected.
 */

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

for (const storage of ['local', 's3'] as const) {
  describe(`files on ${storage === 'local' ? 'the local disk' : 'S3'}`, { timeout: 120_000 }, () => {
    let s3: TestS3 | undefined;
    let t: TestServer;
    let origin: string;
    before(async () => {
      if (storage === 's3') s3 = await startTestS3(['quire']);
      t = await startServer({ env: s3 ? s3.env('quire') : {} });
      origin = await listenOnRandomPort(t);
    });
    after(async () => {
      await t?.close();
      await s3?.stop();
    });

    const upload = async (spaceId: string, name: string, bytes: Buffer, type: string) => {
      const response = await fetch(`${origin}/v1/spaces/${spaceId}/files/uploads?name=${encodeURIComponent(name)}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.admin.token}`, 'content-type': type },
        body: new Uint8Array(bytes),
      });
      return { status: response.status, body: await response.json(), headers: Object.fromEntries(response.headers) };
    };

    test('an upload is stored, downloaded whole and by range, inserted, and read with the official client', async () => {
      assert.equal(t.app.ctx.blobs.location.startsWith(storage === 's3' ? 's3://quire/' : t.config.dataDir), true, t.app.ctx.blobs.location);
      const space = await buildSpace(t, { title: `Files on ${storage}` });
      const bytes = noisyPng(700, 700);
      const uploaded = ok(await upload(space.id, 'shot.png', bytes, 'image/png'), 201);
      assert.equal(uploaded.id, sha256(bytes));
      const whole = await fetch(uploaded.downloadURL);
      assert.equal(whole.status, 200);
      assert.equal(whole.headers.get('accept-ranges'), 'bytes');
      assert.deepEqual(Buffer.from(await whole.arrayBuffer()), bytes);

      const part = await fetch(uploaded.downloadURL, { headers: { range: 'bytes=100-1099' } });
      assert.equal(part.status, 206);
      assert.equal(part.headers.get('content-range'), `bytes 100-1099/${bytes.length}`);
      assert.equal(part.headers.get('content-length'), '1000');
      assert.deepEqual(Buffer.from(await part.arrayBuffer()), bytes.subarray(100, 1100));
      const tail = await fetch(uploaded.downloadURL, { headers: { range: 'bytes=-10' } });
      assert.equal(tail.status, 206);
      assert.deepEqual(Buffer.from(await tail.arrayBuffer()), bytes.subarray(bytes.length - 10));
      const beyond = await fetch(uploaded.downloadURL, { headers: { range: `bytes=${bytes.length + 5}-` } });
      assert.equal(beyond.status, 416);
      assert.equal(beyond.headers.get('content-range'), `bytes */${bytes.length}`);
      await beyond.arrayBuffer();

      const batch = ok(await t.api('POST', `/v1/spaces/${space.id}/content`, { body: { changes: [{ operation: 'insert_files', files: [{ name: 'Shot.png', upload: uploaded.id }] }] } }));
      const client = officialClient({ endpoint: origin, authToken: t.admin.token });
      const { data: file } = await client.spaces.getFileById(space.id, batch.insertedFiles[0].id);
      assert.deepEqual([file.size, file.contentType, file.dimensions], [bytes.length, 'image/png', { width: 700, height: 700 }]);
      assert.deepEqual(Buffer.from(await (await fetch(file.downloadURL)).arrayBuffer()), bytes);
    });

    test('bytes gone from the store behind Quire\'s back are a 404 and an error in the log, never a 500', async () => {
      const space = await buildSpace(t, { title: `Lost on ${storage}` });
      const bytes = Buffer.from(`soon lost ${storage} ${Date.now()}`);
      const uploaded = ok(await upload(space.id, 'lost.txt', bytes, 'text/plain'), 201);
      await t.app.ctx.blobs.delete(uploaded.id);
      const response = await fetch(uploaded.downloadURL);
      assert.equal(response.status, 404);
      assert.match((await response.json()).error.message, /No file [0-9a-f]{64}/);
      const logged: Array<{ data: object; message: string }> = [];
      assert.equal(await openFileDownload(t.app.ctx, uploaded.id, { log: { error: (data, message) => logged.push({ data, message }) } }), undefined);
      assert.deepEqual(logged.map((l) => l.message), ['file bytes missing from the store']);
      assert.equal((logged[0]!.data as { hash: string }).hash, uploaded.id);
    });

    test('bytes no row names are collected once older than BLOB_GRACE_MS; bytes with a row, and young bytes, stay', async () => {
      const space = await buildSpace(t, { title: `Collected on ${storage}` });
      const kept = ok(await upload(space.id, 'kept.bin', randomBytes(3000), 'application/octet-stream'), 201);
      // Bytes whose row never came (a process killed between the two writes).
      const orphan = await t.app.ctx.blobs.put(randomBytes(2000));
      const day = 24 * 60 * 60_000;
      // Within the grace, nothing goes.
      const soon = { ...t.app.ctx, clock: new ManualClock(new Date(Date.now() + day / 2)) };
      assert.equal((await collectUnreferencedBlobs(soon)).removed, 0);
      assert.equal(await t.app.ctx.blobs.has(orphan.hash), true);
      const later = { ...t.app.ctx, clock: new ManualClock(new Date(Date.now() + day + 60_000)) };
      const result = await collectUnreferencedBlobs(later);
      assert.ok(result.removed >= 1, JSON.stringify(result));
      assert.equal(await t.app.ctx.blobs.has(orphan.hash), false, 'the orphan is collected');
      assert.equal(await t.app.ctx.blobs.has(kept.id), true, 'bytes a row names stay');
      const off = { ...later, config: { ...later.config, blobGraceMs: 0 } };
      await t.app.ctx.blobs.put(Buffer.from(`another orphan ${storage}`));
      assert.deepEqual(await collectUnreferencedBlobs(off), { examined: 0, removed: 0 }, 'BLOB_GRACE_MS=0 turns collecting off');
    });

    if (storage === 's3') {
      test('with S3_PRESIGNED_DOWNLOADS, a download is redirected to the bucket after the same check, and the bucket serves the file', async () => {
        const presigned = await startServer({ env: { ...s3!.env('quire'), S3_PRESIGNED_DOWNLOADS: 'true' } });
        try {
          const presignedOrigin = await listenOnRandomPort(presigned);
          const space = await buildSpace(presigned, { title: 'Presigned' });
          const bytes = Buffer.from('<h1>an uploaded page</h1>');
          const response = await fetch(`${presignedOrigin}/v1/spaces/${space.id}/files/uploads?name=page.html`, {
            method: 'POST',
            headers: { authorization: `Bearer ${presigned.admin.token}`, 'content-type': 'text/html' },
            body: new Uint8Array(bytes),
          });
          const uploaded = await response.json();
          const redirect = await fetch(uploaded.downloadURL, { redirect: 'manual' });
          assert.equal(redirect.status, 302);
          const location = redirect.headers.get('location')!;
          assert.ok(location.startsWith(`${s3!.endpoint}/quire/`), location);
          const served = await fetch(location);
          assert.equal(served.status, 200);
          assert.deepEqual(Buffer.from(await served.arrayBuffer()), bytes);
          // An HTML page is a download, not a page of the bucket's origin, as when Quire serves it.
          assert.equal(served.headers.get('content-type'), 'application/octet-stream');
          assert.match(served.headers.get('content-disposition') ?? '', /^attachment; filename="page\.html"/);
          const unknown = await fetch(`${presignedOrigin}/files/${sha256(Buffer.from('never uploaded'))}/x.txt`, { redirect: 'manual' });
          assert.equal(unknown.status, 404, 'no URL is signed for bytes that are not served');
        } finally {
          await presigned.close();
        }
      });
    }
  });
}
