import type { Executor } from '../db/types.ts';
import type { AppContext } from './context.ts';
import { newId } from './ids.ts';
import { claimDueJob, deleteJob, insertJob, queuedJobPayloads, rescheduleJob } from './job-store.ts';

type JobHandler = (ctx: AppContext, payload: unknown) => Promise<void>;
type Sweep = (ctx: AppContext) => Promise<void>;

const LOCK_MS = 5 * 60_000;
const MAX_ATTEMPTS = 8;

/**
 * Enqueues work to run after the current transaction commits: call it with the transaction of the change that
 * causes the work, so that the work is never lost and never runs for a change that rolled back.
 */
export async function enqueueJob(ctx: AppContext, db: Executor, type: string, payload: unknown, runAt: Date = ctx.clock.now()) {
  await insertJob(db, { id: newId(), type, payload: JSON.stringify(payload ?? {}), run_at: runAt.toISOString(), created_at: ctx.clock.now().toISOString() });
}

/**
 * The payloads of the jobs of `type` still in the queue (waiting, running or to be retried): a job leaves it once
 * its handler returned, or when it failed its last attempt. Lets a feature notice work whose job is gone.
 */
export async function queuedJobs(db: Executor, type: string): Promise<unknown[]> {
  return (await queuedJobPayloads(db, type)).map((payload) => JSON.parse(payload) as unknown);
}

/**
 * Runs queued jobs and periodic sweeps. Sweeps are idempotent (e.g. purging spaces deleted more than 7 days
 * ago), so every process may run them. Tests call runDue() after moving the clock instead of waiting.
 */
export class JobWorker {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly sweeps = new Map<string, Sweep>();
  private readonly frequent = new Map<string, { intervalMs: () => number; sweep: Sweep }>();
  private readonly frequentTimers: NodeJS.Timeout[] = [];
  private readonly frequentRuns = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly ctx: AppContext) {}

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
    for (const [name, { intervalMs: often, sweep }] of this.frequent) {
      const every = often();
      if (every <= 0 || every >= intervalMs) continue;
      const timer = setInterval(() => {
        if (this.frequentRuns.has(name)) return;
        const run = sweep(this.ctx)
          .catch(() => undefined)
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
    for (const timer of this.frequentTimers.splice(0)) clearInterval(timer);
    await Promise.all([this.running, ...this.frequentRuns.values()]);
  }

  /** Runs every sweep once and every due job; overlapping calls share one run. */
  runDue(): Promise<void> {
    this.running ??= this.runOnce().finally(() => (this.running = undefined));
    return this.running;
  }

  private async runOnce(): Promise<void> {
    for (const sweep of this.sweeps.values()) await sweep(this.ctx);
    for (;;) {
      const now = this.ctx.clock.now();
      const job = await claimDueJob(this.ctx.db, now.toISOString(), new Date(now.getTime() + LOCK_MS).toISOString());
      if (!job) return;
      const handler = this.handlers.get(job.type);
      try {
        if (!handler) throw new Error(`no handler for job type ${job.type}`);
        await handler(this.ctx, JSON.parse(job.payload));
        await deleteJob(this.ctx.db, job.id);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (job.attempts >= MAX_ATTEMPTS) {
          await deleteJob(this.ctx.db, job.id);
        } else {
          // Exponential back-off: 30 s, 1 min, 2 min, …
          const retryAt = new Date(now.getTime() + 30_000 * 2 ** (job.attempts - 1));
          await rescheduleJob(this.ctx.db, job.id, retryAt.toISOString(), message);
        }
      }
    }
  }
}
