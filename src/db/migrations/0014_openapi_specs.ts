import type { Kysely } from 'kysely';
import { bytewise } from '../dialect.ts';

/**
 * OpenAPI specifications (issue 16). A spec belongs to an organization and is named by its slug there; its
 * document comes from a URL (fetched by the job worker, and again on a schedule) or from text given in the
 * request. Each processing that finds a document different from the last one appends a version: versions are
 * never changed, so a page that renders a spec's operation renders the same thing until a new version lands.
 *
 * `openapi_spec_versions.text` is the document as fetched (JSON or YAML); `reference` is what the reader
 * renders, computed once when the version is made (openapi-specs/reference.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const c = bytewise(db);
  await db.schema
    .createTable('openapi_specs')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('organization_id', 'text', (col) => c(col.notNull().references('organizations.id').onDelete('cascade')))
    .addColumn('slug', 'text', (col) => c(col.notNull()))
    .addColumn('source_url', 'text')
    .addColumn('source_text', 'text')
    .addColumn('visibility', 'text', (col) => col.notNull())
    .addColumn('processing_state', 'text', (col) => col.notNull())
    .addColumn('last_version_id', 'text')
    .addColumn('version_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('last_processed_at', 'text')
    .addColumn('last_error_code', 'text')
    .addColumn('last_errors', 'text')
    .addColumn('created_at', 'text', (col) => c(col.notNull()))
    .addColumn('updated_at', 'text', (col) => c(col.notNull()))
    .execute();
  await db.schema.createIndex('openapi_specs_by_slug').unique().on('openapi_specs').columns(['organization_id', 'slug']).execute();
  await db.schema.createIndex('openapi_specs_by_date').on('openapi_specs').columns(['organization_id', 'created_at', 'id']).execute();
  // The refresh sweep looks for URL specs processed longest ago.
  await db.schema.createIndex('openapi_specs_by_processing').on('openapi_specs').columns(['processing_state', 'last_processed_at']).execute();

  await db.schema
    .createTable('openapi_spec_versions')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('spec_id', 'text', (col) => c(col.notNull().references('openapi_specs.id').onDelete('cascade')))
    .addColumn('number', 'integer', (col) => col.notNull())
    .addColumn('source_url', 'text')
    .addColumn('hash', 'text', (col) => col.notNull())
    .addColumn('text', 'text', (col) => col.notNull())
    .addColumn('reference', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => c(col.notNull()))
    .execute();
  await db.schema.createIndex('openapi_spec_versions_by_number').unique().on('openapi_spec_versions').columns(['spec_id', 'number']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('openapi_spec_versions').execute();
  await db.schema.dropTable('openapi_specs').execute();
}
