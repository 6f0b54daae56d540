import type { Kysely } from 'kysely';

/**
 * A site's external links (addExternalLinkToSite): entries of its structure beside sections and groups, at its
 * top level or in a group, that lead elsewhere. And what the last DNS check of a site's custom hostname found
 * (getCustomHostname, dnsRevalidateCustomHostname).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('site_external_links')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('site_id', 'text', (col) => col.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('group_id', 'text', (col) => col.references('site_section_groups.id').onDelete('set null'))
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('localized_title', 'text')
    .addColumn('description', 'text')
    .addColumn('localized_description', 'text')
    .addColumn('icon', 'text')
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('condition', 'text')
    .addColumn('draft', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('position', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('site_external_links_site').on('site_external_links').column('site_id').execute();
  await db.schema.alterTable('sites').addColumn('hostname_status', 'text').execute();
  await db.schema.alterTable('sites').addColumn('hostname_checked_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sites').dropColumn('hostname_checked_at').execute();
  await db.schema.alterTable('sites').dropColumn('hostname_status').execute();
  await db.schema.dropTable('site_external_links').execute();
}
