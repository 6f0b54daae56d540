import { sql } from 'kysely';
import type { Db, Executor, IntegrationEventsTable } from '../../db/types.ts';
import { keysetPage } from '../../db/keyset.ts';
import { isPostgres } from '../../db/dialect.ts';
import type { PageRequest } from '../../platform/pagination.ts';

export type IntegrationEventRow = IntegrationEventsTable;

// ---- the outbox ----

/**
 * Turning the outbox into events is done by one process at a time on PostgreSQL (a transaction-scoped
 * advisory lock), so that per-installation sequence numbers follow the outbox order; it is quick, unlike the
 * deliveries, which every process shares. SQLite has a single writer anyway.
 */
const OUTBOX_LOCK = 4_170_017;

export async function lockOutbox(trx: Executor): Promise<void> {
  if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(${OUTBOX_LOCK})`.execute(trx);
}

export async function unprocessedOutboxRows(trx: Executor, limit: number) {
  // The order rows were written in (migration 0018): timestamps tie within a transaction, ids are random.
  const writeOrder = sql.raw(isPostgres(trx) ? 'write_order' : 'rowid');
  return trx.selectFrom('events').selectAll().where('processed_at', 'is', null).orderBy(writeOrder).limit(limit).execute();
}

export async function markOutboxProcessed(trx: Executor, ids: string[], now: string): Promise<void> {
  if (ids.length === 0) return;
  await trx.updateTable('events').set({ processed_at: now }).where('id', 'in', ids).execute();
}

/**
 * Deletes up to `limit` outbox rows processed before `cutoff`; answers how many. A row is processed after it
 * was written, so this is also older than the cutoff; the (processed_at, created_at) index finds them.
 */
export async function deleteOutboxProcessedBefore(db: Executor, cutoff: string, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('events')
    .where('id', 'in', (eb) => eb.selectFrom('events').select('id').where('processed_at', '<', cutoff).limit(limit))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function nextSequence(trx: Executor, installationId: string): Promise<number> {
  const row = await trx
    .selectFrom('integration_events')
    .select((eb) => eb.fn.max('sequence').as('last'))
    .where('installation_id', '=', installationId)
    .executeTakeFirst();
  return Number(row?.last ?? 0) + 1;
}

export async function insertIntegrationEvent(trx: Executor, row: IntegrationEventRow): Promise<void> {
  await trx.insertInto('integration_events').values(row).execute();
}

// ---- delivery ----

/**
 * The type of the events an integration queues for itself (queueIntegrationTask, tasks.ts). A task is outside
 * its installation's order: it may be scheduled up to a day ahead, and must hold back no change's event.
 */
export const TASK_EVENT = 'task';

/**
 * Claims up to `limit` due events until `lockUntil`, each the oldest undelivered event of its installation: a
 * later event waits while an earlier one is pending (retrying or in flight elsewhere); tasks wait for nothing. On PostgreSQL several
 * processes share the queue: SKIP LOCKED lets each take other rows without waiting.
 */
export async function claimDueEvents(db: Db, now: string, lockUntil: string, limit: number): Promise<IntegrationEventRow[]> {
  return db.transaction().execute(async (trx) => {
    let query = trx
      .selectFrom('integration_events as e')
      .selectAll('e')
      .where('e.status', '=', 'pending')
      .where('e.next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('e.locked_until', 'is', null), eb('e.locked_until', '<', now)]))
      .where((eb) =>
        eb.or([
          eb('e.type', '=', TASK_EVENT),
          eb.not(
            eb.exists(
              eb
                .selectFrom('integration_events as p')
                .select('p.id')
                .whereRef('p.installation_id', '=', 'e.installation_id')
                .where('p.status', '=', 'pending')
                .where('p.type', '!=', TASK_EVENT)
                .whereRef('p.sequence', '<', 'e.sequence'),
            ),
          ),
        ]),
      )
      .orderBy('e.next_attempt_at')
      .orderBy('e.id')
      .limit(limit);
    if (isPostgres(db)) query = query.modifyEnd(sql`for update of e skip locked`);
    const rows = await query.execute();
    if (rows.length === 0) return [];
    await trx
      .updateTable('integration_events')
      .set({ locked_until: lockUntil })
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    return rows;
  });
}

export async function updateIntegrationEvent(db: Executor, id: string, changes: Partial<IntegrationEventRow>): Promise<void> {
  await db.updateTable('integration_events').set(changes).where('id', '=', id).execute();
}

export async function appendEventLogs(db: Executor, eventId: string, lines: { timestamp: string; level: string; message: string }[]): Promise<void> {
  if (lines.length === 0) return;
  const row = await db
    .selectFrom('integration_event_logs')
    .select((eb) => eb.fn.max('seq').as('last'))
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  const first = Number(row?.last ?? 0) + 1;
  await db
    .insertInto('integration_event_logs')
    .values(lines.map((line, index) => ({ event_id: eventId, seq: first + index, ...line })))
    .execute();
}

// ---- reading ----

/** The integration's events, newest first. */
export async function listEvents(db: Executor, integrationId: string, page: PageRequest): Promise<IntegrationEventRow[]> {
  const query = db.selectFrom('integration_events').selectAll().where('integration_id', '=', integrationId);
  return keysetPage(query, ['created_at', 'id'], 'desc', page).execute();
}

export async function countEvents(db: Executor, integrationId: string): Promise<number> {
  const row = await db
    .selectFrom('integration_events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('integration_id', '=', integrationId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findEvent(db: Executor, integrationId: string, eventId: string): Promise<IntegrationEventRow | undefined> {
  return db.selectFrom('integration_events').selectAll().where('integration_id', '=', integrationId).where('id', '=', eventId).executeTakeFirst();
}

export async function eventLogs(db: Executor, eventId: string) {
  return db.selectFrom('integration_event_logs').select(['timestamp', 'level', 'message']).where('event_id', '=', eventId).orderBy('seq').execute();
}

/** One installation's events, newest first (an organization's admins read their own installation's log). */
export async function listInstallationEvents(db: Executor, installationId: string, page: PageRequest): Promise<IntegrationEventRow[]> {
  const query = db.selectFrom('integration_events').selectAll().where('installation_id', '=', installationId);
  return keysetPage(query, ['created_at', 'id'], 'desc', page).execute();
}

export async function countInstallationEvents(db: Executor, installationId: string): Promise<number> {
  const row = await db
    .selectFrom('integration_events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('installation_id', '=', installationId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findInstallationEvent(db: Executor, installationId: string, eventId: string): Promise<IntegrationEventRow | undefined> {
  return db.selectFrom('integration_events').selectAll().where('installation_id', '=', installationId).where('id', '=', eventId).executeTakeFirst();
}

/**
 * Puts a failed event back in its installation's queue, due now; answers false when it is no longer failed
 * (another request retried it meanwhile), so two retries never make two deliveries.
 */
export async function requeueFailedEvent(db: Executor, eventId: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('integration_events')
    .set({ status: 'pending', next_attempt_at: now, locked_until: null })
    .where('id', '=', eventId)
    .where('status', '=', 'failed')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
