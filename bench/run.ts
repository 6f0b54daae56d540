import { writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import autocannon, { type Result } from 'autocannon';
import { scenarios } from './scenarios.ts';
import { startBenchServer } from './server.ts';
import { runContentScale, seededSpace, type TimedResult } from './content-scale.ts';
import { runSearchBench, searchIntro, searchTable, type SearchBenchResult } from './search.ts';

/**
 * `npm run bench`: each scenario of bench/scenarios.ts against an in-process server (fresh SQLite, random
 * port, 127.0.0.1 only), a short warm-up then a timed run with a bounded number of connections; the table
 * goes to docs/benchmarks.md. About 30 s in all with the defaults. Knobs: BENCH_DURATION (seconds per
 * scenario, default 5), BENCH_CONNECTIONS (default 10), BENCH_ONLY (comma-separated scenario names; the
 * baseline always runs), BENCH_OUTPUT (default docs/benchmarks.md; "-" prints only).
 */

const duration = positiveInt('BENCH_DURATION', 5);
const connections = Math.min(positiveInt('BENCH_CONNECTIONS', 10), 100);
const warmup = 1;
const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim()).filter(Boolean);
const output = process.env.BENCH_OUTPUT ?? 'docs/benchmarks.md';

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

function table(rows: Row[]): string {
  const baseline = rows[0]!.result.requests.average;
  const lines = [
    '| scenario | what | requests/s | mean latency (ms) | p50 (ms) | p99 (ms) | vs baseline | non-2xx / errors |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const { name, description, result } of rows) {
    const rps = result.requests.average;
    lines.push(
      `| ${name} | ${description} | ${Math.round(rps).toLocaleString('en-US')} | ${result.latency.average.toFixed(2)} | ${ms(result.latency.p50)} | ${ms(result.latency.p99)} | ${(rps / baseline).toFixed(2)} | ${result.non2xx} / ${result.errors} |`,
    );
  }
  return lines.join('\n');
}

const scaleIntro = [
  'The same operation on a space of 100 pages and on one of 10,000 (sections of 100 pages), through the HTTP API,',
  'one request at a time, the two spaces alternating; medians of 20 rounds. The target is a ratio under 2: a',
  'change to one page costs what the change needs, not what the space holds.',
].join('\n');

function scaleTable(results: TimedResult[]): string {
  const lines = ['| operation | 100 pages (ms) | 10,000 pages (ms) | ratio | under 2 |', '| --- | ---: | ---: | ---: | :---: |'];
  for (const r of results) {
    const ratio = r.large / r.small;
    lines.push(`| ${r.name} | ${r.small.toFixed(1)} | ${r.large.toFixed(1)} | ${ratio.toFixed(2)} | ${ratio < 2 ? 'yes' : 'NO'} |`);
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  // Other work on the machine skews every number: the load average before the run says how much there was.
  const loadBefore = loadavg()[0]!.toFixed(2);
  const selected = scenarios.filter((s, i) => i === 0 || !only || only.includes(s.name));
  const server = await startBenchServer();
  const rows: Row[] = [];
  let scale: TimedResult[] = [];
  let search: SearchBenchResult[] = [];
  try {
    for (const scenario of selected) {
      const request = await scenario.prepare(server);
      const url = `${server.url}${request.path}`;
      process.stdout.write(`${scenario.name}: warm-up ${warmup}s, then ${duration}s with ${connections} connections ... `);
      await measure(url, request, server.token, warmup);
      const result = await measure(url, request, server.token, duration);
      console.log(`${Math.round(result.requests.average)} req/s, p50 ${ms(result.latency.p50)} ms, p99 ${ms(result.latency.p99)} ms`);
      if (result.non2xx > 0 || result.errors > 0) {
        console.log(`  warning: ${result.non2xx} non-2xx answers, ${result.errors} errors (${JSON.stringify(result.statusCodeStats)})`);
      }
      rows.push({ name: scenario.name, description: scenario.description, result });
    }
    if (!only || only.includes('content-scale')) {
      process.stdout.write('content-scale: seeding 100- and 10,000-page spaces, then timing edits, reads and merges ... ');
      scale = await runContentScale(server, await seededSpace(server, 100), await seededSpace(server, 10_000));
      console.log('done');
    }
  } finally {
    await server.close();
  }
  if (!only || only.includes('search')) {
    console.log('search: 10,000-page spaces on SQLite and PostgreSQL: indexing, search latency, one-page edits ...');
    search = await runSearchBench();
  }

  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const machine = `${availableParallelism()} CPUs (nproc), ${cpu}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}/${process.arch}`;
  const report = [
    '# Benchmarks',
    '',
    'Generated by `npm run bench` (bench/run.ts); rerun it to refresh this file. Each scenario is one request',
    `repeated for ${duration} s by autocannon (after a ${warmup} s warm-up) over ${connections} connections, against the`,
    'real application in the same process (the load generator on a worker thread), on a fresh SQLite database,',
    'on 127.0.0.1. Latencies are per request; "vs baseline" is requests/s relative to the first row, which',
    'measures the HTTP stack alone. Scenarios live in bench/scenarios.ts.',
    '',
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${machine}`,
    `- Load average (1 min) when the run started: ${loadBefore}`,
    '',
    table(rows),
    '',
    ...(scale.length > 0 ? ['## Content scale', '', scaleIntro, '', scaleTable(scale), ''] : []),
    ...(search.length > 0 ? ['## Search', '', searchIntro, '', searchTable(search), ''] : []),
    'The load generator and the server share the machine, so absolute numbers are a floor; compare rows of one',
    'run, and runs on the same machine.',
    '',
  ].join('\n');
  if (output === '-') console.log(`\n${report}`);
  else {
    writeFileSync(output, report);
    console.log(`\nWrote ${output}:\n\n${table(rows)}${scale.length > 0 ? `\n\n${scaleTable(scale)}` : ''}`);
  }
}

await main();
