import type { AppContext } from '../../platform/context.ts';
import type { Executor } from '../../db/types.ts';
import { newId } from '../../platform/ids.ts';
import { deleteInBatches } from '../../platform/batched-delete.ts';
import { planIntegrationEvent, type PlannedEvent } from './event-types.ts';
import { installationsOnTarget, integrationExists } from '../integrations/queries.ts';
import { deleteOutboxProcessedBefore, insertIntegrationEvent, lockOutbox, markOutboxProcessed, nextSequence, unprocessedOutboxRows } from './store.ts';

const BATCH = 200;

/**
 * How long a processed outbox row is kept: a week in which an operator can still trace which change became
 * which integration events. Not a setting: no other retention is one either (deleted spaces: 7 days too).
 */
export const OUTBOX_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
/** Rows deleted per statement, and statements per sweep (platform/batched-delete.ts). */
const PURGE_BATCH = 500;
const PURGE_BATCHES_PER_RUN = 20;

/**
 * Turns committed outbox rows into one integration event per listening installation, marking the rows
 * processed in the same transaction: a crash leaves either both or neither, so no change is lost and none is
 * sent twice. Returns how many events were written.
 */
export async function processOutbox(ctx: AppContext): Promise<number> {
  let written = 0;
  for (;;) {
    const { rows, events } = await ctx.db.transaction().execute(async (trx) => {
      await lockOutbox(trx);
      const batch = await unprocessedOutboxRows(trx, BATCH);
      let count = 0;
      for (const row of batch) {
        const plan = planIntegrationEvent(row.type, parsePayload(row.payload));
        if (plan && row.organization_id) count += await writeEvents(trx, row.organization_id, row.created_at, plan);
      }
      await markOutboxProcessed(
        trx,
        batch.map((r) => r.id),
        ctx.clock.now().toISOString(),
      );
      return { rows: batch.length, events: count };
    });
    written += events;
    if (rows < BATCH) return written;
  }
}

async function writeEvents(trx: Executor, organizationId: string, createdAt: string, plan: PlannedEvent): Promise<number> {
  const targets =
    plan.scope.kind === 'space'
      ? await installationsOnTarget(trx, organizationId, 'space', plan.scope.spaceId)
      : plan.scope.kind === 'site'
        ? await installationsOnTarget(trx, organizationId, 'site', plan.scope.siteId)
        : (await integrationExists(trx, plan.scope.integrationId))
          ? [{ id: plan.scope.installationId, integration_id: plan.scope.integrationId }]
          : [];
  for (const target of targets) {
    const id = newId();
    const payload = { eventId: id, type: plan.type, installationId: target.id, ...plan.body };
    await insertIntegrationEvent(trx, {
      id,
      integration_id: target.integration_id,
      installation_id: target.id,
      type: plan.type,
      payload: JSON.stringify(payload),
      status: 'pending',
      attempts: 0,
      next_attempt_at: createdAt,
      locked_until: null,
      delivered_at: null,
      created_at: createdAt,
      sequence: await nextSequence(trx, target.id),
    });
  }
  return targets.length;
}

/**
 * Deletes outbox rows processed more than the retention ago, in bounded batches (a sweep: idempotent, any
 * process may run it). Turning rows into integration events is the outbox's only consumer (search indexing
 * and link extraction keep their own marks), so `processed_at` says every consumer is done with a row; a new
 * consumer must be done before it is set, or this must wait for its mark too. Answers how many were deleted.
 */
export async function purgeProcessedOutbox(ctx: AppContext, batchSize = PURGE_BATCH): Promise<number> {
  const cutoff = new Date(ctx.clock.now().getTime() - OUTBOX_RETENTION_MS).toISOString();
  return deleteInBatches((limit) => deleteOutboxProcessedBefore(ctx.db, cutoff, limit), batchSize, PURGE_BATCHES_PER_RUN);
}

/** A payload that is not a JSON object (never written by recordEvent) plans no event rather than stop the outbox. */
function parsePayload(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
