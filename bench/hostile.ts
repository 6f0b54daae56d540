import { Worker } from 'node:worker_threads';
import { MAX_PAGE_MARKDOWN } from '../src/features/content/change-schemas.ts';
import { corpusPages } from '../test/corpus/pages.ts';
import type { BenchServer } from './server.ts';

/**
 * Issue 14's hostile neighbour: while one client writes the largest accepted page (1,000,000 characters of
 * the GitBook docs corpus, one page, over and over, each write a new change request) and reads it back as
 * markdown, a second client reads a small page; its p99 must stay under 100 ms. The writer runs on a thread of
 * its own (building and sending a 1 MB body would otherwise load the server's thread), and so does the reader,
 * one request at a time; the same read alone is measured first, for comparison.
 */

export interface HostileNeighbourResult {
  database: string;
  aloneP50: number;
  aloneP99: number;
  neighbourP50: number;
  neighbourP99: number;
  reads: number;
  writes: number;
  writeMs: number;
  failures: number;
}

/** The largest accepted page: corpus pages one after another up to the limit. */
export function largestPage(): string {
  let markdown = '';
  for (const page of corpusPages()) {
    const body = page.markdown.replace(/^---[\s\S]*?\n---\n/, '');
    if (markdown.length + body.length + 2 > MAX_PAGE_MARKDOWN) break;
    markdown += `${body}\n\n`;
  }
  return markdown;
}

const WRITER = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, token, spaceId, markdown } = workerData;
let stop = false;
parentPort.on('message', () => { stop = true; });
const headers = { authorization: 'Bearer ' + token, 'content-type': 'application/json' };
(async () => {
  let writes = 0, failures = 0, total = 0;
  while (!stop) {
    const started = performance.now();
    const cr = await (await fetch(url + '/v1/spaces/' + spaceId + '/change-requests', { method: 'POST', headers, body: '{}' })).json();
    const res = await fetch(url + '/v1/spaces/' + spaceId + '/change-requests/' + cr.id + '/content?compat=false', {
      method: 'POST', headers, body: JSON.stringify({ changes: [{ operation: 'insert_page', title: 'Largest', document: { markdown } }] }),
    });
    const body = await res.json();
    if (res.status !== 200) { failures++; continue; }
    const page = body.changes[0].page.id;
    const read = await fetch(url + '/v1/spaces/' + spaceId + '/change-requests/' + cr.id + '/content/page/' + page + '?format=markdown', { headers });
    await read.text();
    if (read.status !== 200) failures++;
    writes++;
    total += performance.now() - started;
  }
  parentPort.postMessage({ writes, failures, writeMs: writes ? total / writes : 0 });
})();
`;

// The reader: one request at a time on a thread of its own, every latency kept (autocannon drops a request
// still in flight when its time is up, which is exactly the slow one this scenario looks for).
const READER = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, token, seconds } = workerData;
(async () => {
  const latencies = []; let failures = 0;
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const started = performance.now();
    try {
      const res = await fetch(url, { headers: { authorization: 'Bearer ' + token } });
      await res.arrayBuffer();
      if (res.status !== 200) failures++;
    } catch { failures++; }
    latencies.push(performance.now() - started);
  }
  parentPort.postMessage({ latencies, failures });
})();
`;

interface Reads {
  latency: { p50: number; p99: number };
  requests: { total: number };
  failures: number;
}

async function read(url: string, token: string, seconds: number): Promise<Reads> {
  const reader = new Worker(READER, { eval: true, workerData: { url, token, seconds } });
  const { latencies, failures } = await new Promise<{ latencies: number[]; failures: number }>((resolve, reject) => {
    reader.once('message', resolve);
    reader.once('error', reject);
  });
  await reader.terminate();
  const sorted = latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN);
  return { latency: { p50: at(0.5), p99: at(0.99) }, requests: { total: sorted.length }, failures };
}

export async function runHostileNeighbour(server: BenchServer, seconds: number): Promise<HostileNeighbourResult> {
  const space = await server.api<{ id: string }>('POST', `/orgs/${server.organizationId}/spaces`, { title: 'Neighbours' });
  const cr = await server.api<{ id: string }>('POST', `/spaces/${space.id}/change-requests`, {});
  const written = await server.api<{ changes: { page: { id: string } }[] }>('POST', `/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
    changes: [{ operation: 'insert_page', title: 'Small', document: { markdown: 'A small page.\n\nWith [a link](https://example.com).' } }],
  });
  await server.api('POST', `/spaces/${space.id}/change-requests/${cr.id}/merge`);
  const small = `${server.url}/v1/spaces/${space.id}/content/page/${written.changes[0]!.page.id}`;
  await read(small, server.token, 1);
  const alone = await read(small, server.token, seconds);

  const writer = new Worker(WRITER, { eval: true, workerData: { url: server.url, token: server.token, spaceId: space.id, markdown: largestPage() } });
  const done = new Promise<{ writes: number; failures: number; writeMs: number }>((resolve, reject) => {
    writer.once('message', resolve);
    writer.once('error', reject);
  });
  // The first write starts the conversion threads; measure from the second second on.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const neighbour = await read(small, server.token, seconds);
  writer.postMessage('stop');
  const writes = await done;
  await writer.terminate();
  return {
    database: server.database,
    aloneP50: alone.latency.p50,
    aloneP99: alone.latency.p99,
    neighbourP50: neighbour.latency.p50,
    neighbourP99: neighbour.latency.p99,
    reads: neighbour.requests.total,
    writes: writes.writes,
    writeMs: writes.writeMs,
    failures: writes.failures + neighbour.failures,
  };
}

export const hostileIntro = [
  'Issue 14: while one client writes the largest accepted page (1,000,000 characters of the GitBook docs corpus,',
  'a new change request each time) and reads it back as markdown, a second client reads a small page over one',
  'connection. Target: the second client\'s p99 under 100 ms. "alone" is the same read with no writer.',
].join('\n');

export function hostileTable(results: HostileNeighbourResult[]): string {
  const lines = [
    '| database | read alone p50 / p99 (ms) | read beside the writer p50 / p99 (ms) | reads | 1 MB writes (+ read back) | mean write (ms) | failures | p99 < 100 ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | :---: |',
  ];
  for (const r of results) {
    lines.push(
      `| ${r.database} | ${r.aloneP50} / ${r.aloneP99} | ${r.neighbourP50} / ${r.neighbourP99} | ${r.reads} | ${r.writes} | ${Math.round(r.writeMs)} | ${r.failures} | ${r.reads > 0 && r.neighbourP99 < 100 ? 'yes' : 'NO'} |`,
    );
  }
  return lines.join('\n');
}
