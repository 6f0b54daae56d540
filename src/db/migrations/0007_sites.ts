import type { Kysely } from 'kysely';
import { bytewise } from '../dialect.ts';

/**
 * Sites: what publishes spaces to readers. A site holds either site-spaces at its root, or sections (each with
 * its own site-spaces, its variants) optionally inside section groups. Everything of a site goes with it
 * (cascade). A site-space goes with its space when the space is purged (cascade); while the space is in the
 * trash, queries leave its site-spaces out by joining spaces (deleted_at is null), so the API shows the
 * removal right after DELETE and a restore brings it back.
 *
 * The reader answers "what does this visitor see at this URL" with indexed reads: the site by basename (or
 * id), its sections by (site, path), the site-space by (section, path).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const c = bytewise(db);

  await db.schema
    .createTable('sites')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('organization_id', 'text', (col) => c(col.notNull().references('organizations.id').onDelete('cascade')))
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('title', 'text', (col) => c(col.notNull()))
    .addColumn('visibility', 'text', (col) => col.notNull())
    .addColumn('basename', 'text', (col) => c(col.unique()))
    .addColumn('proxy_origin', 'text')
    .addColumn('published', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('adaptive_content', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('agents_context', 'text', (col) => col.notNull())
    .addColumn('customization', 'text') // JSON; null until first written (the default then applies)
    .addColumn('adaptive_schema', 'text') // JSON Schema; null until first written
    .addColumn('adaptive_schema_updated_at', 'text')
    .addColumn('visitor_auth_secret', 'text', (col) => col.notNull())
    .addColumn('visitor_auth_jwks_url', 'text')
    .addColumn('visitor_auth_fallback_url', 'text')
    .addColumn('created_at', 'text', (col) => c(col.notNull()))
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('sites_by_created').on('sites').columns(['organization_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('site_section_groups')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('site_id', 'text', (col) => c(col.notNull().references('sites.id').onDelete('cascade')))
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('icon', 'text')
    .addColumn('position', 'text', (col) => c(col.notNull()))
    .addColumn('created_at', 'text', (col) => c(col.notNull()))
    .execute();
  await db.schema.createIndex('site_section_groups_by_site').on('site_section_groups').columns(['site_id', 'position', 'id']).execute();

  await db.schema
    .createTable('site_sections')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('site_id', 'text', (col) => c(col.notNull().references('sites.id').onDelete('cascade')))
    .addColumn('group_id', 'text', (col) => c(col.references('site_section_groups.id').onDelete('set null')))
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('description', 'text')
    .addColumn('icon', 'text')
    .addColumn('path', 'text', (col) => c(col.notNull()))
    .addColumn('condition', 'text')
    .addColumn('is_default', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('position', 'text', (col) => c(col.notNull()))
    .addColumn('created_at', 'text', (col) => c(col.notNull()))
    .execute();
  // Section paths share one URL namespace per site, groups or not.
  await db.schema.createIndex('site_sections_by_path').on('site_sections').columns(['site_id', 'path']).unique().execute();
  await db.schema.createIndex('site_sections_by_position').on('site_sections').columns(['site_id', 'position', 'id']).execute();

  await db.schema
    .createTable('site_spaces')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('site_id', 'text', (col) => c(col.notNull().references('sites.id').onDelete('cascade')))
    .addColumn('section_id', 'text', (col) => c(col.references('site_sections.id').onDelete('cascade')))
    .addColumn('space_id', 'text', (col) => c(col.notNull().references('spaces.id').onDelete('cascade')))
    .addColumn('path', 'text', (col) => c(col.notNull()))
    .addColumn('condition', 'text')
    .addColumn('is_default', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('position', 'text', (col) => c(col.notNull()))
    .addColumn('created_at', 'text', (col) => c(col.notNull()))
    .execute();
  await db.schema.createIndex('site_spaces_by_site').on('site_spaces').columns(['site_id', 'section_id', 'position', 'id']).execute();
  await db.schema.createIndex('site_spaces_by_created').on('site_spaces').columns(['site_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('site_spaces_by_space').on('site_spaces').columns(['space_id', 'site_id']).execute();

  await db.schema
    .createTable('site_share_links')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('site_id', 'text', (col) => c(col.notNull().references('sites.id').onDelete('cascade')))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('share_key', 'text', (col) => c(col.notNull().unique()))
    .addColumn('active', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (col) => c(col.notNull()))
    .execute();
  await db.schema.createIndex('site_share_links_by_site').on('site_share_links').columns(['site_id', 'created_at', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['site_share_links', 'site_spaces', 'site_sections', 'site_section_groups', 'sites']) await db.schema.dropTable(table).ifExists().execute();
}
