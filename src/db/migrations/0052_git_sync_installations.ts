import type { Kysely } from 'kysely';

/**
 * Git Sync installations (installGitSyncProviderOnTarget): a GitHub or GitLab provider installed on a space or a
 * site, with the token Quire calls the provider's REST API with (sealed by the secret box, never returned) and
 * the repository, branch and settings chosen through it. `target_key` (`space:<id>` or `site:<id>`) makes one
 * installation per target. A space installation managed by a site's has `parent_installation_id`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('git_sync_installations')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('provider', 'text', (col) => col.notNull())
    .addColumn('target_key', 'text', (col) => col.notNull().unique())
    .addColumn('space_id', 'text')
    .addColumn('site_id', 'text')
    .addColumn('parent_installation_id', 'text')
    .addColumn('sealed_token', 'text')
    .addColumn('instance_url', 'text')
    .addColumn('repository_id', 'text')
    .addColumn('branch', 'text')
    .addColumn('settings', 'text', (col) => col.notNull().defaultTo('{}'))
    .addColumn('created_by', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('git_sync_installations_site').on('git_sync_installations').column('site_id').execute();
  await db.schema.createIndex('git_sync_installations_space').on('git_sync_installations').column('space_id').execute();
  await db.schema.createIndex('git_sync_installations_parent').on('git_sync_installations').column('parent_installation_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('git_sync_installations').execute();
}
