import type { Kysely } from 'kysely';

/**
 * An organization's custom fonts (createCustomFont): a family and its faces, one per weight, each the bytes of a
 * WOFF or WOFF2 file in the blob store (by hash, as files are). A site's customization names a font by its id.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('custom_fonts')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('font_family', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('custom_fonts_organization').on('custom_fonts').columns(['organization_id', 'created_at']).execute();
  await db.schema
    .createTable('custom_font_faces')
    .addColumn('font_id', 'text', (col) => col.notNull().references('custom_fonts.id').onDelete('cascade'))
    .addColumn('weight', 'integer', (col) => col.notNull())
    .addColumn('blob_hash', 'text', (col) => col.notNull())
    .addColumn('format', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('custom_font_faces_pk', ['font_id', 'weight'])
    .execute();
  await db.schema.createIndex('custom_font_faces_blob').on('custom_font_faces').column('blob_hash').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('custom_font_faces').execute();
  await db.schema.dropTable('custom_fonts').execute();
}
