import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { eventually } from '../../src/features/collaboration/clients.test-support.ts';
import { assertError, ok } from '../assertions.ts';
import { buildChangeRequest, buildSpace } from '../factories.ts';
import { noisyPng, png } from '../fixtures/png.ts';
import { listenOnRandomPort, startServer, type ApiResponse, type TestServer } from '../helpers.ts';
import { officialClient, rejectsWith } from './gitbook-client.ts';

/*
 * Files of any size up to FILE_SIZE_LIMIT, uploaded as a request's body over real HTTP (uploadSpaceFile), then
 * inserted by a change batch (insert_files with `upload`) and read back with the official client. A refused or
 * broken upload leaves nothing behind: no bytes in the blob store, no row.
 */

const LIMIT = 4 * 1024 * 1024;

describe('file uploads over HTTP', { timeout: 120_000 }, () => {
  let t: TestServer;
  let origin: string;
  before(async () => {
    t = await startServer({ env: { FILE_SIZE_LIMIT: String(LIMIT) } });
    origin = await listenOnRandomPort(t);
  });
  after(() => t?.close());

  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  const blobsDir = () => join(t.config.dataDir, 'blobs');
  /** Every file of the blob store, the incoming folder included. */
  const storedFiles = () => {
    try {
      return readdirSync(blobsDir(), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)).sort();
    } catch {
      return [];
    }
  };
  const blobRows = async () => (await t.db.selectFrom('blobs').select('hash').execute()).map((r) => r.hash).sort();

  /** Sends `body` as the upload's body: a Buffer with its length, or a stream (chunked, no length). */
  async function upload(spaceId: string, name: string, body: Buffer | Readable, options: { type?: string; token?: string } = {}): Promise<ApiResponse> {
    const response = await fetch(`${origin}/v1/spaces/${spaceId}/files/uploads?name=${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${options.token ?? t.admin.token}`, ...(options.type ? { 'content-type': options.type } : {}) },
      body: body instanceof Readable ? (Readable.toWeb(body) as ReadableStream) : body,
      ...(body instanceof Readable ? { duplex: 'half' } : {}),
    } as RequestInit);
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: Object.fromEntries(response.headers) };
  }

  test('a 3 MB screenshot is stored as it arrives, then inserted by a change batch and read with the official client', async () => {
    const space = await buildSpace(t, { title: 'Screenshots' });
    const bytes = noisyPng(1000, 1000);
    assert.ok(bytes.length > 3_000_000, `${bytes.length} bytes`);
    const uploaded = ok(await upload(space.id, 'screenshot.png', bytes, { type: 'image/png' }), 201);
    assert.deepEqual(uploaded, {
      object: 'file-upload',
      id: sha256(bytes),
      name: 'screenshot.png',
      contentType: 'image/png',
      size: bytes.length,
      dimensions: { width: 1000, height: 1000 },
      downloadURL: `${origin}/files/${sha256(bytes)}/screenshot.png`,
    });
    const download = await fetch(uploaded.downloadURL);
    assert.deepEqual(Buffer.from(await download.arrayBuffer()), bytes);

    const batch = ok(await t.api('POST', `/v1/spaces/${space.id}/content`, { body: { changes: [{ operation: 'insert_files', files: [{ name: 'Screenshot.png', upload: uploaded.id }] }] } }));
    const inserted = batch.insertedFiles[0];
    assert.deepEqual({ ...inserted, id: undefined }, { id: undefined, name: 'Screenshot.png', contentType: 'image/png', downloadURL: `${origin}/files/${sha256(bytes)}/Screenshot.png`, size: bytes.length, dimensions: { width: 1000, height: 1000 } });
    const client = officialClient({ endpoint: origin, authToken: t.admin.token });
    const { data: file } = await client.spaces.getFileById(space.id, inserted.id);
    assert.deepEqual([file.name, file.contentType, file.size, file.downloadURL], ['Screenshot.png', 'image/png', bytes.length, inserted.downloadURL]);
    assert.deepEqual(file.dimensions, { width: 1000, height: 1000 });
  });

  test('a streamed body without a length is stored too, typed from its bytes, and a change request takes it', async () => {
    const space = await buildSpace(t, { title: 'Reports' });
    const bytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(512 * 1024, 'x')]);
    const chunks = Array.from({ length: 8 }, (_, i) => bytes.subarray((i * bytes.length) / 8, ((i + 1) * bytes.length) / 8));
    const uploaded = ok(await upload(space.id, 'report.pdf', Readable.from(chunks)), 201);
    assert.deepEqual([uploaded.contentType, uploaded.size, uploaded.id], ['application/pdf', bytes.length, sha256(bytes)]);
    const cr = await buildChangeRequest(t, space.id);
    const batch = ok(await t.api('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, { body: { changes: [{ operation: 'insert_files', files: [{ name: 'report.pdf', upload: uploaded.id }] }] } }));
    const file = ok(await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/files/${batch.insertedFiles[0].id}`));
    assert.deepEqual([file.name, file.contentType, file.size], ['report.pdf', 'application/pdf', bytes.length]);
  });

  test('a file over FILE_SIZE_LIMIT is refused with a 413 naming the limit, with or without a length, and leaves nothing', async () => {
    const space = await buildSpace(t, { title: 'Too large' });
    const filesBefore = storedFiles();
    const rowsBefore = await blobRows();
    const bytes = Buffer.alloc(LIMIT + 1, 7);
    assertError(await upload(space.id, 'huge.bin', bytes), 413, /File "huge\.bin" is 4\.0 MiB, larger than the 4 MiB this server accepts per file \(FILE_SIZE_LIMIT\)/);
    const chunks = Array.from({ length: 9 }, () => Buffer.alloc(512 * 1024, 8));
    assertError(await upload(space.id, 'streamed.bin', Readable.from(chunks)), 413, 'larger than the 4 MiB this server accepts per file (FILE_SIZE_LIMIT)');
    assert.deepEqual(storedFiles(), filesBefore, 'no bytes were kept');
    assert.deepEqual(await blobRows(), rowsBefore, 'no blob was recorded');
    // The connection still serves the next request: the refused body was read to its end.
    ok(await upload(space.id, 'small.png', png(2, 2)), 201);
  });

  test('an upload cut off before its end leaves neither bytes nor a row', async () => {
    const space = await buildSpace(t, { title: 'Cut off' });
    const filesBefore = storedFiles();
    const rowsBefore = await blobRows();
    const url = new URL(`${origin}/v1/spaces/${space.id}/files/uploads?name=cut.bin`);
    const incoming = () => storedFiles().filter((path) => path.includes('/.incoming/'));
    const req = httpRequest(url, { method: 'POST', headers: { authorization: `Bearer ${t.admin.token}`, 'content-length': String(2 * 1024 * 1024) } });
    req.on('error', () => undefined);
    req.write(Buffer.alloc(1024 * 1024, 1));
    // Half of it is being written when the sender goes away.
    await eventually(() => incoming().length === 1, 20_000, 'the upload being written');
    req.destroy();
    await eventually(() => incoming().length === 0, 20_000, 'the partial upload to be removed');
    assert.deepEqual(storedFiles(), filesBefore);
    assert.deepEqual(await blobRows(), rowsBefore);
  });

  test('a space the caller cannot see answers 404 and one they may only read 403, before a byte is stored', async () => {
    const space = await buildSpace(t, { title: 'Private' });
    const outsider = await t.outsider();
    const reader = await t.member('read');
    const filesBefore = storedFiles();
    assertError(await upload(space.id, 'a.png', png(3, 3, 1), { token: outsider.token }), 404, `No space ${space.id}`);
    assertError(await upload('no-such-space', 'a.png', png(3, 3, 1)), 404, 'No space no-such-space');
    assertError(await upload(space.id, 'a.png', png(3, 3, 1), { token: reader.token }), 403, 'needs the edit role');
    assert.deepEqual(storedFiles(), filesBefore);
    const client = officialClient({ endpoint: origin, authToken: outsider.token });
    await rejectsWith(client.spaces.listFiles(space.id), 404);
  });

  test('a batch naming an upload that was never made, or two sources for one file, is refused naming the file', async () => {
    const space = await buildSpace(t, { title: 'Batches' });
    const missing = sha256(Buffer.from('never uploaded'));
    assertError(
      await t.api('POST', `/v1/spaces/${space.id}/content`, { body: { changes: [{ operation: 'insert_files', files: [{ name: 'x.png', upload: missing }] }] } }),
      400,
      `changes[0] (insert_files): /files/0/upload: no upload ${missing}`,
    );
    assertError(
      await t.api('POST', `/v1/spaces/${space.id}/content`, { body: { changes: [{ operation: 'insert_files', files: [{ name: 'x.png', upload: missing, url: 'https://example.com/x.png' }] }] } }),
      400,
      '/files/0 needs exactly one of url, base64 or upload',
    );
    assertError(await t.api('POST', `/v1/spaces/${space.id}/content`, { body: { changes: [{ operation: 'insert_files', files: [{ name: 'x.png', upload: 'not-a-hash' }] }] } }), 400, '/files/0/upload');
    const files = ok(await t.api('GET', `/v1/spaces/${space.id}/content/files`));
    assert.equal(files.items.length, 0);
  });

  test('any media type is taken, but not a Content-Type that names none', async () => {
    const space = await buildSpace(t, { title: 'Types' });
    assertError(await upload(space.id, 'a.txt', Buffer.from('hello'), { type: 'not a type' }), 415, 'headers/content-type "not a type" is not a media type');
    const json = ok(await upload(space.id, 'data.json', Buffer.from('{"a":1}'), { type: 'application/json' }), 201);
    assert.deepEqual([json.contentType, json.size], ['application/json', 7]);
  });
});
