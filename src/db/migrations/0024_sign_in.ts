import { sql, type Kysely } from 'kysely';
import { bytewise } from '../dialect.ts';

/**
 * Signing in without an identity provider, and in the browser app (issue 26): passwords (scrypt hashes), the
 * one-time links of invitations, password resets and the first start (stored by the hash of their token),
 * OpenID Connect providers and the sign-ins started with them, GitBook's shareable organization invite links,
 * and an expiry for personal API tokens.
 *
 * A session now says how it was opened (`method`): SAML and OpenID Connect sessions belong to their
 * provider's organization, a password or link session to none, so `organization_id` becomes nullable and
 * `provider_id` no longer names a SAML provider only. SQLite cannot change a column's constraints in place:
 * the table is rebuilt on both dialects, the same way.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const c = bytewise(db);

  await db.schema
    .createTable('sessions_next')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('secret_hash', 'text', (col) => c(col.notNull()))
    .addColumn('user_id', 'text', (col) => c(col.notNull().references('users.id').onDelete('cascade')))
    // The organization whose identity provider signed the person in; null for a password or a one-time link.
    .addColumn('organization_id', 'text', (col) => c(col.references('organizations.id').onDelete('cascade')))
    // A SAML or OpenID Connect provider (`method` says which); a deleted provider leaves its id behind.
    .addColumn('provider_id', 'text', (col) => c(col))
    .addColumn('method', 'text', (col) => col.notNull())
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'text', (col) => c(col.notNull()))
    .addColumn('last_seen_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => c(col.notNull()))
    .addColumn('revoked_at', 'text')
    .execute();
  await sql`insert into sessions_next (id, secret_hash, user_id, organization_id, provider_id, method, user_agent, created_at, last_seen_at, expires_at, revoked_at)
    select id, secret_hash, user_id, organization_id, provider_id, 'saml', null, created_at, last_seen_at, expires_at, revoked_at from sessions`.execute(db);
  await db.schema.dropTable('sessions').execute();
  await db.schema.alterTable('sessions_next').renameTo('sessions').execute();
  await db.schema.createIndex('sessions_by_user').on('sessions').columns(['user_id', 'organization_id']).execute();
  await db.schema.createIndex('sessions_by_expiry').on('sessions').column('expires_at').execute();

  await db.schema
    .createTable('user_passwords')
    .addColumn('user_id', 'text', (col) => c(col.primaryKey().references('users.id').onDelete('cascade')))
    // `scrypt$N$r$p$salt$key` (base64url): the parameters travel with the hash, so they can be raised later.
    .addColumn('hash', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('sign_in_links')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    // SHA-256 of the token in the link: a copy of the table opens nothing.
    .addColumn('token_hash', 'text', (col) => c(col.notNull().unique()))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('user_id', 'text', (col) => c(col.notNull().references('users.id').onDelete('cascade')))
    .addColumn('organization_id', 'text', (col) => c(col.references('organizations.id').onDelete('cascade')))
    .addColumn('role', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => c(col.notNull()))
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('sign_in_links_by_user').on('sign_in_links').columns(['user_id', 'organization_id']).execute();
  await db.schema.createIndex('sign_in_links_by_expiry').on('sign_in_links').column('expires_at').execute();

  await db.schema
    .createTable('oidc_providers')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('organization_id', 'text', (col) => c(col.notNull().references('organizations.id').onDelete('cascade')))
    .addColumn('label', 'text', (col) => col.notNull())
    .addColumn('issuer', 'text', (col) => col.notNull())
    .addColumn('client_id', 'text', (col) => col.notNull())
    // Sealed with the secret box (platform/secret-box.ts): the server sends it back to the provider.
    .addColumn('client_secret', 'text', (col) => col.notNull())
    .addColumn('default_role', 'text')
    .addColumn('created_at', 'text', (col) => c(col.notNull()))
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('oidc_providers_by_organization').on('oidc_providers').columns(['organization_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('oidc_requests')
    // The `state` sent to the provider: the callback must answer a sign-in started here, once.
    .addColumn('state', 'text', (col) => c(col.primaryKey()))
    .addColumn('provider_id', 'text', (col) => c(col.notNull().references('oidc_providers.id').onDelete('cascade')))
    .addColumn('nonce', 'text', (col) => col.notNull())
    .addColumn('code_verifier', 'text', (col) => col.notNull())
    .addColumn('return_to', 'text')
    .addColumn('expires_at', 'text', (col) => c(col.notNull()))
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('oidc_requests_by_expiry').on('oidc_requests').column('expires_at').execute();

  await db.schema
    .createTable('organization_invites')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('organization_id', 'text', (col) => c(col.notNull().references('organizations.id').onDelete('cascade')))
    // A role, or null for guests.
    .addColumn('role', 'text')
    .addColumn('created_by', 'text', (col) => c(col.references('users.id').onDelete('set null')))
    .addColumn('created_at', 'text', (col) => c(col.notNull()))
    .execute();
  await db.schema.createIndex('organization_invites_by_organization').on('organization_invites').columns(['organization_id', 'created_at', 'id']).execute();

  await db.schema.alterTable('api_tokens').addColumn('expires_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_tokens').dropColumn('expires_at').execute();
  await db.schema.dropTable('organization_invites').execute();
  await db.schema.dropTable('oidc_requests').execute();
  await db.schema.dropTable('oidc_providers').execute();
  await db.schema.dropTable('sign_in_links').execute();
  await db.schema.dropTable('user_passwords').execute();
}
