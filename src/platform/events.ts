import type { Executor } from '../db/types.ts';
import { preparedInsert } from '../db/prepared-insert.ts';
import type { Clock } from './clock.ts';
import { newId } from './ids.ts';

/**
 * The event outbox: a row per domain event, written in the transaction of the change it describes, so that
 * integrations (which receive events later) never miss a committed change nor see a rolled-back one.
 */
const insertEvent = preparedInsert('events', ['id', 'type', 'organization_id', 'payload', 'created_at', 'processed_at']);

export async function recordEvent(db: Executor, clock: Clock, type: string, organizationId: string | null, payload: Record<string, unknown>) {
  await insertEvent(db, { id: newId(), type, organization_id: organizationId, payload: JSON.stringify(payload), created_at: clock.now().toISOString(), processed_at: null });
}
