#!/usr/bin/env node
// Runs the test files (*.test.ts under src/, test/ and web/) with Node's test runner, through tsx.
//
//   npm test                                  every file
//   npm test -- comments src/db/database.test.ts   the files whose path is, or contains, one of the words
//   npm test -- merge --test-name-pattern=conflict   options (from the first `-`) go to the runner
//
// The files run in batches (scripts/test-batch.mjs): a handful of processes, as many at once as there are cores,
// each importing its files one after the other. Loading the server through tsx and compiling its routes' schemas
// costs a process seconds, which the process per file we had (141 of them) paid every time. The longest files go
// first, by the durations of the last run (kept in node_modules/.cache) or else by their size.
// Files marked `// @sqlite-run-only:` are left out of PostgreSQL's run (they would repeat SQLite's to the byte).
// TEST_ISOLATION=file runs a process per file instead; TEST_TIMINGS=N lists the N slowest files at the end;
// TEST_PROCESSES sets how many run at once; a batch in which no test ends for TEST_STALL_MS (6 minutes) fails; TEST_DATABASE_URL switches to PostgreSQL.
// The browser tests drive Debian's Chromium (test/browser.ts; QUIRE_CHROMIUM names another binary): without it
// they skip, and the run says so at its start and its end; under CI=true it fails instead.
import { spawn, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(import.meta.url), '..', '..');
process.chdir(root);

function find(dir) {
  let files = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files = files.concat(find(path));
    else if (name.endsWith('.test.ts')) files.push(path);
  }
  return files;
}

const args = process.argv.slice(2);
const firstOption = args.findIndex((a) => a.startsWith('-'));
const words = (firstOption < 0 ? args : args.slice(0, firstOption)).map((w) => relative(root, w) || w);
const options = firstOption < 0 ? [] : args.slice(firstOption);
const all = [...find('src'), ...find('test'), ...find('web')].sort();
const named = words.length === 0 ? all : all.filter((f) => words.some((w) => f === w || f.includes(w)));
if (named.length === 0) {
  console.error(`npm test: no test file matches ${words.join(', ')}`);
  process.exit(1);
}
// A file marked `// @sqlite-run-only: <why>` opens no database, or checks what no database changes (the kit's
// looks): PostgreSQL's run would repeat it to the byte, so it runs once, in SQLite's run. A file named on the
// command line runs anyway.
const SQLITE_RUN_ONLY = /^\/\/ @sqlite-run-only: /m;
const onceOnSQLite = process.env.TEST_DATABASE_URL ? named.filter((f) => !words.includes(f) && SQLITE_RUN_ONLY.test(readFileSync(f, 'utf8'))) : [];
const files = named.filter((f) => !onceOnSQLite.includes(f));
if (onceOnSQLite.length > 0) console.log(`# ${onceOnSQLite.length} files open no database or check what none changes (@sqlite-run-only): run in SQLite's run only`);
if (files.length === 0) {
  console.log('npm test: every file named is @sqlite-run-only; name its path to run it on PostgreSQL too');
  process.exit(0);
}

/** The newest modification time of a file under `dir` that goes into the build (tests do not). */
function newestIn(dir) {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) newest = Math.max(newest, newestIn(path));
    else if (!name.endsWith('.test.ts')) newest = Math.max(newest, stat.mtimeMs);
  }
  return newest;
}

/**
 * Whether dist/ was built after every file of src/ last changed (as after `npm ci`). Commands the tests spawn
 * (bin/quire.js) then run the build: a command through tsx costs some 4 s of CPU to start, the build about 1.5,
 * and the CLI's tests spawn dozens. After an edit that is not built yet they run src/ through tsx, never a stale
 * dist/.
 */
function buildIsFresh() {
  try {
    return statSync(join(root, 'dist', 'main.js')).mtimeMs > Math.max(newestIn(join(root, 'src')), statSync(join(root, 'package.json')).mtimeMs);
  } catch {
    return false;
  }
}

// A run that tests no screen must say so: the browser tests' skip reason is one line among thousands of a log.
const chromium = process.env.QUIRE_CHROMIUM || ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path)) || '/usr/bin/chromium';
const browserFiles = existsSync(chromium) ? [] : files.filter((file) => /\bwithoutChromium\b/.test(readFileSync(file, 'utf8')));
const noChromium = browserFiles.length > 0 ? `${browserFiles.length} browser test files skipped: install Debian's chromium (apt-get install chromium); none at ${chromium}` : '';
if (noChromium && /^(true|1)$/i.test(process.env.CI ?? '')) {
  console.error(`npm test: CI=true, and ${noChromium.replace('skipped', 'cannot run')}`);
  process.exit(1);
}
if (noChromium) console.log(`# WARNING: ${noChromium}`);

const env = {
  ...process.env,
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
  QUIRE_FROM_SOURCE: process.env.QUIRE_FROM_SOURCE ?? (buildIsFresh() ? '0' : '1'),
  // test/browser.ts looks for the same binary.
  QUIRE_CHROMIUM: chromium,
  // PostgreSQL's connections (the tests', their servers', the commands they spawn) commit without waiting for the
  // WAL to reach the disk: a test database needs no durability, and each of the run's many thousands of commits
  // waited some 2 ms for the flush. Nothing else changes: a crash may lose the last commits, never consistency.
  ...(process.env.TEST_DATABASE_URL ? { PGOPTIONS: process.env.PGOPTIONS ?? '-c synchronous_commit=off' } : {}),
};
const node = ['--import', 'tsx', '--import', new URL('../test/property-seeds.ts', import.meta.url).href];
const reporter = (name) => `--test-reporter=${new URL(name, import.meta.url).href}`;

if (process.env.TEST_ISOLATION === 'file' || options.some((a) => a.startsWith('--test-reporter'))) {
  // A process per file, Node's own way: TAP as it goes, then every failure again at the end.
  const reporters = options.some((a) => a.startsWith('--test-reporter'))
    ? []
    : ['--test-reporter=tap', '--test-reporter-destination=stdout', reporter('./failures-reporter.mjs'), '--test-reporter-destination=stdout'];
  const result = spawnSync(process.execPath, [...node, '--test', '--test-concurrency=2', ...reporters, ...options, ...files], { stdio: 'inherit', env });
  if (noChromium) console.log(`# WARNING: ${noChromium}`);
  process.exit(result.status ?? 1);
}

// --- batches -------------------------------------------------------------------------------------------------

// Durations differ by database: the command line's tests take two minutes on SQLite and are skipped on
// PostgreSQL, where the same file planned at two minutes left a batch all but empty.
const database = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const timingsFile = join(root, 'node_modules', '.cache', `quire-test-timings-${database}.json`);
// Durations measured on the 2-core machine and kept with the code (a whole run with TEST_SAVE_TIMINGS=1 writes
// its database's), so that a clean clone (CI) packs its batches by what files cost: by size alone a browser test
// of 20 KB that takes two minutes went into a batch as if it took ten seconds, and one process ran alone at the end.
const committedTimingsFile = join(root, 'scripts', 'test-timings.json');
const readTimings = (path) => {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return {};
  }
};
const committed = readTimings(committedTimingsFile);
const known = { ...committed[database], ...readTimings(timingsFile) };
// Seconds a file is expected to take: its last duration, or about a second per 2 KB of source.
const expected = (file) => known[file] ?? statSync(file).size / 2_000;

const STALL_MS = Number(process.env.TEST_STALL_MS) || 6 * 60_000;
const processes = Math.max(1, Number(process.env.TEST_PROCESSES) || availableParallelism());
// Five batches per process, of shrinking sizes (30, 25, 20, 15 and 10% of a process's share): each process takes
// the next batch when its own ends, and the last ones are short, so that no core idles long at the end (with
// batches of one size, one core sat idle for up to a batch, a minute and a half). Loading the server is still
// paid only a few times per process.
const SHARES = [0.3, 0.25, 0.2, 0.15, 0.1];
const total = files.reduce((sum, file) => sum + expected(file), 0);
const batches = Array.from({ length: Math.min(files.length, processes * SHARES.length) }, (_, i) => ({
  files: [],
  seconds: 0,
  capacity: (total / processes) * SHARES[Math.floor(i / processes)],
}));
// The longest file first, each into the batch with the most room left.
for (const file of [...files].sort((a, b) => expected(b) - expected(a))) {
  const roomiest = batches.reduce((best, batch) => (batch.capacity - batch.seconds > best.capacity - best.seconds ? batch : best));
  roomiest.files.push(file);
  roomiest.seconds += expected(file);
}
const queue = batches.filter((b) => b.files.length > 0).sort((a, b) => b.seconds - a.seconds);

const work = mkdtempSync(join(tmpdir(), 'quire-tests-'));
// The end-to-end files record the official operations that answered them a success conforming to the spec
// (test/e2e/spec-validator.ts); a run of every file keeps the list for `npm run coverage:ops`.
env.QUIRE_OFFICIAL_OPS_DIR = join(work, 'official-operations');
const totals = { tests: 0, suites: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
const failures = [];
const durations = {};
const children = new Set();
let failedToRun = 0;
const started = Date.now();
const cpuAtStart = cpuTimes();

function runBatch(batch, index) {
  const failuresFile = join(work, `failures-${index}.txt`);
  const child = spawn(
    process.execPath,
    [...node, '--test-reporter=tap', '--test-reporter-destination=stdout', reporter('./failures-reporter.mjs'), `--test-reporter-destination=${failuresFile}`, ...options, fileURLToPath(new URL('./test-batch.mjs', import.meta.url)), ...batch.files],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.add(child);
  const out = [];
  // A batch in which no test has ended for STALL_MS hangs: it is stopped (Node's runner then writes what ran) and
  // fails naming the last test that ended, rather than holding CI until its time limit.
  let stalled = false;
  let watchdog;
  const progress = () => {
    clearTimeout(watchdog);
    watchdog = setTimeout(() => {
      stalled = true;
      child.kill('SIGINT');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    }, STALL_MS);
  };
  progress();
  child.stdout.on('data', (chunk) => {
    out.push(chunk);
    progress();
  });
  child.stderr.on('data', (chunk) => out.push(chunk));
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(watchdog);
      children.delete(child);
      const text = Buffer.concat(out).toString('utf8');
      // A batch's TAP as a whole, so that two batches' lines never interleave.
      process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
      collect(text);
      try {
        const failed = readFileSync(failuresFile, 'utf8').trim();
        if (failed) failures.push(failed.replace(/^# \d+ failed:\n/, ''));
      } catch {
        // no failures written
      }
      const summary = /^# tests \d+$/m.test(text);
      if (stalled || (code !== 0 && !/^# fail [1-9]/m.test(text)) || !summary) {
        failedToRun += 1;
        const last = [...text.matchAll(/^\s*(?:not )?ok \d+ - (.*)$/gm)].pop()?.[1] ?? 'none';
        const why = stalled ? `stalled: no test ended for ${Math.round(STALL_MS / 1000)} s` : `ended with ${signal ?? `exit code ${code}`} before its summary`;
        failures.push(`batch ${index + 1} ${why}; the last test that ended: ${last}\n  its files: ${batch.files.join(' ')}`);
      }
      console.error(`# batch ${index + 1}/${queue.length} done: ${batch.files.length} files in ${((Date.now() - started) / 1000).toFixed(0)} s since the start`);
      resolve();
    });
  });
}

/** Adds up a batch's closing counts, and each file's duration (files are the batches' top-level suites). */
function collect(text) {
  for (const [, name, value] of text.matchAll(/^# (tests|suites|pass|fail|cancelled|skipped|todo) (\d+)$/gm)) totals[name] += Number(value);
  for (const [, file, ms] of text.matchAll(/^(?:not )?ok \d+ - (\S+\.test\.ts)\n {2}---\n {2}duration_ms: ([\d.]+)/gm)) durations[file] = Number(ms) / 1000;
}

// CI's time limit (`timeout` in .ci/run) signals the whole process group: the batches running end, writing what
// ran, and no other starts, so that the log still ends with what failed instead of being cut by the SIGKILL after.
let stoppedBy;
const stop = (signal) => {
  stoppedBy = signal;
  for (const child of children) child.kill(signal);
};
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));

let next = 0;
await Promise.all(
  Array.from({ length: Math.min(processes, queue.length) }, async () => {
    while (next < queue.length && !stoppedBy) {
      const index = next++;
      await runBatch(queue[index], index);
    }
  }),
);
const officialOps = readOfficialOperations(env.QUIRE_OFFICIAL_OPS_DIR);
rmSync(work, { recursive: true, force: true });
if (words.length === 0 && failedToRun === 0 && officialOps.length > 0) {
  mkdirSync(join(root, 'test-results'), { recursive: true });
  writeFileSync(join(root, 'test-results', `official-operations-${database}.json`), `${JSON.stringify(officialOps, null, 1)}\n`);
}
if (stoppedBy && next < queue.length) {
  failedToRun += queue.length - next;
  failures.push(`${stoppedBy} received: ${queue.length - next} batches did not run; their files: ${queue.slice(next).flatMap((b) => b.files).join(' ')}`);
}

mkdirSync(join(root, 'node_modules', '.cache'), { recursive: true });
writeFileSync(timingsFile, JSON.stringify({ ...readTimings(timingsFile), ...durations }, null, 1));
if (process.env.TEST_SAVE_TIMINGS && words.length === 0) {
  const rounded = Object.fromEntries(Object.keys(durations).sort().map((file) => [file, Math.round(durations[file] * 10) / 10]));
  writeFileSync(committedTimingsFile, `${JSON.stringify({ ...committed, [database]: rounded }, null, 1)}\n`);
}

/** The operation ids the end-to-end files' official clients saw succeed, each once, sorted. */
function readOfficialOperations(dir) {
  if (!existsSync(dir)) return [];
  const ids = new Set(readdirSync(dir).flatMap((name) => JSON.parse(readFileSync(join(dir, name), 'utf8'))));
  return [...ids].sort();
}

/**
 * The machine's CPU time so far, busy and in all, from /proc/stat (Linux; undefined elsewhere). How busy the cores
 * were over a run says whether its time goes to work or to waiting (timers, sockets, a browser's frames): the figure
 * to read before changing TEST_PROCESSES. It counts everything the machine ran meanwhile, not only the tests.
 */
function cpuTimes() {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const idle = fields[3] + (fields[4] ?? 0);
    const total = fields.slice(0, 8).reduce((sum, value) => sum + value, 0);
    return { busy: total - idle, total };
  } catch {
    return undefined;
  }
}

const seconds = ((Date.now() - started) / 1000).toFixed(0);
const cpuAtEnd = cpuTimes();
const busy = cpuAtStart && cpuAtEnd && cpuAtEnd.total > cpuAtStart.total ? (100 * (cpuAtEnd.busy - cpuAtStart.busy)) / (cpuAtEnd.total - cpuAtStart.total) : undefined;
if (process.env.TEST_TIMINGS) {
  const slowest = Object.entries(durations).sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TEST_TIMINGS) || 20);
  console.log(`\n# the ${slowest.length} slowest test files (seconds, in a batch process):`);
  for (const [file, s] of slowest) console.log(`#   ${s.toFixed(1).padStart(6)}  ${file}`);
}
if (failures.length > 0) console.log(`\n# ${totals.fail + failedToRun} failed:\n${failures.join('\n\n')}`);
console.log(`\n# all ${files.length} files on ${database === 'postgres' ? 'PostgreSQL' : 'SQLite'} in ${queue.length} batches, ${processes} at once: ${seconds} s${busy === undefined ? '' : `, the ${availableParallelism()} CPUs ${busy.toFixed(0)}% busy`}`);
for (const [name, value] of Object.entries(totals)) console.log(`# ${name} ${value}`);
if (officialOps.length > 0) console.log(`# official operations answered through the official client: ${officialOps.length}`);
if (noChromium) console.log(`# WARNING: ${noChromium}`);
console.log(`${totals.pass} passed, ${totals.fail + failedToRun} failed, ${totals.skipped} skipped`);
process.exit(totals.fail + failedToRun + totals.cancelled > 0 ? 1 : 0);
