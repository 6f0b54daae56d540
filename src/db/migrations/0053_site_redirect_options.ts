import type { Kysely } from 'kysely';

/**
 * What a site redirect says besides its source and destination (0.202.0's SiteRedirect): whether it is a draft
 * (kept, not applied by the reader until published), whether a source ending in a wildcard hands the rest of the
 * path on to the destination, and whether it is permanent (308, not 302). A draft and a live redirect may share
 * a source (publishing the draft replaces the live one), so the source is unique per site and per draft flag.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('site_redirects').addColumn('draft', 'integer', (col) => col.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('site_redirects').addColumn('capture_wildcard', 'integer', (col) => col.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('site_redirects').addColumn('permanent', 'integer', (col) => col.notNull().defaultTo(0)).execute();
  await db.schema.dropIndex('site_redirects_by_source').execute();
  await db.schema.createIndex('site_redirects_by_source').on('site_redirects').columns(['site_id', 'draft', 'source']).unique().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('site_redirects_by_source').execute();
  await db.deleteFrom('site_redirects' as never).where('draft' as never, '=', 1 as never).execute();
  await db.schema.createIndex('site_redirects_by_source').on('site_redirects').columns(['site_id', 'source']).unique().execute();
  await db.schema.alterTable('site_redirects').dropColumn('permanent').execute();
  await db.schema.alterTable('site_redirects').dropColumn('capture_wildcard').execute();
  await db.schema.alterTable('site_redirects').dropColumn('draft').execute();
}
