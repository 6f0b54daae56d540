import type { Kysely } from 'kysely';
import { bytewise } from '../dialect.ts';

/**
 * What a site redirect says besides its source and destination (0.202.0's SiteRedirect): whether it is a draft
 * (kept, not applied by the reader until published), whether a source ending in a wildcard hands the rest of the
 * path on to the destination, and whether it is permanent (308, not 302). A draft and a live redirect may share
 * a source (publishing the draft replaces the live one), so the source is unique per site and per draft flag.
 * And the uploads generateStorageUploadURL signs (features/files/storage-uploads.ts): a key given before the
 * bytes exist, the URL's secret (hashed), what was declared, and the stored bytes once they came.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('site_redirects').addColumn('draft', 'integer', (col) => col.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('site_redirects').addColumn('capture_wildcard', 'integer', (col) => col.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('site_redirects').addColumn('permanent', 'integer', (col) => col.notNull().defaultTo(0)).execute();
  await db.schema.dropIndex('site_redirects_by_source').execute();
  await db.schema.createIndex('site_redirects_by_source').on('site_redirects').columns(['site_id', 'draft', 'source']).unique().execute();

  const c = bytewise(db);
  await db.schema
    .createTable('storage_uploads')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('content_type', 'text', (col) => col.notNull())
    .addColumn('size', 'integer', (col) => col.notNull())
    .addColumn('secret_hash', 'text', (col) => col.notNull())
    .addColumn('created_by', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    // Set once the bytes are stored: the blob the key names from then on.
    .addColumn('blob_hash', 'text')
    .addColumn('uploaded_at', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('storage_uploads').ifExists().execute();
  await db.schema.dropIndex('site_redirects_by_source').execute();
  await db.deleteFrom('site_redirects' as never).where('draft' as never, '=', 1 as never).execute();
  await db.schema.createIndex('site_redirects_by_source').on('site_redirects').columns(['site_id', 'source']).unique().execute();
  await db.schema.alterTable('site_redirects').dropColumn('permanent').execute();
  await db.schema.alterTable('site_redirects').dropColumn('capture_wildcard').execute();
  await db.schema.alterTable('site_redirects').dropColumn('draft').execute();
}
