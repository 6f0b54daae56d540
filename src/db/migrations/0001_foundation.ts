import type { Kysely } from 'kysely';
import { bytewise } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const c = bytewise(db);

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('display_name', 'text', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.unique())
    .addColumn('photo_url', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('organizations')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('hostname', 'text', (col) => col.unique())
    .addColumn('email_domains', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('default_role', 'text')
    .addColumn('default_content', 'text')
    .addColumn('type', 'text', (col) => col.notNull().defaultTo('business'))
    .addColumn('use_case', 'text')
    .addColumn('invite_links', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('sso', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('ai', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('logo_url', 'text')
    .addColumn('merge_rules', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => c(col.notNull()))
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('members')
    .addColumn('organization_id', 'text', (col) => c(col.notNull().references('organizations.id').onDelete('cascade')))
    .addColumn('user_id', 'text', (col) => c(col.notNull().references('users.id').onDelete('cascade')))
    .addColumn('role', 'text')
    .addColumn('disabled', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('sso', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('joined_at', 'text', (col) => c(col.notNull()))
    .addColumn('last_seen_at', 'text', (col) => c(col))
    .addPrimaryKeyConstraint('members_pk', ['organization_id', 'user_id'])
    .execute();
  await db.schema.createIndex('members_by_user').on('members').columns(['user_id', 'organization_id']).execute();

  await db.schema
    .createTable('api_tokens')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('label', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('api_tokens_by_user').on('api_tokens').column('user_id').execute();

  await db.schema
    .createTable('collections')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('organization_id', 'text', (col) => c(col.notNull().references('organizations.id').onDelete('cascade')))
    .addColumn('parent_id', 'text', (col) => c(col))
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('description', 'text')
    .addColumn('default_level', 'text')
    .addColumn('position', 'text', (col) => c(col.notNull()))
    .addColumn('created_at', 'text', (col) => c(col.notNull()))
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('collections_by_parent').on('collections').columns(['organization_id', 'parent_id', 'position', 'id']).execute();
  await db.schema.createIndex('collections_by_created').on('collections').columns(['organization_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('spaces')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('organization_id', 'text', (col) => c(col.notNull().references('organizations.id').onDelete('cascade')))
    .addColumn('parent_id', 'text', (col) => c(col))
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('emoji', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('icon_url', 'text')
    .addColumn('visibility', 'text', (col) => col.notNull())
    .addColumn('edit_mode', 'text', (col) => col.notNull())
    .addColumn('default_level', 'text')
    .addColumn('language', 'text')
    .addColumn('merge_rules', 'text', (col) => col.notNull())
    .addColumn('revision_id', 'text', (col) => col.notNull())
    .addColumn('position', 'text', (col) => c(col.notNull()))
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (col) => c(col.notNull()))
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addColumn('deleted_at', 'text', (col) => c(col))
    .execute();
  await db.schema.createIndex('spaces_by_parent').on('spaces').columns(['organization_id', 'parent_id', 'position', 'id']).execute();
  await db.schema.createIndex('spaces_by_created').on('spaces').columns(['organization_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('spaces_by_deleted').on('spaces').column('deleted_at').execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('payload', 'text', (col) => col.notNull().defaultTo('{}'))
    .addColumn('run_at', 'text', (col) => c(col.notNull()))
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('locked_until', 'text', (col) => c(col))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('jobs_by_run_at').on('jobs').columns(['run_at', 'id']).execute();

  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('organization_id', 'text')
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => c(col.notNull()))
    .addColumn('processed_at', 'text')
    .execute();
  await db.schema.createIndex('events_unprocessed').on('events').columns(['processed_at', 'created_at']).execute();

  await db.schema
    .createTable('server_secrets')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('value', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['server_secrets', 'events', 'jobs', 'spaces', 'collections', 'api_tokens', 'members', 'organizations', 'users']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
