import type { Kysely } from 'kysely';
import { bytewise } from '../dialect.ts';

/**
 * A person's inbox (issue 29): review requests, mentions and replies. A row is written in the transaction of the
 * request or comment that causes it, so none is lost nor sent for a write that rolled back; what it says and where
 * it leads are kept as written then (the change request may be renamed later, the notice stays as it was sent).
 * Listed newest first per person, and counted unread per person.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const c = bytewise(db);
  await db.schema
    .createTable('notifications')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('user_id', 'text', (col) => c(col.notNull().references('users.id').onDelete('cascade')))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('actor_id', 'text', (col) => c(col))
    .addColumn('organization_id', 'text', (col) => c(col.notNull()))
    .addColumn('space_id', 'text', (col) => c(col.notNull()))
    .addColumn('change_request_id', 'text', (col) => c(col))
    .addColumn('comment_id', 'text', (col) => c(col))
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('app_path', 'text', (col) => col.notNull())
    .addColumn('read_at', 'text', (col) => col)
    .addColumn('created_at', 'text', (col) => c(col.notNull()))
    .execute();
  await db.schema.createIndex('notifications_by_user').on('notifications').columns(['user_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('notifications_unread_by_user').on('notifications').columns(['user_id', 'read_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('notifications').ifExists().execute();
}
