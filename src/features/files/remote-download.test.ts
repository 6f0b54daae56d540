import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok } from '../../../test/assertions.ts';
import { buildChangeRequest, buildSpace } from '../../../test/factories.ts';
import { MAX_CONCURRENT_DOWNLOADS } from './service.ts';

/*
 * Issue 14: a file created from a URL is streamed to disk under FILE_SIZE_LIMIT, a few downloads at a time, and
 * never held whole in memory (four 99 MiB downloads used to cost 310 MiB more).
 */

const MIB = 1024 * 1024;
/**
 * Large enough that downloads held whole (MAX_CONCURRENT_DOWNLOADS of them at once, 144 MiB) stand far above
 * what streamed ones leave for the garbage collector: the chunks of a stream are freed only when it runs, and
 * on a busy machine 60 to 85 MiB of them were seen waiting (a bound of 48 MiB over 24 MiB files was a flake).
 */
const SIZE = 36 * MIB;
const MOST_GROWTH_MIB = 100;

/** The bytes served at /file/<n>: SIZE bytes, different for every n. */
function chunkOf(n: number): Buffer {
  const chunk = Buffer.alloc(MIB, n % 251);
  chunk.write(`file ${n}\n`);
  return chunk;
}
function hashOf(n: number): string {
  const hash = createHash('sha256');
  for (let i = 0; i < SIZE / MIB; i++) hash.update(chunkOf(n));
  return hash.digest('hex');
}

describe('files created from a URL', () => {
  let t: TestServer;
  let site: Server;
  let base: string;
  let open = 0;
  let mostOpen = 0;

  before(async () => {
    t = await startServer({ env: { ALLOW_PRIVATE_FETCH: 'true', FILE_SIZE_LIMIT: String(40 * MIB) } });
    site = createServer((request, response) => {
      const n = Number(/\/file\/(\d+)/.exec(request.url ?? '')?.[1] ?? 0);
      const total = request.url?.startsWith('/huge') ? 50 * MIB : SIZE;
      open += 1;
      mostOpen = Math.max(mostOpen, open);
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = chunkOf(n);
      let sent = 0;
      // Slowly enough that the downloads overlap.
      const pump = () => {
        while (sent < total) {
          sent += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
        response.end();
      };
      response.once('close', () => (open -= 1));
      setTimeout(pump, 50);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', () => resolve()));
    base = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
  });
  after(async () => {
    site.close();
    await t.close();
  });

  async function insertFile(url: string) {
    const space = await buildSpace(t);
    const cr = await buildChangeRequest(t, space.id);
    return t.api('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
      body: { changes: [{ operation: 'insert_files', files: [{ name: 'data.bin', url }] }] },
    });
  }

  test(`six downloads at once: at most ${MAX_CONCURRENT_DOWNLOADS} run together, none is held in memory, each is stored whole`, async () => {
    const before = process.memoryUsage().arrayBuffers;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().arrayBuffers)), 10);
    const answers = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => insertFile(`${base}/file/${n}`)));
    clearInterval(sampler);
    for (const [i, res] of answers.entries()) {
      const file = ok(res).insertedFiles?.[0] ?? ok(res).changes.find((c: { object?: string }) => c.object === 'created_file')?.file;
      assert.ok(file, JSON.stringify(res.body).slice(0, 500));
      assert.equal(file.size, SIZE);
      const download = await t.app.inject({ method: 'GET', url: new URL(file.downloadURL).pathname });
      assert.equal(download.statusCode, 200);
      assert.equal(createHash('sha256').update(download.rawPayload).digest('hex'), hashOf(i + 1));
    }
    assert.ok(mostOpen <= MAX_CONCURRENT_DOWNLOADS, `${mostOpen} downloads ran at once`);
    const grew = (peak - before) / MIB;
    assert.ok(grew < MOST_GROWTH_MIB, `buffers grew by ${grew.toFixed(0)} MiB while 6 x ${SIZE / MIB} MiB were downloaded`);
  });

  test('a file over FILE_SIZE_LIMIT is a 413 naming the limit, and nothing is left behind', async () => {
    assertError(await insertFile(`${base}/huge/1`), 413, 'FILE_SIZE_LIMIT');
    const { readdirSync } = await import('node:fs');
    const { join } = await import('node:path');
    assert.deepEqual(readdirSync(join(t.config.dataDir, 'blobs', '.incoming')), [], 'the partial download was removed');
  });
});
