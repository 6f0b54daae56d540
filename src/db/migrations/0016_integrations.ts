import type { Kysely } from 'kysely';
import { bytewise } from '../dialect.ts';

/**
 * Integrations (issue 17): the published manifest of an integration, its installations on organizations and
 * on spaces and sites within them, the tokens that act as an installation, and the events delivered to it with
 * the log of each delivery. Manifest lists (scopes, blocks, configurations…) are JSON text: they are read and
 * written whole with the integration. Secrets are stored encrypted, never returned.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const c = bytewise(db);

  await db.schema
    .createTable('integrations')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('name', 'text', (col) => c(col.notNull().unique()))
    .addColumn('organization_id', 'text', (col) => c(col.notNull().references('organizations.id').onDelete('cascade')))
    .addColumn('version', 'integer', (col) => col.notNull())
    .addColumn('runtime', 'text', (col) => col.notNull())
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('summary', 'text', (col) => col.notNull())
    .addColumn('icon_hash', 'text')
    .addColumn('preview_images', 'text', (col) => col.notNull())
    .addColumn('visibility', 'text', (col) => col.notNull())
    .addColumn('target', 'text', (col) => col.notNull())
    .addColumn('scopes', 'text', (col) => col.notNull())
    .addColumn('categories', 'text', (col) => col.notNull())
    .addColumn('blocks', 'text', (col) => col.notNull())
    .addColumn('content_sources', 'text', (col) => col.notNull())
    .addColumn('external_links', 'text', (col) => col.notNull())
    .addColumn('configurations', 'text', (col) => col.notNull())
    .addColumn('script', 'text')
    .addColumn('secrets', 'text')
    .addColumn('content_security_policy', 'text')
    // Where events and render requests go when the integration has no script (a Quire extension of publish).
    .addColumn('endpoint', 'text')
    // Development mode: events and render requests go to the tunnel (from every organization when dev_all).
    .addColumn('dev_tunnel_url', 'text')
    .addColumn('dev_all', 'integer', (col) => col.notNull().defaultTo(0))
    // The key deliveries are signed with (HMAC), encrypted like the secrets.
    .addColumn('signing_secret', 'text', (col) => col.notNull())
    .addColumn('published_by', 'text', (col) => c(col.notNull()))
    .addColumn('created_at', 'text', (col) => c(col.notNull()))
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('integrations_by_owner').on('integrations').columns(['organization_id', 'name']).execute();

  await db.schema
    .createTable('integration_installations')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('integration_id', 'text', (col) => c(col.notNull().references('integrations.id').onDelete('cascade')))
    .addColumn('organization_id', 'text', (col) => c(col.notNull().references('organizations.id').onDelete('cascade')))
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('space_selection', 'text', (col) => col.notNull())
    .addColumn('site_selection', 'text', (col) => col.notNull())
    .addColumn('configuration', 'text', (col) => col.notNull())
    .addColumn('external_ids', 'text', (col) => col.notNull())
    .addColumn('created_by', 'text', (col) => c(col.notNull()))
    .addColumn('created_at', 'text', (col) => c(col.notNull()))
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('integration_installations_one_per_org', ['integration_id', 'organization_id'])
    .execute();
  await db.schema.createIndex('integration_installations_by_org').on('integration_installations').columns(['organization_id', 'integration_id']).execute();

  for (const [table, column] of [
    ['integration_space_installations', 'space_id'],
    ['integration_site_installations', 'site_id'],
  ] as const) {
    await db.schema
      .createTable(table)
      .addColumn('installation_id', 'text', (col) => c(col.notNull().references('integration_installations.id').onDelete('cascade')))
      .addColumn(column, 'text', (col) => c(col.notNull()))
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('configuration', 'text', (col) => col.notNull())
      .addColumn('external_ids', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => c(col.notNull()))
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, ['installation_id', column])
      .execute();
    await db.schema.createIndex(`${table}_by_target`).on(table).columns([column, 'installation_id']).execute();
  }

  // Tokens that act as an installation (createIntegrationInstallationToken); stored as their SHA-256 only.
  await db.schema
    .createTable('installation_tokens')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('installation_id', 'text', (col) => c(col.notNull().references('integration_installations.id').onDelete('cascade')))
    .addColumn('token_hash', 'text', (col) => c(col.notNull().unique()))
    .addColumn('created_at', 'text', (col) => c(col.notNull()))
    .addColumn('expires_at', 'text', (col) => c(col.notNull()))
    .addColumn('revoked_at', 'text')
    .execute();

  // One row per event for one installation (or for the integration itself, installation_id null), delivered in
  // order per installation with retries; the log of every attempt is its `trace`.
  await db.schema
    .createTable('integration_events')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('integration_id', 'text', (col) => c(col.notNull().references('integrations.id').onDelete('cascade')))
    .addColumn('installation_id', 'text', (col) => c(col))
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (col) => c(col))
    .addColumn('locked_until', 'text')
    .addColumn('delivered_at', 'text')
    .addColumn('created_at', 'text', (col) => c(col.notNull()))
    .execute();
  await db.schema.createIndex('integration_events_by_created').on('integration_events').columns(['integration_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('integration_events_due').on('integration_events').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('integration_events_by_installation').on('integration_events').columns(['installation_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('integration_event_logs')
    .addColumn('event_id', 'text', (col) => c(col.notNull().references('integration_events.id').onDelete('cascade')))
    .addColumn('seq', 'integer', (col) => col.notNull())
    .addColumn('timestamp', 'text', (col) => col.notNull())
    .addColumn('level', 'text', (col) => col.notNull())
    .addColumn('message', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('integration_event_logs_pk', ['event_id', 'seq'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'integration_event_logs',
    'integration_events',
    'installation_tokens',
    'integration_site_installations',
    'integration_space_installations',
    'integration_installations',
    'integrations',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
