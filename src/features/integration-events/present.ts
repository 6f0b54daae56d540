import type { Static } from 'typebox';
import type { IntegrationEvent, IntegrationEventDetail } from './schemas.ts';
import type { DeliveryState } from './delivery.ts';
import type { IntegrationEventRow } from './store.ts';

type Level = Static<typeof IntegrationEventDetail>['trace']['logs'][number]['level'];

/** The official enumeration has `success` and `failed` only: anything not (yet) acknowledged by a 2xx is `failed`. */
export function presentEvent(row: IntegrationEventRow): Static<typeof IntegrationEvent> {
  const state = row.status as DeliveryState;
  return {
    id: row.id,
    integrationId: row.integration_id,
    ...(row.installation_id ? { installationId: row.installation_id } : {}),
    createdAt: row.created_at,
    payload: JSON.parse(row.payload) as Record<string, unknown>,
    status: state === 'success' ? 'success' : 'failed',
    delivery: {
      state,
      attempts: row.attempts,
      ...(row.next_attempt_at && state === 'pending' ? { nextAttemptAt: row.next_attempt_at } : {}),
      ...(row.delivered_at ? { deliveredAt: row.delivered_at } : {}),
    },
  };
}

export function presentEventDetail(row: IntegrationEventRow, logs: { timestamp: string; level: string; message: string }[]): Static<typeof IntegrationEventDetail> {
  return {
    event: presentEvent(row),
    trace: { logs: logs.map((log) => ({ message: log.message, timestamp: log.timestamp, level: log.level as Level })) },
  };
}
