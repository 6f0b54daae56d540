import type { Kysely } from 'kysely';

/**
 * The organization's audit log (listOrganizationAuditEvents): one row per security-relevant action, written by
 * the server in the transaction of the action itself, never changed afterwards. Events older than the
 * organization's retention (`audit_settings`, set by an admin; 365 days without a row) are pruned by the job
 * worker. The retention is not part of the official Organization, so it has a table of its own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('actor_type', 'text', (col) => col.notNull())
    .addColumn('actor_id', 'text', (col) => col.notNull())
    .addColumn('actor_label', 'text')
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('target_type', 'text', (col) => col.notNull())
    .addColumn('target_id', 'text', (col) => col.notNull())
    .addColumn('target_label', 'text')
    .addColumn('ip_address', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('audit_events_organization').on('audit_events').columns(['organization_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('audit_events_action').on('audit_events').columns(['organization_id', 'action', 'created_at']).execute();
  await db.schema.createIndex('audit_events_actor').on('audit_events').columns(['organization_id', 'actor_id', 'created_at']).execute();
  await db.schema
    .createTable('audit_settings')
    .addColumn('organization_id', 'text', (col) => col.primaryKey().references('organizations.id').onDelete('cascade'))
    .addColumn('retention_days', 'integer', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_settings').execute();
  await db.schema.dropTable('audit_events').execute();
}
