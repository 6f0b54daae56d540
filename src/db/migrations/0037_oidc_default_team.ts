import type { Kysely } from 'kysely';
import { bytewise } from '../dialect.ts';

/**
 * The team people join when they first sign in through an OpenID Connect provider, as SAML providers have
 * (null: none; deleting the team leaves the provider without one).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const c = bytewise(db);
  await db.schema
    .alterTable('oidc_providers')
    .addColumn('default_team_id', 'text', (col) => c(col.references('teams.id').onDelete('set null')))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oidc_providers').dropColumn('default_team_id').execute();
}
