import { afterCommit } from '../db/statement-watch.ts';
import type { Db, Executor } from '../db/types.ts';
import type { Listening } from '../db/notifications.ts';
import type { AppContext } from './context.ts';
import { newId } from './ids.ts';
import { announceQueuedJob, claimDueJob, deleteJob, extendJobLease, insertJob, listenForQueuedJobs, queuedJobPayloads, rescheduleJob } from './job-store.ts';

type JobHandler = (ctx: AppContext, payload: unknown) => Promise<void>;
type Sweep = (ctx: AppContext) => Promise<void>;

const MAX_ATTEMPTS = 8;

/** The workers started in this process, by the database handle they work on: those that enqueueJob wakes. */
const startedWorkers = new WeakMap<Db, Set<JobWorker>>();

/**
 * Enqueues work to run after the current transaction commits: call it with the transaction of the change that
 * causes the work, so that the work is never lost and never runs for a change that rolled back. A job due now
 * starts at once rather than at the worker's next tick: this process's worker is woken after the commit, and on
 * PostgreSQL the commit delivers a notification to the workers of the other processes.
 */
export async function enqueueJob(ctx: AppContext, db: Executor, type: string, payload: unknown, runAt: Date = ctx.clock.now()) {
  const now = ctx.clock.now();
  await insertJob(db, { id: newId(), type, payload: JSON.stringify(payload ?? {}), run_at: runAt.toISOString(), created_at: now.toISOString() });
  if (runAt > now) return;
  await announceQueuedJob(db);
  await afterCommit(db, () => {
    for (const worker of startedWorkers.get(ctx.db) ?? []) worker.wake();
  });
}

/**
 * The payloads of the jobs of `type` still in the queue (waiting, running or to be retried): a job leaves it once
 * its handler returned, or when it failed its last attempt. Lets a feature notice work whose job is gone.
 */
export async function queuedJobs(db: Executor, type: string): Promise<unknown[]> {
  return (await queuedJobPayloads(db, type)).map((payload) => JSON.parse(payload) as unknown);
}

/** Where the worker says what failed: the server's logger (pino's signature). */
export interface WorkerLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/**
 * Runs queued jobs and periodic sweeps. Sweeps are idempotent (e.g. purging spaces deleted more than 7 days
 * ago), so every process may run them. Tests call runDue() after moving the clock instead of waiting.
 * Once started, a worker also runs due jobs (not the sweeps) when woken: by enqueueJob in this process, by another
 * process's notification on PostgreSQL. A wake-up that is missed (the listening connection was down) is made up
 * by the next run of the interval, which stays the safety net.
 */
export class JobWorker {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly sweeps = new Map<string, Sweep>();
  private readonly frequent = new Map<string, { intervalMs: () => number; sweep: Sweep }>();
  private readonly frequentTimers: NodeJS.Timeout[] = [];
  private readonly frequentRuns = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private draining: Promise<void> | undefined;
  private drainAgain = false;
  private listening: Listening | undefined;

  /** `log` is the server's (pino): a sweep or job that fails says so there, or the operator never learns of it. */
  constructor(
    private readonly ctx: AppContext,
    private readonly log: WorkerLog = { warn: () => {}, error: () => {} },
  ) {}

  handle(type: string, handler: JobHandler): void {
    this.handlers.set(type, handler);
  }

  sweep(name: string, sweep: Sweep): void {
    this.sweeps.set(name, sweep);
  }

  /**
   * A sweep that, besides every run of the worker, runs on its own shorter interval (read from the config when
   * the worker starts; 0: none): integration events are delivered within about a second, not a worker minute.
   * One run of it at a time in this process.
   */
  sweepOften(name: string, intervalMs: (ctx: AppContext) => number, sweep: Sweep): void {
    this.sweeps.set(name, sweep);
    this.frequent.set(name, { intervalMs: () => intervalMs(this.ctx), sweep });
  }

  start(intervalMs: number): void {
    if (intervalMs <= 0 || this.timer) return;
    this.timer = setInterval(() => void this.runDue().catch(() => undefined), intervalMs);
    this.timer.unref();
    const workers = startedWorkers.get(this.ctx.db) ?? new Set();
    startedWorkers.set(this.ctx.db, workers.add(this));
    this.listening = listenForQueuedJobs(this.ctx.db, () => this.wake());
    // Jobs queued while no worker ran (the server was down) need not wait for the first tick.
    this.wake();
    for (const [name, { intervalMs: often, sweep }] of this.frequent) {
      const every = often();
      if (every <= 0 || every >= intervalMs) continue;
      const timer = setInterval(() => {
        if (this.frequentRuns.has(name)) return;
        const run = this.runSweep(name, sweep)
          .finally(() => this.frequentRuns.delete(name));
        this.frequentRuns.set(name, run);
      }, every);
      timer.unref();
      this.frequentTimers.push(timer);
    }
  }

  /** Whether the loop is started (readiness: a server whose worker is stopped runs no jobs). */
  get isRunning(): boolean {
    return this.timer !== undefined;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    startedWorkers.get(this.ctx.db)?.delete(this);
    for (const timer of this.frequentTimers.splice(0)) clearInterval(timer);
    const listening = this.listening;
    this.listening = undefined;
    await Promise.all([listening?.close(), this.running, this.draining, ...this.frequentRuns.values()]);
  }

  /**
   * Runs the due jobs soon, without the sweeps; nothing when the worker is not started in this process. Cheap
   * enough to call for every queued job: wake-ups during a run make one more run after it, not one each.
   */
  wake(): void {
    if (this.timer) void this.runDueJobs().catch(() => undefined);
  }

  /** Runs every sweep once and every due job; overlapping calls share one run. */
  runDue(): Promise<void> {
    this.running ??= this.runSweeps()
      .then(() => this.runDueJobs())
      .finally(() => (this.running = undefined));
    return this.running;
  }

  /** Each sweep on its own: one that fails is logged, and the others still run (they used to stop behind it). */
  private async runSweeps(): Promise<void> {
    for (const [name, sweep] of this.sweeps) await this.runSweep(name, sweep);
  }

  private async runSweep(name: string, sweep: Sweep): Promise<void> {
    try {
      await sweep(this.ctx);
    } catch (error) {
      this.log.warn({ sweep: name, err: error }, `the ${name} sweep failed; it runs again at the worker's next run`);
    }
  }

  /**
   * Runs due jobs until none is left, one such run at a time. A call during a run makes it look once more when
   * done (the job that caused the call may have committed after the run last looked), and waits for that.
   */
  private runDueJobs(): Promise<void> {
    if (this.draining) {
      this.drainAgain = true;
      return this.draining;
    }
    this.draining = (async () => {
      try {
        do {
          this.drainAgain = false;
          await this.runJobs();
        } while (this.drainAgain);
      } finally {
        this.draining = undefined;
      }
    })();
    return this.draining;
  }

  private async runJobs(): Promise<void> {
    for (;;) {
      const now = this.ctx.clock.now();
      // A running job holds a lease of JOB_LEASE_MS, renewed every third of it while its handler runs: a job that
      // runs for an hour is never taken by another process meanwhile, and the job of a process that died (killed,
      // its machine lost) is taken over once its lease ran out, within a minute by default rather than never.
      const leaseMs = this.ctx.config.jobLeaseMs;
      const job = await claimDueJob(this.ctx.db, now.toISOString(), new Date(now.getTime() + leaseMs).toISOString());
      if (!job) return;
      const lease = { until: job.locked_until, lost: false };
      const renewing = setInterval(() => {
        const until = new Date(Math.max(this.ctx.clock.now().getTime(), Date.now()) + leaseMs).toISOString();
        void extendJobLease(this.ctx.db, job.id, lease.until, until)
          .then((extended) => {
            if (extended) lease.until = until;
            else lease.lost = true;
          })
          .catch(() => undefined);
      }, Math.max(50, Math.floor(leaseMs / 3)));
      renewing.unref();
      const handler = this.handlers.get(job.type);
      try {
        if (!handler) throw new Error(`no handler for job type ${job.type}`);
        await handler(this.ctx, JSON.parse(job.payload));
        clearInterval(renewing);
        await deleteJob(this.ctx.db, job.id);
      } catch (error) {
        clearInterval(renewing);
        const message = error instanceof Error ? error.message : String(error);
        if (job.attempts >= MAX_ATTEMPTS) {
          this.log.error({ job: job.type, id: job.id, attempts: job.attempts, err: error }, `a ${job.type} job failed its last attempt and was dropped: ${message}`);
          await deleteJob(this.ctx.db, job.id);
        } else {
          this.log.warn({ job: job.type, id: job.id, attempts: job.attempts, err: error }, `a ${job.type} job failed (attempt ${job.attempts}); it is tried again: ${message}`);
          // Exponential back-off: 30 s, 1 min, 2 min, …; unless another process holds the job now (this one's
          // lease ran out while it was stalled): its run decides.
          const retryAt = new Date(now.getTime() + 30_000 * 2 ** (job.attempts - 1));
          if (!lease.lost) await rescheduleJob(this.ctx.db, job.id, retryAt.toISOString(), message, lease.until);
        }
      }
    }
  }
}
