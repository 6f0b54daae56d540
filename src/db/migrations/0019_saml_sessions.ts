import type { Kysely } from 'kysely';
import { bytewise } from '../dialect.ts';

/**
 * SAML single sign-on and browser sessions (issue 18): an organization's identity providers, the
 * AuthnRequests we sent (so a response answers a request of ours, once), the assertion ids already accepted
 * (no replay until they expire), and the sessions a sign-in opens (stored by the hash of their secret,
 * revocable).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const c = bytewise(db);

  await db.schema
    .createTable('saml_providers')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('organization_id', 'text', (col) => c(col.notNull().references('organizations.id').onDelete('cascade')))
    .addColumn('label', 'text', (col) => col.notNull())
    // Empty until the administrator copies them from the identity provider: the provider is `pending` then.
    .addColumn('entity_id', 'text', (col) => col.notNull())
    .addColumn('sso_url', 'text', (col) => col.notNull())
    .addColumn('certificate', 'text', (col) => col.notNull())
    .addColumn('default_team_id', 'text', (col) => c(col.references('teams.id').onDelete('set null')))
    // A role, or null for guests.
    .addColumn('default_role', 'text')
    .addColumn('created_at', 'text', (col) => c(col.notNull()))
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('saml_providers_by_organization').on('saml_providers').columns(['organization_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('saml_requests')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('provider_id', 'text', (col) => c(col.notNull().references('saml_providers.id').onDelete('cascade')))
    // The instant node-saml records with the request (its own expiry check reads it back).
    .addColumn('issued_at', 'text', (col) => col.notNull())
    .addColumn('relay_state', 'text')
    .addColumn('expires_at', 'text', (col) => c(col.notNull()))
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('saml_requests_by_expiry').on('saml_requests').column('expires_at').execute();

  await db.schema
    .createTable('saml_assertions')
    .addColumn('provider_id', 'text', (col) => c(col.notNull().references('saml_providers.id').onDelete('cascade')))
    .addColumn('assertion_id', 'text', (col) => c(col.notNull()))
    .addColumn('expires_at', 'text', (col) => c(col.notNull()))
    .addPrimaryKeyConstraint('saml_assertions_pk', ['provider_id', 'assertion_id'])
    .execute();
  await db.schema.createIndex('saml_assertions_by_expiry').on('saml_assertions').column('expires_at').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    // SHA-256 of the secret half of the cookie: a copy of the table opens no session.
    .addColumn('secret_hash', 'text', (col) => c(col.notNull()))
    .addColumn('user_id', 'text', (col) => c(col.notNull().references('users.id').onDelete('cascade')))
    // The organization whose identity provider signed the person in.
    .addColumn('organization_id', 'text', (col) => c(col.notNull().references('organizations.id').onDelete('cascade')))
    .addColumn('provider_id', 'text', (col) => c(col.references('saml_providers.id').onDelete('set null')))
    .addColumn('created_at', 'text', (col) => c(col.notNull()))
    .addColumn('last_seen_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => c(col.notNull()))
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('sessions_by_user').on('sessions').columns(['user_id', 'organization_id']).execute();
  await db.schema.createIndex('sessions_by_expiry').on('sessions').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sessions').execute();
  await db.schema.dropTable('saml_assertions').execute();
  await db.schema.dropTable('saml_requests').execute();
  await db.schema.dropTable('saml_providers').execute();
}
