import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import autocannon from 'autocannon';
import { scenarios } from './scenarios.ts';
import { startBenchServer } from './server.ts';
import { startBaseline } from './baseline.ts';

/**
 * `node --import tsx bench/cpu.ts <scenario>…`: the CPU time the server's thread spends per request under load
 * (autocannon over HTTP, CPU_CONNECTIONS connections for CPU_SECONDS seconds each), for the baseline and each
 * named scenario, with the ratio it predicts (baseline CPU / scenario CPU). On a machine shared with other work,
 * requests/s measure the neighbours; the CPU time of the main thread (/proc/self/task/<pid>/stat, Linux only)
 * measures the request. With CPU_PROFILE_DIR, a CPU profile of each measured run goes there. CPU_PG_URL runs it on PostgreSQL (the database's own CPU is then not counted).
 */
const names = process.argv.slice(2);
const seconds = Number(process.env.CPU_SECONDS ?? 4);
const connections = Number(process.env.CPU_CONNECTIONS ?? 20);
const ticksPerSecond = 100;

/** User + system CPU of this process's main thread, in ms. */
function mainThreadCpuMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

async function load(url: string, request: { method?: string; body?: unknown; auth?: boolean }, token: string, duration: number) {
  const headers: Record<string, string> = {};
  if (request.auth !== false) headers.authorization = `Bearer ${token}`;
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  return autocannon({ url, method: request.method ?? 'GET', headers, ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}), connections, duration, workers: 1 });
}

async function cpuPerRequest(url: string, request: { method?: string; body?: unknown; auth?: boolean }, token: string, name: string) {
  await load(url, request, token, 1);
  const session = process.env.CPU_PROFILE_DIR ? new Session() : undefined;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  const before = mainThreadCpuMs();
  const result = await load(url, request, token, seconds);
  const cpu = mainThreadCpuMs() - before;
  if (session) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(`${process.env.CPU_PROFILE_DIR}/${name}.cpuprofile`, JSON.stringify(profile));
    session.disconnect();
  }
  if (result.non2xx > 0 || result.errors > 0) console.log(`  warning: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { us: (cpu * 1000) / result.requests.total, rps: result.requests.average };
}

const server = await startBenchServer(process.env.CPU_PG_URL ? { pgUrl: process.env.CPU_PG_URL } : {});
try {
  const probe = await server.api<{ id: string }>('POST', `/orgs/${server.organizationId}/spaces`, { title: 'Benchmark space', emoji: '1f4d8' });
  const body = await (await fetch(`${server.url}/v1/spaces/${probe.id}`, { headers: { authorization: `Bearer ${server.token}` } })).text();
  const baseline = await startBaseline(body);
  let base: { us: number; rps: number };
  try {
    base = await cpuPerRequest(`${baseline.url}/`, { auth: false }, server.token, 'baseline');
  } finally {
    await baseline.close();
  }
  console.log(`baseline: ${base.us.toFixed(0)} µs CPU per request (${Math.round(base.rps)} req/s)`);
  for (const scenario of scenarios.filter((s) => names.includes(s.name))) {
    const request = await scenario.prepare(server);
    const result = await cpuPerRequest(`${server.url}${request.path}`, request, server.token, scenario.name);
    const target = scenario.targets?.[process.env.CPU_PG_URL ? 'postgres' : 'sqlite']?.ratio;
    console.log(`${scenario.name}: ${result.us.toFixed(0)} µs CPU per request (${Math.round(result.rps)} req/s), predicted ratio ${(base.us / result.us).toFixed(3)}${target ? ` (target ${target})` : ''}`);
  }
} finally {
  await server.close();
}
