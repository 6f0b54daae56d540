import { loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import { Redis } from 'ioredis';
import { collaborationDocumentName } from '../src/features/collaboration/document-name.ts';
import { addOrUpdateMember } from '../src/features/members/service.ts';
import { openSession } from '../src/features/sessions/service.ts';
import { createUser } from '../src/features/users/service.ts';
import { launchChromium, withoutChromium } from '../test/chromium.ts';
import { ensureWebAppBuilt } from '../test/web-app.ts';
import { replaceSection } from './benchmarks-file.ts';
import { measureBrowsers, type BrowserDirection, type PageInChangeRequest } from './collab-browsers.ts';
import { postgresReachable, startBenchServer, type BenchServer } from './server.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

/*
 * Issue 31's figures for editing together, each server a real `quire serve` process (bench/server-process.ts):
 * `clients` editors (Node, speaking the Yjs protocol through the Hocuspocus provider, in a worker thread of the
 * bench) type into one page of a change request for `seconds`; per character, the time until it reaches each other
 * editor (p50/p95/max), whether all documents are identical at the end, and the longest stall of each server
 * process's event loop (its own GET /metrics). Then two people in Chromium type into one page, each way, timed in
 * the pages (bench/collab-browsers.ts). Rows: one process on SQLite; two processes on one PostgreSQL schema, both
 * with REDIS_URL (default redis://127.0.0.1:6379), half the editors and one browser on each. Targets: p95 <= 250
 * ms, identical, stall <= 50 ms; browsers p95 <= 150 ms. `node --import tsx bench/collab.ts` runs it alone and
 * replaces its section of docs/benchmarks.md (COLLAB_CLIENTS, default 50; COLLAB_SECONDS, default 60;
 * BENCH_PG_URL; REDIS_URL; BENCH_OUTPUT); `npm run bench` runs it with the rest.
 */

export const COLLAB_TITLE = 'Editing together';
const TARGETS = { p95: 250, stall: 50, browsers: 150 };
/** Connecting 50 editors is not typing: the stall is measured from this long after the editors start. */
const SETTLE_MS = 5_000;

export interface CollabResult {
  setting: string;
  clients: number;
  seconds: number;
  typed: number;
  latencies: number[];
  identical: boolean;
  /** Each server process's longest event-loop delay while the editors typed, ms. */
  stalls: number[];
  browsers: BrowserDirection[] | string;
  /** What the server processes ran: dist/ or src/ through tsx. */
  runs: string;
  skipped?: string;
}

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.max(0, Math.ceil(q * values.length) - 1))] ?? 0;

interface Prepared {
  /** The Node editors' page and the browsers' page, both in one change request. */
  editors: PageInChangeRequest;
  browsers: PageInChangeRequest;
  cookie: string;
  /** The two people of the browsers: the admin and a member who edits. */
  people: [string, string];
}

async function prepare(server: BenchServer): Promise<Prepared> {
  const space = await server.api<{ id: string }>('POST', `/orgs/${server.organizationId}/spaces`, { title: 'Together' });
  await server.api('PATCH', `/spaces/${space.id}`, { editMode: 'change-requests' });
  const cr = await server.api<{ id: string }>('POST', `/spaces/${space.id}/change-requests`, { subject: 'Together' });
  const written = await server.api<{ changes: { page: { id: string } | string }[] }>('POST', `/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
    changes: [
      { operation: 'insert_page', title: 'Guide', document: { markdown: 'One paragraph.\n\nAnother paragraph.\n\nA third one.\n' } },
      { operation: 'insert_page', title: 'Runbook', document: { markdown: 'First step.\n\nSecond step.\n' } },
    ],
  });
  const [editors, browsers] = written.changes.map(({ page }) => ({ spaceId: space.id, changeRequestId: cr.id, pageId: typeof page === 'string' ? page : page.id })) as [PageInChangeRequest, PageInChangeRequest];
  const { ctx } = server.app;
  const admin = await ctx.db.selectFrom('users').select('id').where('email', '=', 'bench@quire.test').executeTakeFirstOrThrow();
  const member = await createUser(ctx, ctx.db, { email: 'together@quire.test', displayName: 'Second person' });
  await addOrUpdateMember(ctx, ctx.db, server.organizationId, member.id, 'edit');
  const { setCookies } = await openSession(ctx, ctx.db, { userId: admin.id, organizationId: server.organizationId, providerId: null, method: 'password' });
  return { editors, browsers, cookie: setCookies.map((header) => header.split(';')[0]).join('; '), people: [admin.id, member.id] };
}

async function typeTogether(processes: ServerProcess[], prepared: Prepared, clients: number, seconds: number) {
  const name = collaborationDocumentName({ spaceId: prepared.editors.spaceId, target: { kind: 'change-request', changeRequestId: prepared.editors.changeRequestId }, pageId: prepared.editors.pageId });
  const urls = processes.map((p) => p.url);
  const worker = new Worker(new URL('./collab-clients.mjs', import.meta.url), { workerData: { urls, cookie: prepared.cookie, name, clients, seconds } });
  // Each process's window opens once the editors type, and closes when they are done.
  const opened = new Promise<boolean>((resolve) => setTimeout(() => void Promise.all(processes.map((p) => p.loopDelayMax())).then(() => resolve(true), () => resolve(false)), SETTLE_MS));
  const result = await new Promise<{ latencies: number[]; typed: number; identical: boolean }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  const stalls = (await opened) ? await Promise.all(processes.map((p) => p.loopDelayMax())) : processes.map(() => Number.NaN);
  await worker.terminate();
  return { ...result, stalls };
}

async function measure(setting: string, server: BenchServer, prepared: Prepared, processes: ServerProcess[], clients: number, seconds: number): Promise<CollabResult> {
  process.stdout.write(`collab (${setting}): ${clients} editors for ${seconds} s ... `);
  const typed = await typeTogether(processes, prepared, clients, seconds);
  console.log(`p95 ${quantile(typed.latencies, 0.95).toFixed(0)} ms, identical ${typed.identical}, stall ${typed.stalls.map((s) => s.toFixed(0)).join(' / ')} ms`);
  let browsers: BrowserDirection[] | string = withoutChromium || '';
  if (!withoutChromium) {
    process.stdout.write(`collab (${setting}): two people in Chromium ... `);
    const browser = await launchChromium();
    try {
      const urls: [string, string] = [processes[0]!.url, processes.at(-1)!.url];
      browsers = await measureBrowsers(browser, server, urls, prepared.people, prepared.browsers);
      console.log(browsers.map((b) => `${b.direction} p50 ${quantile(b.latencies, 0.5).toFixed(0)} ms, p95 ${quantile(b.latencies, 0.95).toFixed(0)} ms`).join('; '));
    } finally {
      await browser.close();
    }
  }
  return { setting, clients, seconds, typed: typed.typed, latencies: typed.latencies, identical: typed.identical, stalls: typed.stalls, browsers, runs: processes[0]!.runs };
}

/**
 * The data is written through the bench's own application (`server`, in this process), which then stops serving:
 * `count` server processes serve its database instead.
 */
async function measureOnProcesses(setting: string, server: BenchServer, count: number, redisUrl: string | undefined, clients: number, seconds: number): Promise<CollabResult> {
  const prepared = await prepare(server);
  await server.app.close();
  const processes: ServerProcess[] = [];
  try {
    for (let i = 0; i < count; i++) processes.push(await startServerProcess(server, redisUrl ? { redisUrl } : {}));
    return await measure(setting, server, prepared, processes, clients, seconds);
  } finally {
    await Promise.all(processes.map((p) => p.close()));
  }
}

/** Why the two processes cannot run here (they share a PostgreSQL database and a Redis), or undefined. */
async function whyNotTwoProcesses(pgUrl: string, redisUrl: string, databases: string[]): Promise<string | undefined> {
  if (!databases.includes('postgres')) return 'PostgreSQL is not in BENCH_DATABASES';
  const postgres = await postgresReachable(pgUrl);
  if (postgres !== true) return `PostgreSQL is not reachable (${postgres})`;
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
    await redis.ping();
    return undefined;
  } catch (error) {
    return `Redis is not reachable (${error instanceof Error ? error.message : String(error)})`;
  } finally {
    redis.disconnect();
  }
}

export async function runCollabBench(options: { clients?: number; seconds?: number; pgUrl?: string; redisUrl?: string; databases?: string[] } = {}): Promise<CollabResult[]> {
  const clients = options.clients ?? 50;
  const seconds = options.seconds ?? 60;
  if (!withoutChromium) await ensureWebAppBuilt();
  const results: CollabResult[] = [];
  const one = await startBenchServer();
  try {
    results.push(await measureOnProcesses('one process (SQLite)', one, 1, undefined, clients, seconds));
  } finally {
    await one.close();
  }
  const setting = `two processes relaying through Redis (PostgreSQL), ${clients / 2} editors and a browser on each`;
  const pgUrl = options.pgUrl ?? 'postgres://postgres@127.0.0.1:5432/test';
  const redisUrl = options.redisUrl ?? 'redis://127.0.0.1:6379';
  const skipped = await whyNotTwoProcesses(pgUrl, redisUrl, options.databases ?? ['postgres']);
  if (skipped) {
    console.log(`collab (${setting}): skipped, ${skipped}`);
    return [...results, { setting, clients, seconds, typed: 0, latencies: [], identical: false, stalls: [], browsers: [], runs: '', skipped }];
  }
  const two = await startBenchServer({ pgUrl });
  try {
    results.push(await measureOnProcesses(setting, two, 2, redisUrl, clients, seconds));
  } finally {
    await two.close();
  }
  return results;
}

export function collabMet(results: CollabResult[]): boolean {
  return results.every(
    (r) =>
      r.skipped !== undefined ||
      (quantile(r.latencies, 0.95) <= TARGETS.p95 && r.identical && r.stalls.every((s) => s <= TARGETS.stall) && (typeof r.browsers === 'string' || r.browsers.every((b) => quantile(b.latencies, 0.95) <= TARGETS.browsers))),
  );
}

export function collabIntro(results: CollabResult[]): string {
  const seconds = results.find((r) => !r.skipped)?.seconds ?? 60;
  const runs = [...new Set(results.flatMap((r) => (r.runs ? [r.runs] : [])))].join(', ');
  return [
    `Issue 31: each server is a real \`quire serve\` process${runs ? ` (running ${runs})` : ''}, alone on its event loop. Editors (Node`,
    'clients speaking the Yjs protocol through the Hocuspocus provider, in a worker thread of the bench) type into one',
    `page of a change request for ${seconds} s, each a character every 150–450 ms; a character is timed from its typing`,
    'until it reaches each other editor. "Stall" is the longest event-loop delay of each server process (its GET',
    `/metrics: monitorEventLoopDelay, 10 ms resolution), from ${SETTLE_MS / 1000} s after the editors start (connecting them is`,
    'not measured) until they are done. The second row runs two processes on one PostgreSQL schema, both with',
    'REDIS_URL, half the editors on each. Then two people in Chromium (two browser contexts, one browser on each',
    'process) type into another page of the change request, 20 keys each way: from the keydown in one page to the',
    "character in the other's DOM (a MutationObserver), both on the browser's clock. Targets: p95 <= 250 ms, every",
    'document identical at the end, stall <= 50 ms in each process; in the browsers p95 <= 150 ms (bench/collab.ts).',
  ].join('\n');
}

const fixed = (value: number) => (Number.isNaN(value) ? '?' : value.toFixed(0));

export function collabTable(results: CollabResult[]): string {
  const lines = [
    '| setting | editors | seconds | characters typed | deliveries | p50 (ms) | p95 (ms) | max (ms) | p95 <= 250 ms | identical | stall per process (ms) | stall <= 50 ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | :---: | :---: | ---: | :---: |',
  ];
  for (const r of results) {
    if (r.skipped) {
      lines.push(`| ${r.setting} | skipped: ${r.skipped} | | | | | | | | | | |`);
      continue;
    }
    const p95 = quantile(r.latencies, 0.95);
    const max = r.latencies.reduce((most, v) => Math.max(most, v), 0);
    const stalled = r.stalls.every((s) => s <= TARGETS.stall);
    lines.push(`| ${r.setting} | ${r.clients} | ${r.seconds} | ${r.typed} | ${r.latencies.length} | ${fixed(quantile(r.latencies, 0.5))} | ${fixed(p95)} | ${fixed(max)} | ${p95 <= TARGETS.p95 ? 'yes' : 'NO'} | ${r.identical ? 'yes' : 'NO'} | ${r.stalls.map(fixed).join(' / ')} | ${stalled ? 'yes' : 'NO'} |`);
  }
  lines.push('', '| setting | in Chromium | keys | p50 (ms) | p95 (ms) | max (ms) | p95 <= 150 ms |', '| --- | --- | ---: | ---: | ---: | ---: | :---: |');
  for (const r of results) {
    if (r.skipped) continue;
    if (typeof r.browsers === 'string') {
      lines.push(`| ${r.setting} | skipped: ${r.browsers} | | | | | |`);
      continue;
    }
    for (const b of r.browsers) {
      const p95 = quantile(b.latencies, 0.95);
      lines.push(`| ${r.setting} | ${b.direction} | ${b.latencies.length} | ${fixed(quantile(b.latencies, 0.5))} | ${fixed(p95)} | ${fixed(Math.max(...b.latencies))} | ${p95 <= TARGETS.browsers ? 'yes' : 'NO'} |`);
    }
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const load = loadavg()[0]!.toFixed(2);
  const results = await runCollabBench({
    clients: Number(process.env.COLLAB_CLIENTS ?? 50),
    seconds: Number(process.env.COLLAB_SECONDS ?? 60),
    ...(process.env.BENCH_PG_URL ? { pgUrl: process.env.BENCH_PG_URL } : {}),
    ...(process.env.REDIS_URL ? { redisUrl: process.env.REDIS_URL } : {}),
  });
  const section = `${collabIntro(results)}\n\nMeasured ${new Date().toISOString()} by \`node --import tsx bench/collab.ts\` (load average ${load} when it started).\n\n${collabTable(results)}\n`;
  const output = process.env.BENCH_OUTPUT ?? 'docs/benchmarks.md';
  if (output !== '-') replaceSection(output, COLLAB_TITLE, section);
  console.log(`\n## ${COLLAB_TITLE}\n\n${section}`);
  process.exit(0);
}
