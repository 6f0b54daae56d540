import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import autocannon, { type Result } from 'autocannon';
import { scenarios, type Scenario, type Target } from './scenarios.ts';
import { postgresReachable, startBenchServer, type BenchDatabase, type BenchServer } from './server.ts';
import { startBaseline } from './baseline.ts';
import { runContentScale, seededSpace, type TimedResult } from './content-scale.ts';
import { runSearchBench, searchIntro, searchTable, type SearchBenchResult } from './search.ts';
import { askIntro, askTable, runAskBench, type AskBenchResult } from './ask.ts';
import { hostileIntro, hostileTable, runHostileNeighbour, type HostileNeighbourResult } from './hostile.ts';
import { readerColdIntro, readerColdMet, readerColdTable, runReaderCold, type ReaderColdResult } from './reader-cold.ts';
import { JOB_START_TITLE, jobStartIntro, jobStartMet, jobStartTable, runJobStartBench, type JobStartResult } from './job-start.ts';
import { GIT_SYNC_TITLE, gitSyncIntro, gitSyncMet, gitSyncTable, runGitSyncBench, type GitSyncBenchResult } from './git-sync.ts';
import { runWebAppBench, webAppIntro, webAppTable, type WebAppResult } from './web-app.ts';
import { reviewIntro, reviewTable, runReviewBench, type ReviewResult } from './review.ts';
import { editorIntro, editorTable, runEditorBench, type EditorResult } from './editor.ts';
import { EDITOR_OPEN_TITLE, editorOpenIntro, editorOpenMet, editorOpenTable, runEditorOpenBench, type EditorOpenResult } from './editor-open.ts';
import { COLLAB_TITLE, collabIntro, collabMet, collabTable, runCollabBench, type CollabResult } from './collab.ts';
import { writeReport, type Section } from './benchmarks-file.ts';

/**
 * `npm run bench`: each scenario of bench/scenarios.ts against an in-process server (fresh database, random
 * port, 127.0.0.1 only), on SQLite and then on PostgreSQL, each run next to its own baseline: a node:http server
 * answering a constant body of the GET space answer's size, measured in the same run. A short warm-up then a
 * timed run; the tables go to docs/benchmarks.md. About 5 minutes with the defaults. Knobs: BENCH_DURATION
 * (seconds per scenario, default 8), BENCH_CONNECTIONS (default 50), BENCH_ONLY (comma-separated scenario names,
 * and "content-scale", "hostile-neighbour", "reader-cold", "search", "ask", "job-start", "git-sync", "web-app", "review", "editor", "editor-open", "collab"; the baseline always
 * runs; some alone: `node --import tsx bench/search.ts`, `bench/job-start.ts`, `bench/web-app.ts` or `bench/collab.ts`), BENCH_DATABASES (default "sqlite,postgres"), BENCH_PG_URL
 * (default postgres://postgres@127.0.0.1:5432/test; the run gets a schema of its own, dropped afterwards),
 * COLLAB_SECONDS (how long the editors of bench/collab.ts type, default 60), COLLAB_CLIENTS (default 50), REDIS_URL
 * (default redis://127.0.0.1:6379), BENCH_OUTPUT (default docs/benchmarks.md, of which the run replaces only the header
 * and the sections it measured, bench/benchmarks-file.ts; "-" prints only).
 */

const duration = positiveInt('BENCH_DURATION', 8);
const connections = Math.min(positiveInt('BENCH_CONNECTIONS', 50), 200);
const warmup = 1;
const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim()).filter(Boolean);
const output = process.env.BENCH_OUTPUT ?? 'docs/benchmarks.md';
const pgUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const databases = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',').map((s) => s.trim()) as BenchDatabase[];

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw ? Number(raw) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

interface Row {
  name: string;
  description: string;
  result: Result;
  target?: Target | undefined;
}

interface Run {
  database: BenchDatabase;
  rows: Row[];
  scale: TimedResult[];
  hostile?: HostileNeighbourResult;
  readerCold?: ReaderColdResult;
  skipped?: string;
}

async function measure(url: string, request: { method?: string; body?: unknown; auth?: boolean }, token: string, seconds: number): Promise<Result> {
  const headers: Record<string, string> = {};
  if (request.auth !== false) headers.authorization = `Bearer ${token}`;
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  return autocannon({
    url,
    method: request.method ?? 'GET',
    headers,
    ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
    connections,
    duration: seconds,
    // The load generator runs on a worker thread, so it does not share the server's event loop.
    workers: 1,
  });
}

/** autocannon records whole milliseconds: 0 means under one. */
function ms(value: number): string {
  return value === 0 ? '<1' : String(value);
}

function targetText(target: Target | undefined): string {
  if (!target) return '';
  return `>= ${target.ratio}${target.p99Ms !== undefined ? `, p99 <= ${target.p99Ms} ms` : ''}`;
}

function met(row: Row, baseline: number): boolean | undefined {
  if (!row.target) return undefined;
  const ratio = row.result.requests.average / baseline;
  return ratio >= row.target.ratio && (row.target.p99Ms === undefined || row.result.latency.p99 <= row.target.p99Ms) && row.result.non2xx === 0 && row.result.errors === 0;
}

function table(rows: Row[]): string {
  const baseline = rows[0]!.result.requests.average;
  const lines = [
    '| scenario | what | requests/s | mean latency (ms) | p50 (ms) | p99 (ms) | vs baseline | target | met | non-2xx / errors |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | :---: | ---: |',
  ];
  for (const row of rows) {
    const { name, description, result } = row;
    const rps = result.requests.average;
    const ok = met(row, baseline);
    lines.push(
      `| ${name} | ${description} | ${Math.round(rps).toLocaleString('en-US')} | ${result.latency.average.toFixed(2)} | ${ms(result.latency.p50)} | ${ms(result.latency.p99)} | ${(rps / baseline).toFixed(3)} | ${targetText(row.target)} | ${ok === undefined ? '' : ok ? 'yes' : 'NO'} | ${result.non2xx} / ${result.errors} |`,
    );
  }
  return lines.join('\n');
}

const scaleIntro = [
  'The same operation on a space of 100 pages and on one of 10,000 (sections of 100 pages), through the HTTP API,',
  'one request at a time, the two spaces alternating; medians of 20 rounds. The target is a ratio under 2: a',
  'change to one page costs what the change needs, not what the space holds. SQLite only.',
].join('\n');

function scaleTable(results: TimedResult[]): string {
  const lines = ['| operation | 100 pages (ms) | 10,000 pages (ms) | ratio | under 2 |', '| --- | ---: | ---: | ---: | :---: |'];
  for (const r of results) {
    const ratio = r.large / r.small;
    lines.push(`| ${r.name} | ${r.small.toFixed(1)} | ${r.large.toFixed(1)} | ${ratio.toFixed(2)} | ${ratio < 2 ? 'yes' : 'NO'} |`);
  }
  return lines.join('\n');
}

async function timedRun(label: string, url: string, request: { method?: string; body?: unknown; auth?: boolean }, token: string): Promise<Result> {
  process.stdout.write(`${label}: warm-up ${warmup}s, then ${duration}s with ${connections} connections ... `);
  await measure(url, request, token, warmup);
  const result = await measure(url, request, token, duration);
  console.log(`${Math.round(result.requests.average)} req/s, p50 ${ms(result.latency.p50)} ms, p99 ${ms(result.latency.p99)} ms`);
  if (result.non2xx > 0 || result.errors > 0) {
    console.log(`  warning: ${result.non2xx} non-2xx answers, ${result.errors} errors (${JSON.stringify(result.statusCodeStats)})`);
  }
  return result;
}

async function runOn(database: BenchDatabase): Promise<Run> {
  if (database === 'postgres') {
    const reachable = await postgresReachable(pgUrl);
    if (reachable !== true) {
      const skipped = `PostgreSQL skipped: ${pgUrl.replace(/\/\/[^@]*@/, '//')} is not reachable (${reachable})`;
      console.log(skipped);
      return { database, rows: [], scale: [], skipped };
    }
  }
  console.log(`\n== ${database}`);
  const server: BenchServer = await startBenchServer(database === 'postgres' ? { pgUrl } : {});
  const rows: Row[] = [];
  let scale: TimedResult[] = [];
  let hostile: HostileNeighbourResult | undefined;
  let readerCold: ReaderColdResult | undefined;
  try {
    const selected = scenarios.filter((s: Scenario) => (!s.only || s.only === database) && (!only || only.includes(s.name)));
    // Data first, so the measurements run back to back on a quiet server.
    process.stdout.write('preparing data ... ');
    const prepared = [];
    for (const scenario of selected) prepared.push({ scenario, request: await scenario.prepare(server) });
    console.log('done');
    // The baseline answers a body as large as the GET space answer of this run.
    const probe = await server.api<unknown>('POST', `/orgs/${server.organizationId}/spaces`, { title: 'Benchmark space', emoji: '1f4d8' });
    const body = await (await fetch(`${server.url}/v1/spaces/${(probe as { id: string }).id}`, { headers: { authorization: `Bearer ${server.token}` } })).text();
    const baseline = await startBaseline(body);
    try {
      const result = await timedRun('baseline', `${baseline.url}/`, { auth: false }, server.token);
      rows.push({ name: 'baseline', description: `node:http answering a constant body of ${body.length} bytes (the size of the GET space answer)`, result });
    } finally {
      await baseline.close();
    }
    for (const { scenario, request } of prepared) {
      const result = await timedRun(scenario.name, `${server.url}${request.path}`, request, server.token);
      rows.push({ name: scenario.name, description: scenario.description, result, target: scenario.targets?.[database] });
    }
    if (database === 'sqlite' && (!only || only.includes('content-scale'))) {
      process.stdout.write('content-scale: seeding 100- and 10,000-page spaces, then timing edits, reads and merges ... ');
      scale = await runContentScale(server, await seededSpace(server, 100), await seededSpace(server, 10_000));
      console.log('done');
    }
    if (!only || only.includes('hostile-neighbour')) {
      process.stdout.write(`hostile-neighbour: a small page's reads, alone then beside 1 MB page writes, ${duration}s each ... `);
      hostile = await runHostileNeighbour(server, duration);
      console.log(`p99 ${hostile.aloneP99} ms alone, ${hostile.neighbourP99} ms beside ${hostile.writes} writes`);
    }
    if (!only || only.includes('reader-cold')) {
      process.stdout.write('reader-cold: cold renders of 300-block pages, their code never highlighted and highlighted before ... ');
      readerCold = await runReaderCold(server);
      console.log(`median ${readerCold.fresh.toFixed(1)} ms CPU never highlighted, ${readerCold.seen.toFixed(1)} highlighted before`);
    }
  } finally {
    await server.close();
  }
  return { database, rows, scale, ...(hostile ? { hostile } : {}), ...(readerCold ? { readerCold } : {}) };
}

const TITLES: Record<BenchDatabase, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

async function main(): Promise<void> {
  // Other work on the machine skews every number: the load average before the run says how much there was.
  const loadBefore = loadavg()[0]!.toFixed(2);
  const started = Date.now();
  const runs: Run[] = [];
  // The baseline is measured for the scenarios beside it: a BENCH_ONLY naming none of them leaves the databases'
  // sections of the file as they are.
  const onDatabases = ['content-scale', 'hostile-neighbour', 'reader-cold', ...scenarios.map((s) => s.name)];
  if (!only || only.some((name) => onDatabases.includes(name))) for (const database of databases) runs.push(await runOn(database));
  // Search seeds its own 10,000-page spaces on each database (bench/search.ts).
  let search: SearchBenchResult[] = [];
  if (!only || only.includes('search')) {
    console.log('search: 10,000-page spaces on SQLite and PostgreSQL: indexing, search latency, one-page edits ...');
    search = await runSearchBench();
  }
  // Ask seeds a 200-page space on each database and asks a provider double on localhost (bench/ask.ts).
  let ask: AskBenchResult[] = [];
  if (!only || only.includes('ask')) {
    console.log('ask: 200-page spaces on SQLite and PostgreSQL: Quire\'s time before a question reaches the model ...');
    ask = await runAskBench();
  }
  // Its own servers with the worker started (bench/job-start.ts).
  let jobStart: JobStartResult[] = [];
  if (!only || only.includes('job-start')) jobStart = await runJobStartBench({ pgUrl, databases });
  // Git Sync both ways, with a Git server over smart HTTP (bench/git-sync.ts).
  let gitSync: GitSyncBenchResult[] = [];
  if (!only || only.includes('git-sync')) gitSync = await runGitSyncBench({ pgUrl, databases });
  // The web app in Chromium, once (on SQLite): its first screen's weight and a 500-page space (bench/web-app.ts).
  let webApp: WebAppResult | string | undefined;
  if (!only || only.includes('web-app')) {
    console.log('web-app: first screen JavaScript, a 500-page space in Chromium ...');
    webApp = await runWebAppBench();
  }
  // Reviewing in Chromium, once (on SQLite): a 300-block page's diff and a change request of 50 pages (bench/review.ts).
  let review: ReviewResult | string | undefined;
  if (!only || only.includes('review')) {
    console.log('review: a 300-block diff and a 50-page change request in Chromium ...');
    review = await runReviewBench();
  }
  // The block editor in Chromium: its chunk, a 300-block page opened, keystrokes (bench/editor.ts).
  let editor: EditorResult | string | undefined;
  if (!only || only.includes('editor')) {
    console.log('editor: the 300-block page in the block editor, in Chromium ...');
    editor = await runEditorBench();
  }
  // Opening a page for editing through the app in Chromium: a click on Edit until the caret (bench/editor-open.ts).
  let editorOpen: EditorOpenResult | string | undefined;
  if (!only || only.includes('editor-open')) {
    console.log('editor-open: a click on Edit until the caret, in Chromium ...');
    editorOpen = await runEditorOpenBench();
  }
  // Editing together: `quire serve` processes, their editors and two people in Chromium (bench/collab.ts).
  let collab: CollabResult[] = [];
  if (!only || only.includes('collab')) {
    collab = await runCollabBench({
      clients: positiveInt('COLLAB_CLIENTS', 50),
      seconds: positiveInt('COLLAB_SECONDS', 60),
      pgUrl,
      databases,
      ...(process.env.REDIS_URL ? { redisUrl: process.env.REDIS_URL } : {}),
    });
  }
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);

  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const machine = `${availableParallelism()} CPUs (nproc), ${cpu}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}/${process.arch}`;
  const sections: Section[] = [];
  for (const run of runs) {
    const body = [run.skipped ?? table(run.rows)];
    if (run.scale.length > 0) body.push('### Content scale', scaleIntro, scaleTable(run.scale));
    sections.push({ title: TITLES[run.database], body: body.join('\n\n') });
  }
  const hostile = runs.flatMap((run) => (run.hostile ? [run.hostile] : []));
  if (hostile.length > 0) sections.push({ title: 'Hostile neighbour', body: `${hostileIntro}\n\n${hostileTable(hostile)}` });
  const readerCold = runs.flatMap((run) => (run.readerCold ? [run.readerCold] : []));
  if (readerCold.length > 0) sections.push({ title: 'Reader: cold render', body: `${readerColdIntro}\n\n${readerColdTable(readerCold)}` });
  if (search.length > 0) sections.push({ title: 'Search', body: `${searchIntro}\n\n${searchTable(search)}` });
  if (ask.length > 0) sections.push({ title: 'Ask', body: `${askIntro}\n\n${askTable(ask)}` });
  if (jobStart.length > 0) sections.push({ title: JOB_START_TITLE, body: `${jobStartIntro}\n\n${jobStartTable(jobStart)}` });
  if (gitSync.length > 0) sections.push({ title: GIT_SYNC_TITLE, body: `${gitSyncIntro}\n\n${gitSyncTable(gitSync)}` });
  if (webApp !== undefined) sections.push({ title: 'Web app', body: `${webAppIntro}\n\n${webAppTable(webApp)}` });
  if (review !== undefined) sections.push({ title: 'Review', body: `${reviewIntro}\n\n${reviewTable(review)}` });
  if (editor !== undefined) sections.push({ title: 'Editor', body: `${editorIntro}\n\n${typeof editor === 'string' ? editor : editorTable(editor)}` });
  if (editorOpen !== undefined) sections.push({ title: EDITOR_OPEN_TITLE, body: `${editorOpenIntro}\n\n${editorOpenTable(editorOpen)}` });
  if (collab.length > 0) sections.push({ title: COLLAB_TITLE, body: `${collabIntro(collab)}\n\n${collabTable(collab)}` });
  const allMet =
    ask.every((r) => r.p95 <= 50) &&
    jobStartMet(jobStart) &&
    gitSyncMet(gitSync) &&
    editorOpenMet(editorOpen) &&
    collabMet(collab) &&
    runs.every((run) => run.skipped || (run.rows.every((row) => met(row, run.rows[0]!.result.requests.average) !== false) && (!run.readerCold || readerColdMet(run.readerCold))));
  const header = [
    '# Benchmarks',
    '',
    'Generated by `npm run bench` (bench/run.ts); rerun it to refresh this file. Each scenario is one request',
    `repeated for ${duration} s by autocannon (after a ${warmup} s warm-up) over ${connections} connections, against the`,
    'real application in the same process (the load generator on a worker thread), on a fresh database, on',
    '127.0.0.1. Latencies are per request. "vs baseline" is requests/s relative to the first row of the same',
    'database, a plain node:http server answering a constant body as large as the GET space answer, measured in',
    'the same run: the ceiling of the machine for that answer. Targets are those of issue 9; scenarios live in',
    'bench/scenarios.ts.',
    '',
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${machine}`,
    `- Load average (1 min) when the run started: ${loadBefore}; the run took ${minutes} min`,
    `- Every target${only ? ` of this run (BENCH_ONLY=${only.join(',')})` : ''} met: ${allMet ? 'yes' : 'NO'}`,
  ].join('\n');
  const printed = sections.map(({ title, body }) => `## ${title}\n\n${body}\n`).join('\n');
  if (output === '-') console.log(`\n${header}\n\n${printed}`);
  else {
    writeReport(output, header, sections);
    console.log(`\nWrote ${output}:\n\n${printed}`);
  }
}

await main();
