import type { Kysely } from 'kysely';

/**
 * Git Sync stays connected after an import or export (issue 43): the repository URL with its credentials, sealed,
 * and who connected it, so that syncing needs no further call; what was last synced on each side (the commit,
 * the tree of the space's folder in it, and the space's revision), so that a change on either side is seen and a
 * change on both is merged; a change request whose conflict pauses exporting; the webhook's sealed secret and
 * last delivery; a sync asked for (a push, "Sync now"); the last poll of the branch; and a lease so that one
 * process at a time syncs a space.
 */
const COLUMNS = [
  'sealed_url',
  'connected_by',
  'synced_tree',
  'synced_revision_id',
  'paused_change_request_id',
  'last_sync',
  'sync_error',
  'webhook_secret',
  'webhook_delivery',
  'sync_requested_at',
  'polled_at',
  'lease_until',
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of COLUMNS) await db.schema.alterTable('space_git_sync').addColumn(column, 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of [...COLUMNS].reverse()) await db.schema.alterTable('space_git_sync').dropColumn(column).execute();
}
