import type { Kysely } from 'kysely';

/**
 * Which process runs a job (`host:pid`), beside its lease: an operator sees where a job is running, and a job
 * whose process died shows whose it was until another process takes it over.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('locked_by', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').dropColumn('locked_by').execute();
}
