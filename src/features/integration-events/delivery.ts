import type { AppContext } from '../../platform/context.ts';
import { deliveryStatsOf } from '../../platform/delivery-stats.ts';
import { nextStep, type AttemptOutcome } from './retry-policy.ts';
import { findDeliveryIntegration, findInstallation } from '../integrations/queries.ts';
import { claimDueEvents, appendEventLogs, updateIntegrationEvent, type IntegrationEventRow } from './store.ts';
import { sendToIntegration, targetOf, TransportError } from './transport.ts';

/** Events sent at once (each the head of its installation's queue, so order holds). */
const CONCURRENCY = 8;
/** Most deliveries per worker run, so the other sweeps get their turn. */
const PER_RUN = 400;
/** A claimed event is someone else's after this (a process that died mid-delivery); above the fetch limit. */
const LOCK_MS = 2 * 60_000;
const EVENT_TIMEOUT_MS = 10_000;
/** Receivers' answers to events are not read: only their status counts. */
const EVENT_MAX_BYTES = 64 * 1024;

/** Internal states: `pending` (waiting or retrying), `success`, `failed`, `skipped` (the integration has no target). */
export type DeliveryState = 'pending' | 'success' | 'failed' | 'skipped';

/**
 * Delivers every due event: claims the oldest undelivered event of each installation, POSTs it signed, and
 * records the attempt in its trace. A crash after a 2xx but before it is recorded sends the event again when
 * the claim lapses: receivers drop duplicates by `X-Quire-Delivery` (docs/integration-events.md).
 */
export async function deliverDueEvents(ctx: AppContext): Promise<number> {
  let delivered = 0;
  while (delivered < PER_RUN) {
    const now = ctx.clock.now();
    const claimed = await claimDueEvents(ctx.db, now.toISOString(), new Date(now.getTime() + LOCK_MS).toISOString(), CONCURRENCY);
    if (claimed.length === 0) break;
    await Promise.all(claimed.map((row) => deliverOne(ctx, row).catch((error: unknown) => recordCrash(ctx, row, error))));
    delivered += claimed.length;
  }
  return delivered;
}

async function deliverOne(ctx: AppContext, row: IntegrationEventRow): Promise<void> {
  const logs: { timestamp: string; level: string; message: string }[] = [];
  const log = (level: 'debug' | 'info' | 'warn' | 'error', message: string) => logs.push({ timestamp: ctx.clock.now().toISOString(), level, message });
  const attempts = row.attempts + 1;
  const stats = deliveryStatsOf(ctx.db);
  const integration = await findDeliveryIntegration(ctx.db, row.integration_id);
  if (!integration) return; // unpublished meanwhile: its events went with it
  // An uninstalled installation's last event (installation_deleted) is still delivered.
  const installation = row.installation_id ? await findInstallation(ctx.db, row.integration_id, row.installation_id) : undefined;
  const target = targetOf(integration, installation?.organization_id ?? null);
  const finish = async (changes: Partial<IntegrationEventRow>) => {
    await ctx.db.transaction().execute(async (trx) => {
      await updateIntegrationEvent(trx, row.id, { attempts, locked_until: null, ...changes });
      await appendEventLogs(trx, row.id, logs);
    });
  };
  if (target.kind === 'none') {
    log('warn', `Not delivered: integration ${integration.name} has no development tunnel, script or endpoint`);
    await finish({ status: 'skipped' satisfies DeliveryState, next_attempt_at: null });
    return;
  }
  const where = target.kind === 'script' ? 'the integration script' : `${target.kind} ${target.url}`;
  const started = Date.now();
  let outcome: AttemptOutcome;
  let retryable = true;
  try {
    const answer = await sendToIntegration(ctx, integration, installation, target, {
      eventType: row.type,
      deliveryId: row.id,
      body: row.payload,
      timeoutMs: EVENT_TIMEOUT_MS,
      maxBytes: EVENT_MAX_BYTES,
      statusOnly: target.kind !== 'script',
      about: payloadAbout(row.payload),
      log,
    });
    outcome = { kind: 'response', status: answer.status };
    log(answer.status < 300 ? 'info' : 'warn', `Attempt ${attempts} to ${where}: HTTP ${answer.status} in ${Date.now() - started} ms`);
  } catch (error) {
    if (!(error instanceof TransportError)) throw error;
    outcome = { kind: 'error' };
    retryable = error.retryable;
    log('warn', `Attempt ${attempts} to ${where} failed: ${error.message}`);
  }
  const now = ctx.clock.now();
  const step = retryable ? nextStep(outcome, attempts, new Date(row.created_at), now) : ({ kind: 'failed', reason: 'the address is refused; not retried' } as const);
  if (step.kind === 'delivered') {
    stats.delivered += 1;
    await finish({ status: 'success' satisfies DeliveryState, delivered_at: now.toISOString(), next_attempt_at: null });
  } else if (step.kind === 'failed') {
    stats.failed += 1;
    log('error', `Failed: ${step.reason}`);
    await finish({ status: 'failed' satisfies DeliveryState, next_attempt_at: null });
  } else {
    stats.retried += 1;
    log('info', `Retry scheduled at ${step.at.toISOString()}`);
    await finish({ next_attempt_at: step.at.toISOString() });
  }
}

/**
 * An attempt that failed on our side (the signing secret does not open, the database hiccuped): logged and
 * retried like a network error, so one broken event neither stops the worker nor waits for its lock to lapse.
 */
async function recordCrash(ctx: AppContext, row: IntegrationEventRow, error: unknown): Promise<void> {
  const now = ctx.clock.now();
  const attempts = row.attempts + 1;
  const step = nextStep({ kind: 'error' }, attempts, new Date(row.created_at), now);
  const message = `Attempt ${attempts} could not be made: ${error instanceof Error ? error.message : String(error)}`;
  await ctx.db.transaction().execute(async (trx) => {
    await updateIntegrationEvent(trx, row.id, {
      attempts,
      locked_until: null,
      ...(step.kind === 'retry' ? { next_attempt_at: step.at.toISOString() } : { status: 'failed' satisfies DeliveryState, next_attempt_at: null }),
    });
    await appendEventLogs(trx, row.id, [{ timestamp: now.toISOString(), level: 'error', message }]);
  });
}

/** The space or site an event's payload names (`spaceId`, `siteId`), if any. */
function payloadAbout(payload: string): { spaceId?: unknown; siteId?: unknown } {
  try {
    const parsed = JSON.parse(payload) as unknown;
    return parsed && typeof parsed === 'object' ? { spaceId: (parsed as { spaceId?: unknown }).spaceId, siteId: (parsed as { siteId?: unknown }).siteId } : {};
  } catch {
    return {};
  }
}
