import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { buildApp, type App } from '../src/app.ts';
import { collaborationDocumentName } from '../src/features/collaboration/document-name.ts';
import { openSession } from '../src/features/sessions/service.ts';
import { replaceSection } from './benchmarks-file.ts';
import { startBenchServer, type BenchServer } from './server.ts';

/*
 * Issue 31's figures for editing together: `clients` editors (Node, speaking the Yjs protocol through the
 * Hocuspocus provider, in a worker thread) type into one page of a change request for `seconds`; per character,
 * the time until it reaches each other editor (p50/p95/max), whether all documents are identical at the end, and
 * the longest stall of the server's event loop (the main thread holds only the server(s)). Rows: one server; two
 * servers on one database relaying through Redis (REDIS_URL, default redis://127.0.0.1:6379), half the editors on
 * each (the two servers share this thread, so their stalls add up). Targets: p95 <= 250 ms, identical, stall <= 50 ms.
 * `node --import tsx bench/collab.ts` (COLLAB_CLIENTS, default 50; COLLAB_SECONDS, default 60; BENCH_OUTPUT).
 */

export const COLLAB_TITLE = 'Editing together';
const TARGETS = { p95: 250, stall: 50 };

export interface CollabResult { setting: string; clients: number; seconds: number; typed: number; latencies: number[]; identical: boolean; stallMs: number }

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.max(0, Math.ceil(q * values.length) - 1))] ?? 0;

async function measure(setting: string, server: BenchServer, others: App[], clients: number, seconds: number): Promise<CollabResult> {
  const space = await server.api<{ id: string }>('POST', `/orgs/${server.organizationId}/spaces`, { title: 'Together' });
  const cr = await server.api<{ id: string }>('POST', `/spaces/${space.id}/change-requests`, { subject: 'Together' });
  const written = await server.api<{ changes: { page: { id: string } | string }[] }>('POST', `/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
    changes: [{ operation: 'insert_page', title: 'Guide', document: { markdown: 'One paragraph.\n\nAnother paragraph.\n\nA third one.\n' } }],
  });
  const first = written.changes[0]!.page;
  const pageId = typeof first === 'string' ? first : first.id;
  const admin = await server.app.ctx.db.selectFrom('users').select('id').where('email', '=', 'bench@quire.test').executeTakeFirstOrThrow();
  const { setCookies } = await openSession(server.app.ctx, server.app.ctx.db, { userId: admin.id, organizationId: server.organizationId, providerId: null, method: 'password' });
  const cookie = setCookies.map((header) => header.split(';')[0]).join('; ');
  const name = collaborationDocumentName({ spaceId: space.id, target: { kind: 'change-request', changeRequestId: cr.id }, pageId });
  const urls = [server.url, ...others.map((app) => app.ctx.config.publicUrl)];
  process.stdout.write(`collab (${setting}): ${clients} editors for ${seconds} s ... `);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  const worker = new Worker(new URL('./collab-clients.mjs', import.meta.url), { workerData: { urls, cookie, name, clients, seconds } });
  let started = false;
  const timer = setTimeout(() => {
    loop.enable();
    started = true;
  }, 5_000); // connecting 50 editors is not typing: the stall is measured once they type
  const result = await new Promise<{ latencies: number[]; typed: number; identical: boolean }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  clearTimeout(timer);
  if (started) loop.disable();
  await worker.terminate();
  const stallMs = started ? loop.max / 1e6 : 0;
  const row = { setting, clients, seconds, typed: result.typed, latencies: result.latencies, identical: result.identical, stallMs };
  console.log(`p95 ${quantile(row.latencies, 0.95).toFixed(0)} ms, identical ${row.identical}, stall ${stallMs.toFixed(0)} ms`);
  return row;
}

export async function runCollabBench(options: { clients?: number; seconds?: number; redisUrl?: string } = {}): Promise<CollabResult[]> {
  const clients = options.clients ?? 50;
  const seconds = options.seconds ?? 60;
  const results: CollabResult[] = [];
  const one = await startBenchServer();
  try {
    results.push(await measure('one server (SQLite)', one, [], clients, seconds));
  } finally {
    await one.close();
  }
  const redisUrl = options.redisUrl ?? 'redis://127.0.0.1:6379';
  const first = await startBenchServer({ redisUrl });
  let second: App | undefined;
  try {
    second = await buildApp({ config: { ...first.app.ctx.config }, db: first.app.ctx.db });
    second.ctx.config.publicUrl = await second.listen({ port: 0, host: '127.0.0.1' });
    results.push(await measure('two servers relaying through Redis (SQLite)', first, [second], clients, seconds));
  } finally {
    await second?.close();
    await first.close();
  }
  return results;
}

export const collabIntro = [
  'Issue 31: editors (Node clients speaking the Yjs protocol through the Hocuspocus provider, in a worker thread)',
  'type into one page of a change request, each a character every 150–450 ms; a character is timed from its',
  'typing until it reaches each other editor. "Stall" is the longest event-loop delay of the thread holding the',
  'server(s), from 5 s after the editors start (connecting them is not measured). Targets: p95 <= 250 ms, every',
  'document identical at the end, stall <= 50 ms (bench/collab.ts).',
].join('\n');

export function collabTable(results: CollabResult[]): string {
  const lines = [
    '| setting | editors | seconds | characters typed | deliveries | p50 (ms) | p95 (ms) | max (ms) | identical | stall (ms) | met |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | :---: | ---: | :---: |',
  ];
  for (const r of results) {
    const p95 = quantile(r.latencies, 0.95);
    const met = p95 <= TARGETS.p95 && r.identical && r.stallMs <= TARGETS.stall;
    lines.push(`| ${r.setting} | ${r.clients} | ${r.seconds} | ${r.typed} | ${r.latencies.length} | ${quantile(r.latencies, 0.5).toFixed(0)} | ${p95.toFixed(0)} | ${r.latencies.reduce((max, v) => Math.max(max, v), 0).toFixed(0)} | ${r.identical ? 'yes' : 'NO'} | ${r.stallMs.toFixed(0)} | ${met ? 'yes' : 'NO'} |`);
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const load = loadavg()[0]!.toFixed(2);
  const results = await runCollabBench({ clients: Number(process.env.COLLAB_CLIENTS ?? 50), seconds: Number(process.env.COLLAB_SECONDS ?? 60), ...(process.env.REDIS_URL ? { redisUrl: process.env.REDIS_URL } : {}) });
  const section = `${collabIntro}\n\nMeasured ${new Date().toISOString()} by \`node --import tsx bench/collab.ts\` (load average ${load} when it started).\n\n${collabTable(results)}\n`;
  const output = process.env.BENCH_OUTPUT ?? 'docs/benchmarks.md';
  if (output !== '-') replaceSection(output, COLLAB_TITLE, section);
  console.log(`\n## ${COLLAB_TITLE}\n\n${section}`);
  process.exit(0);
}
