import type { Kysely } from 'kysely';
import { bytewise } from '../dialect.ts';

/**
 * Versioned content. A branch is the main line of a space or a change request; each write adds one sequence
 * number to its branch. A page or file version is valid on its branch from `from_seq` until `to_seq` (open when
 * null), so a write touches only the rows it changes. A change request's branch overlays a revision of the
 * space's main branch (its base): its rows override the base's, and `deleted` rows hide them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const c = bytewise(db);

  await db.schema
    .createTable('branches')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('space_id', 'text', (col) => c(col.notNull().references('spaces.id').onDelete('cascade')))
    .addColumn('head_seq', 'integer', (col) => col.notNull())
    .addColumn('head_revision_id', 'text', (col) => col.notNull())
    .addColumn('base_branch_id', 'text')
    .addColumn('base_seq', 'integer')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('revisions')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('space_id', 'text', (col) => c(col.notNull().references('spaces.id').onDelete('cascade')))
    .addColumn('branch_id', 'text', (col) => c(col.notNull()))
    .addColumn('seq', 'integer', (col) => col.notNull())
    .addColumn('base_branch_id', 'text')
    .addColumn('base_seq', 'integer')
    .addColumn('parents', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('variables', 'text', (col) => col.notNull().defaultTo('{}'))
    .addColumn('merged_from', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('revisions_by_branch').on('revisions').columns(['branch_id', 'seq']).unique().execute();
  await db.schema.createIndex('revisions_by_space').on('revisions').column('space_id').execute();

  await db.schema
    .createTable('page_versions')
    .addColumn('branch_id', 'text', (col) => c(col.notNull()))
    .addColumn('page_id', 'text', (col) => c(col.notNull()))
    .addColumn('from_seq', 'integer', (col) => col.notNull())
    .addColumn('to_seq', 'integer')
    .addColumn('deleted', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('parent_id', 'text', (col) => c(col))
    .addColumn('position', 'text', (col) => c(col.notNull()))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('slug', 'text', (col) => c(col.notNull()))
    .addColumn('document_id', 'text')
    .addColumn('attributes', 'text', (col) => col.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('page_versions_pk', ['branch_id', 'page_id', 'from_seq'])
    .execute();
  // Open versions by page (to_seq IS NULL and page_id): one lookup for a page at the head, and the range of
  // versions closed after a sequence number (changes since a base).
  await db.schema.createIndex('page_versions_head').on('page_versions').columns(['branch_id', 'to_seq', 'page_id']).execute();
  await db.schema.createIndex('page_versions_children').on('page_versions').columns(['branch_id', 'parent_id', 'to_seq']).execute();
  await db.schema.createIndex('page_versions_since').on('page_versions').columns(['branch_id', 'from_seq']).execute();

  await db.schema
    .createTable('file_versions')
    .addColumn('branch_id', 'text', (col) => c(col.notNull()))
    .addColumn('file_id', 'text', (col) => c(col.notNull()))
    .addColumn('from_seq', 'integer', (col) => col.notNull())
    .addColumn('to_seq', 'integer')
    .addColumn('deleted', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('content_type', 'text', (col) => col.notNull())
    .addColumn('size', 'integer', (col) => col.notNull())
    .addColumn('blob_hash', 'text', (col) => col.notNull())
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('file_versions_pk', ['branch_id', 'file_id', 'from_seq'])
    .execute();
  await db.schema.createIndex('file_versions_head').on('file_versions').columns(['branch_id', 'to_seq', 'file_id']).execute();
  await db.schema.createIndex('file_versions_since').on('file_versions').columns(['branch_id', 'from_seq']).execute();

  // Page documents are stored once per distinct content, addressed by the hash of their canonical JSON.
  await db.schema
    .createTable('documents')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('change_requests')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('space_id', 'text', (col) => c(col.notNull().references('spaces.id').onDelete('cascade')))
    .addColumn('number', 'integer', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('subject', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('agent_task_id', 'text')
    .addColumn('created_by', 'text')
    .addColumn('revision_initial', 'text', (col) => col.notNull())
    .addColumn('revision_merged_ancestor', 'text')
    .addColumn('revision_merged', 'text')
    .addColumn('created_at', 'text', (col) => c(col.notNull()))
    .addColumn('updated_at', 'text', (col) => c(col.notNull()))
    .addColumn('merged_at', 'text')
    .execute();
  await db.schema.createIndex('change_requests_number').on('change_requests').columns(['space_id', 'number']).unique().execute();
  await db.schema.createIndex('change_requests_by_status').on('change_requests').columns(['space_id', 'status', 'number']).execute();

  // Change request numbers come from a per-space counter, bumped under the space row's lock: no gaps, no duplicates.
  await db.schema.alterTable('spaces').addColumn('change_request_counter', 'integer', (col) => col.notNull().defaultTo(0)).execute();

  // File bytes live in the blob store (a folder by default); this table records what it holds.
  await db.schema
    .createTable('blobs')
    .addColumn('hash', 'text', (col) => c(col.primaryKey()))
    .addColumn('size', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['change_requests', 'blobs', 'documents', 'file_versions', 'page_versions', 'revisions', 'branches']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
