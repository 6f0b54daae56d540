import type { Kysely } from 'kysely';

/**
 * The worker's sweeps over import runs look for rows by status alone, across organizations: the runs still
 * pending or in progress whose job is gone (features/imports/runs.ts), and the finished runs whose last update
 * is older than the retention. Without an index every run of either, even one that finds nothing, reads the
 * whole table, and the table holds every run of every organization of the last 90 days. `updated_at` second:
 * the retention sweep's range within each finished status (a finished run is never updated again, so it is
 * when the run finished).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('import_runs_by_status').on('import_runs').columns(['status', 'updated_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('import_runs_by_status').execute();
}
