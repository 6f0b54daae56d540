import { hostname } from 'node:os';
import { sql } from 'kysely';
import type { Db, Executor } from '../db/types.ts';
import { isPostgres } from '../db/dialect.ts';
import { listen, notify, type Listening } from '../db/notifications.ts';

/** The PostgreSQL notification channel that tells every process's worker a job was queued. */
const JOBS_CHANNEL = 'quire_jobs';

export async function insertJob(db: Executor, row: { id: string; type: string; payload: string; run_at: string; created_at: string }) {
  await db.insertInto('jobs').values({ ...row, attempts: 0, locked_until: null, locked_by: null, last_error: null }).execute();
}

/** Tells the workers of other processes that a job is due, when `db`'s transaction commits (PostgreSQL). */
export async function announceQueuedJob(db: Executor): Promise<void> {
  await notify(db, JOBS_CHANNEL);
}

/** Calls `onQueued` when another process announces a job, and after each reconnection; undefined on SQLite. */
export function listenForQueuedJobs(db: Db, onQueued: () => void): Listening | undefined {
  return listen(db, JOBS_CHANNEL, { onNotification: onQueued, onConnected: onQueued });
}

/** This process, as jobs.locked_by names it. */
export const JOB_OWNER = `${hostname()}:${process.pid}`;

/**
 * Claims one due job for this process until `lockUntil`. On PostgreSQL several processes share the queue:
 * SKIP LOCKED lets each take a different row without waiting. SQLite has one writer, so a transaction suffices.
 */
export async function claimDueJob(db: Db, now: string, lockUntil: string, lockedBy: string = JOB_OWNER) {
  return db.transaction().execute(async (trx) => {
    let query = trx
      .selectFrom('jobs')
      .selectAll()
      .where('run_at', '<=', now)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
      .orderBy('run_at')
      .orderBy('id')
      .limit(1);
    if (isPostgres(db)) query = query.modifyEnd(sql`for update skip locked`);
    const job = await query.executeTakeFirst();
    if (!job) return undefined;
    await trx.updateTable('jobs').set({ locked_until: lockUntil, locked_by: lockedBy, attempts: job.attempts + 1 }).where('id', '=', job.id).execute();
    return { ...job, attempts: job.attempts + 1, locked_until: lockUntil, locked_by: lockedBy };
  });
}

/**
 * Renews a running job's lease from `held` to `until`, if it is still the lease this process took (the value is
 * its token): false when another process took the job after the lease ran out.
 */
export async function extendJobLease(db: Executor, id: string, held: string, until: string): Promise<boolean> {
  const result = await db.updateTable('jobs').set({ locked_until: until }).where('id', '=', id).where('locked_until', '=', held).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteJob(db: Executor, id: string) {
  await db.deleteFrom('jobs').where('id', '=', id).execute();
}

/** The payloads of the jobs of a type still queued: waiting, running, or waiting to be retried. */
export async function queuedJobPayloads(db: Executor, type: string): Promise<string[]> {
  const rows = await db.selectFrom('jobs').select('payload').where('type', '=', type).execute();
  return rows.map((row) => row.payload);
}

/** Puts a failed job back in the queue for `runAt`; with `held`, only while this process's lease holds it. */
export async function rescheduleJob(db: Executor, id: string, runAt: string, error: string, held?: string) {
  let query = db.updateTable('jobs').set({ run_at: runAt, locked_until: null, locked_by: null, last_error: error }).where('id', '=', id);
  if (held !== undefined) query = query.where('locked_until', '=', held);
  await query.execute();
}

/** How many jobs wait (due or not) and the age of the oldest due one, in seconds (metrics). */
export async function jobQueueStats(db: Db, now: string): Promise<{ depth: number; oldestDueAgeSeconds: number }> {
  const row = await db
    .selectFrom('jobs')
    .select((eb) => [eb.fn.countAll<number | string>().as('depth')])
    .executeTakeFirst();
  const oldest = await db.selectFrom('jobs').select('run_at').where('run_at', '<=', now).orderBy('run_at').limit(1).executeTakeFirst();
  const age = oldest ? (Date.parse(now) - Date.parse(oldest.run_at)) / 1000 : 0;
  return { depth: Number(row?.depth ?? 0), oldestDueAgeSeconds: Math.max(0, age) };
}
