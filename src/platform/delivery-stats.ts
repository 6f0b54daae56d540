import type { Executor } from '../db/types.ts';

/**
 * Counters of integration event deliveries (features/integration-events) for GET /metrics, kept per database
 * handle like the read caches, so that the many apps a test run builds do not add to each other's.
 */
export interface DeliveryStats {
  delivered: number;
  failed: number;
  retried: number;
}

const byDb = new WeakMap<object, DeliveryStats>();

export function deliveryStatsOf(db: object): DeliveryStats {
  let stats = byDb.get(db);
  if (!stats) byDb.set(db, (stats = { delivered: 0, failed: 0, retried: 0 }));
  return stats;
}

/** Events waiting for delivery, due or not (the queue depth). */
export async function pendingDeliveries(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('integration_events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
