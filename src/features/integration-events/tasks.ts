import type { Static } from 'typebox';
import type { AppContext, Caller } from '../../platform/context.ts';
import { newId } from '../../platform/ids.ts';
import { loadIntegration } from '../integrations/service.ts';
import { assertCanQueueTask } from './policy.ts';
import type { QueueIntegrationTaskBody } from './schemas.ts';
import { insertIntegrationEvent, TASK_EVENT } from './store.ts';

/**
 * Queues a task (the official queueIntegrationTask): an event `{ eventId, type: "task", installationId, task }`
 * (the official TaskEvent) for the installation whose token asks, delivered by the job worker like every event (delivery.ts)
 * once `schedule` seconds have passed, retried like them, and listed with them. Tasks stand outside their
 * installation's order (store.ts, TASK_EVENT): sequence 0, never waiting for an event nor held back by one.
 */
export async function queueIntegrationTask(ctx: AppContext, caller: Caller, name: string, body: Static<typeof QueueIntegrationTaskBody>): Promise<void> {
  const { integration } = await loadIntegration(ctx, caller, name);
  assertCanQueueTask(caller, integration.id, name);
  const due = new Date(ctx.clock.now().getTime() + Math.round((body.schedule ?? 0) * 1000));
  const id = newId();
  await insertIntegrationEvent(ctx.db, {
    id,
    integration_id: integration.id,
    installation_id: caller.installationId,
    type: TASK_EVENT,
    // `installationId` as in every event: an integration served at an endpoint has no environment to read it from.
    payload: JSON.stringify({ eventId: id, type: TASK_EVENT, installationId: caller.installationId, task: body.task }),
    status: 'pending',
    attempts: 0,
    next_attempt_at: due.toISOString(),
    locked_until: null,
    delivered_at: null,
    // Made when it is due: retries then have the day every event has (retry-policy.ts), counted from there.
    created_at: due.toISOString(),
    sequence: 0,
  });
}
