import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp, type App } from '../app.ts';
import { createDatabase } from '../db/database.ts';
import { watchStatements } from '../db/statement-watch.ts';
import type { Db } from '../db/types.ts';
import { startServer, type TestServer } from '../../test/helpers.ts';
import { newId } from './ids.ts';
import { systemClock } from './clock.ts';
import { claimDueJob, insertJob } from './job-store.ts';
import { enqueueJob, JobWorker } from './jobs.ts';

/** The worker's own interval in these tests: far longer than any wait, so a job that runs was woken. */
const TEN_MINUTES = 10 * 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits, in real time, until `done()` or `ms` passed; returns how long it waited. */
async function waitUntil(done: () => boolean, ms = 5_000): Promise<number> {
  const started = performance.now();
  while (!done() && performance.now() - started < ms) await sleep(5);
  return performance.now() - started;
}

/** Counts the worker's looks for a due job on `db` (each run of the worker makes one at least). */
function countClaims(db: Db): { count: number; stop: () => void } {
  const counter = { count: 0, stop: () => undefined as void };
  const stop = watchStatements(db, { statement: (text) => void (text.startsWith('select * from "jobs" where "run_at" <=') && (counter.count += 1)) });
  counter.stop = () => void stop?.();
  return counter;
}

/**
 * Starts the worker of `app` and waits until its first run, which looks for the jobs queued while it was
 * stopped (on PostgreSQL another follows once it listens).
 */
async function startWorker(app: App, intervalMs: number): Promise<void> {
  const claims = countClaims(app.ctx.db);
  app.jobs.start(intervalMs);
  await waitUntil(() => claims.count >= (process.env.TEST_DATABASE_URL ? 2 : 1));
  claims.stop();
  assert.ok(claims.count > 0, 'the started worker looks for due jobs');
}

describe('jobs start at once', () => {
  let t: TestServer;
  const runs: string[] = [];
  before(async () => {
    t = await startServer();
    t.app.jobs.handle('test-job', async (_ctx, payload) => void runs.push((payload as { name: string }).name));
  });
  afterEach(() => t.app.jobs.stop());
  after(() => t.close());

  test("a job queued in a transaction starts right after the commit, not at the worker's next tick", async () => {
    await startWorker(t.app, TEN_MINUTES);
    const claims = countClaims(t.db);
    let committed = 0;
    await t.db.transaction().execute(async (trx) => {
      await enqueueJob(t.app.ctx, trx, 'test-job', { name: 'after commit' });
      await sleep(100);
      assert.equal(claims.count, 0, 'the worker is not woken before the commit');
      committed = performance.now();
    });
    await waitUntil(() => runs.includes('after commit'));
    claims.stop();
    assert.ok(runs.includes('after commit'), 'the job ran long before the worker would have');
    assert.ok(performance.now() - committed < 5_000);
  });

  test('a transaction that rolls back wakes no worker, and its job does not exist', async () => {
    await startWorker(t.app, TEN_MINUTES);
    const claims = countClaims(t.db);
    await assert.rejects(
      t.db.transaction().execute(async (trx) => {
        await enqueueJob(t.app.ctx, trx, 'test-job', { name: 'rolled back' });
        throw new Error('the change fails');
      }),
      /the change fails/,
    );
    await sleep(200);
    claims.stop();
    assert.equal(claims.count, 0);
    assert.equal((await t.db.selectFrom('jobs').select('id').where('payload', 'like', '%rolled back%').execute()).length, 0);
  });

  test('a wake-up runs the due jobs only: no sweep, and a job queued for later waits for its time', async () => {
    let sweeps = 0;
    t.app.jobs.sweep('test-sweep', async () => void (sweeps += 1));
    await startWorker(t.app, TEN_MINUTES);
    await enqueueJob(t.app.ctx, t.db, 'test-job', { name: 'in a minute' }, new Date(t.clock.now().getTime() + 60_000));
    await enqueueJob(t.app.ctx, t.db, 'test-job', { name: 'now' });
    await waitUntil(() => runs.includes('now'));
    assert.ok(runs.includes('now'));
    assert.ok(!runs.includes('in a minute'), 'the worker follows the injected clock');
    assert.equal(sweeps, 0, 'sweeps stay on the interval');

    t.clock.advance(60_000);
    await t.app.jobs.runDue();
    assert.ok(runs.includes('in a minute'));
    assert.equal(sweeps, 1);
  });

  test('wake-ups during a run make one more run, not one each: one job at a time in a process', async () => {
    let active = 0;
    let most = 0;
    const done: number[] = [];
    t.app.jobs.handle('test-slow', async (_ctx, payload) => {
      active += 1;
      most = Math.max(most, active);
      await sleep(20);
      active -= 1;
      done.push((payload as { n: number }).n);
    });
    await startWorker(t.app, TEN_MINUTES);
    await Promise.all([1, 2, 3, 4, 5].map((n) => t.db.transaction().execute((trx) => enqueueJob(t.app.ctx, trx, 'test-slow', { n }))));
    await waitUntil(() => done.length === 5);
    assert.deepEqual([...done].sort(), [1, 2, 3, 4, 5]);
    assert.equal(most, 1);
  });

  test('a server whose worker is not started (WORKER_INTERVAL_MS=0) leaves the job to another process', async () => {
    await t.db.transaction().execute((trx) => enqueueJob(t.app.ctx, trx, 'test-job', { name: 'no worker here' }));
    await sleep(200);
    assert.ok(!runs.includes('no worker here'));
    await t.app.jobs.runDue();
    assert.ok(runs.includes('no worker here'));
  });
});

/**
 * Two server processes on one PostgreSQL: the second is a second application with its own connection pool on the
 * same schema. Its worker is started with a ten-minute interval, so a job it runs within a second was notified.
 */
describe('jobs start at once in another process', { skip: process.env.TEST_DATABASE_URL ? false : 'PostgreSQL only (TEST_DATABASE_URL): SQLite has one process' }, () => {
  let t: TestServer;
  let second: { app: App; db: Db };
  const runs: string[] = [];
  before(async () => {
    t = await startServer();
    const db = createDatabase({ url: process.env.TEST_DATABASE_URL!, schema: t.schema });
    second = { app: await buildApp({ config: t.config, db, clock: t.clock }), db };
    second.app.jobs.handle('test-job', async (_ctx, payload) => void runs.push((payload as { name: string }).name));
  });
  after(async () => {
    await second.app.close();
    await second.db.destroy();
    await t.close();
  });

  test('a job queued by one process starts in another within a second of the commit', async () => {
    await startWorker(second.app, TEN_MINUTES);
    try {
      let committed = 0;
      await t.db.transaction().execute(async (trx) => {
        await enqueueJob(t.app.ctx, trx, 'test-job', { name: 'elsewhere' });
        await sleep(100);
        assert.ok(!runs.includes('elsewhere'), 'nothing is heard before the commit');
        committed = performance.now();
      });
      const waited = await waitUntil(() => runs.includes('elsewhere'), 5_000);
      assert.ok(runs.includes('elsewhere'));
      assert.ok(waited < 1_000, `started ${Math.round(waited)} ms after the commit`);
      assert.ok(committed > 0);
    } finally {
      await second.app.jobs.stop();
    }
  });

  test('a job whose notification was missed runs at the next run of the interval', async () => {
    await startWorker(second.app, 300);
    try {
      // Written without enqueueJob: no notification, as when the listening connection was down.
      const now = t.clock.now().toISOString();
      await insertJob(t.db, { id: newId(), type: 'test-job', payload: JSON.stringify({ name: 'missed' }), run_at: now, created_at: now });
      await waitUntil(() => runs.includes('missed'), 5_000);
      assert.ok(runs.includes('missed'));
    } finally {
      await second.app.jobs.stop();
    }
  });
});

describe('a running job is leased', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  /** Two workers as two processes would run them, on the real clock, with a lease of `leaseMs`. */
  const workers = (leaseMs: number) => {
    const ctx = { ...t.app.ctx, clock: systemClock, config: { ...t.app.ctx.config, jobLeaseMs: leaseMs } };
    return [new JobWorker(ctx), new JobWorker(ctx)] as const;
  };

  test('a sweep that fails is logged and the sweeps after it still run; a failing job is logged at each attempt', async () => {
    const logged: { level: string; details: Record<string, unknown>; message: string }[] = [];
    const log = {
      warn: (details: object, message: string) => void logged.push({ level: 'warn', details: details as Record<string, unknown>, message }),
      error: (details: object, message: string) => void logged.push({ level: 'error', details: details as Record<string, unknown>, message }),
    };
    const worker = new JobWorker({ ...t.app.ctx, clock: systemClock }, log);
    let after = 0;
    worker.sweep('broken', async () => {
      throw new Error('the provider is down');
    });
    worker.sweep('after-broken', async () => void (after += 1));
    worker.handle('failing-job', async () => {
      throw new Error('no such thing');
    });
    await worker.runDue();
    assert.equal(after, 1, 'the next sweep ran');
    assert.equal(logged[0]?.level, 'warn');
    assert.equal(logged[0]?.details.sweep, 'broken');
    assert.match(logged[0]!.message, /the broken sweep failed/);
    await enqueueJob(t.app.ctx, t.db, 'failing-job', {});
    await worker.runDue();
    const failed = logged.find((entry) => entry.details.job === 'failing-job');
    assert.ok(failed, JSON.stringify(logged.map((l) => l.message)));
    assert.match(failed.message, /failed \(attempt 1\); it is tried again: no such thing/);
    await t.db.deleteFrom('jobs').where('type', '=', 'failing-job').execute();
  });

  test('a job that runs far longer than its lease keeps it: another worker does not run it meanwhile', async () => {
    const [one, two] = workers(300);
    const starts: string[] = [];
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    for (const [name, worker] of [['one', one], ['two', two]] as const) {
      worker.handle('long-job', async () => {
        starts.push(name);
        await finished;
      });
    }
    await insertJob(t.db, { id: newId(), type: 'long-job', payload: '{}', run_at: new Date(Date.now() - 1000).toISOString(), created_at: new Date().toISOString() });
    const running = one.runDue();
    await waitUntil(() => starts.length === 1);
    // Four leases long, the other worker looks again and again: the lease is renewed, the job is not free.
    for (let i = 0; i < 12; i++) {
      await two.runDue();
      await sleep(100);
    }
    assert.deepEqual(starts, ['one']);
    finish();
    await running;
    assert.equal(await t.db.selectFrom('jobs').select('id').where('type', '=', 'long-job').executeTakeFirst(), undefined, 'done once, and gone');
  });

  test('the job of a process that died is taken over once its lease ran out', async () => {
    const [, survivor] = workers(300);
    const runs: string[] = [];
    survivor.handle('orphaned-job', async () => void runs.push('survivor'));
    const id = newId();
    await insertJob(t.db, { id, type: 'orphaned-job', payload: '{}', run_at: new Date(Date.now() - 1000).toISOString(), created_at: new Date().toISOString() });
    // Claimed by a process that dies at once: nothing renews its lease.
    const now = new Date();
    assert.ok(await claimDueJob(t.db, now.toISOString(), new Date(now.getTime() + 300).toISOString()));
    await survivor.runDue();
    assert.deepEqual(runs, [], 'not while the lease holds');
    await sleep(400);
    await survivor.runDue();
    assert.deepEqual(runs, ['survivor']);
    const row = await t.db.selectFrom('jobs').select('id').where('id', '=', id).executeTakeFirst();
    assert.equal(row, undefined);
  });
});
