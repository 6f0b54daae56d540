import type { Kysely } from 'kysely';
import { bytewise } from '../dialect.ts';

/**
 * Site permissions (inviteToSite and its kin): a role given on a site to a member or to a team of the site's
 * organization. Kept apart from content_grants, whose rows the access policy of spaces and collections reads
 * whole: a site's role decides what may be done with the site, not with the spaces it publishes. The grants go
 * with their site (cascade); a grant whose team is gone is left out by joining teams.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const c = bytewise(db);
  await db.schema
    .createTable('site_grants')
    .addColumn('site_id', 'text', (col) => c(col.notNull().references('sites.id').onDelete('cascade')))
    .addColumn('subject_type', 'text', (col) => col.notNull())
    .addColumn('subject_id', 'text', (col) => c(col.notNull()))
    .addColumn('role', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => c(col.notNull()))
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('site_grants_pk', ['site_id', 'subject_type', 'subject_id'])
    .execute();
  // Lists in the order grants were given, and the sites a member (or their team) was given.
  await db.schema.createIndex('site_grants_by_created').on('site_grants').columns(['site_id', 'subject_type', 'created_at', 'subject_id']).execute();
  await db.schema.createIndex('site_grants_by_subject').on('site_grants').columns(['subject_id', 'subject_type']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('site_grants').ifExists().execute();
}
