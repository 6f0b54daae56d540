import type { Kysely } from 'kysely';
import { bytewise } from '../dialect.ts';

/**
 * Site redirects (the official createSiteRedirect and its four siblings): a path of a site's URL that sends the
 * reader to a section, a variant (site-space) or a page of that site. One redirect per source path per site.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const c = bytewise(db);
  await db.schema
    .createTable('site_redirects')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('site_id', 'text', (col) => c(col.notNull().references('sites.id').onDelete('cascade')))
    .addColumn('source', 'text', (col) => c(col.notNull()))
    // The destination as the API gives it (JSON: kind and ids), checked against the site when written.
    .addColumn('destination', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => c(col.notNull()))
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('site_redirects_by_source').on('site_redirects').columns(['site_id', 'source']).unique().execute();
  await db.schema.createIndex('site_redirects_by_created').on('site_redirects').columns(['site_id', 'created_at', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('site_redirects').ifExists().execute();
}
