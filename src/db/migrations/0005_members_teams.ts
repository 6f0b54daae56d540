import type { Kysely } from 'kysely';
import { bytewise } from '../dialect.ts';

/**
 * Teams, their members, and content grants: a role given to a user or a team on a space or a collection.
 * A grant records the organization it was given in, so that a space or collection transferred to another
 * organization does not carry the old organization's grants along (they stay dormant). Grant targets are
 * either table, so there is no foreign key: services remove grants with what they name.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const c = bytewise(db);

  await db.schema
    .createTable('teams')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('organization_id', 'text', (col) => c(col.notNull().references('organizations.id').onDelete('cascade')))
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => c(col.notNull()))
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('teams_by_created').on('teams').columns(['organization_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('team_members')
    .addColumn('team_id', 'text', (col) => c(col.notNull().references('teams.id').onDelete('cascade')))
    .addColumn('user_id', 'text', (col) => c(col.notNull().references('users.id').onDelete('cascade')))
    .addColumn('role', 'text', (col) => col.notNull())
    .addColumn('added_at', 'text', (col) => c(col.notNull()))
    .addPrimaryKeyConstraint('team_members_pk', ['team_id', 'user_id'])
    .execute();
  await db.schema.createIndex('team_members_by_user').on('team_members').columns(['user_id', 'team_id']).execute();
  await db.schema.createIndex('team_members_by_added').on('team_members').columns(['team_id', 'added_at', 'user_id']).execute();

  await db.schema
    .createTable('content_grants')
    .addColumn('organization_id', 'text', (col) => c(col.notNull().references('organizations.id').onDelete('cascade')))
    .addColumn('target_type', 'text', (col) => col.notNull())
    .addColumn('target_id', 'text', (col) => c(col.notNull()))
    .addColumn('subject_type', 'text', (col) => col.notNull())
    .addColumn('subject_id', 'text', (col) => c(col.notNull()))
    .addColumn('role', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('content_grants_pk', ['target_id', 'subject_type', 'subject_id'])
    .execute();
  await db.schema.createIndex('content_grants_by_subject').on('content_grants').columns(['subject_id', 'organization_id']).execute();

  // Member lists are sorted by when members joined or were last seen.
  await db.schema.createIndex('members_by_joined').on('members').columns(['organization_id', 'joined_at', 'user_id']).execute();
  await db.schema.createIndex('members_by_last_seen').on('members').columns(['organization_id', 'last_seen_at', 'user_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('members_by_last_seen').ifExists().execute();
  await db.schema.dropIndex('members_by_joined').ifExists().execute();
  for (const table of ['content_grants', 'team_members', 'teams']) await db.schema.dropTable(table).ifExists().execute();
}
