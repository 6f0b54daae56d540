import type { Kysely } from 'kysely';

/**
 * The report of a space's last Git Sync import (JSON { operationId, endedAt, report }), kept across the exports after it: an
 * operation's own record holds only the latest operation, and an export follows every merge.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('space_git_sync').addColumn('last_import', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('space_git_sync').dropColumn('last_import').execute();
}
