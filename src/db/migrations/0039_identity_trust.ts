import { sql, type Kysely } from 'kysely';
import { bytewise } from '../dialect.ts';

/**
 * What an identity provider and an e-mail address are trusted with (security review of round 4):
 * - `users.email_verified_at`: the address was proven by its owner (a one-time link mailed to it, or an
 *   identity provider of an organization that verified the address's domain). Until then an e-mail
 *   invitation does not make the account a member: `pending_invitations` waits for the proof.
 * - `user_identities`: which provider may sign in which account (it created it, its owner linked it, or the
 *   provider's organization verified the account's e-mail domain). A provider signs in no other account.
 * - `organization_domains`: e-mail domains an organization proved it holds (DNS TXT, or a link mailed to an
 *   address of the domain).
 * - the sign-in requests of SAML and OpenID Connect remember the browser that started them (a hash of a
 *   cookie it holds), and whose signed-in owner asked to link the provider to their account.
 * - `api_tokens.organization_id`: a token minted by a session an identity provider opened reaches only that
 *   provider's organization, like the session.
 *
 * Existing accounts: an address counts as proven when its owner used a one-time link mailed or handed to them
 * (an invitation, a reset, the first start's link). Existing SSO links: an account with no password that
 * signed in through a provider of an organization it is a member of is taken as that provider's own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const c = bytewise(db);
  await db.schema.alterTable('users').addColumn('email_verified_at', 'text').execute();
  await sql`update users set email_verified_at = (select min(l.used_at) from sign_in_links l where l.user_id = users.id and l.used_at is not null)`.execute(db);

  await db.schema
    .alterTable('api_tokens')
    .addColumn('organization_id', 'text', (col) => c(col.references('organizations.id').onDelete('cascade')))
    .execute();

  await db.schema.alterTable('saml_requests').addColumn('browser_hash', 'text').execute();
  await db.schema.alterTable('saml_requests').addColumn('link_user_id', 'text').execute();
  // The verified answer waits here between the ACS (a cross-site POST, which carries no SameSite=Lax cookie)
  // and the same-site step after it that checks the browser.
  await db.schema.alterTable('saml_requests').addColumn('ticket_hash', 'text').execute();
  await db.schema.alterTable('saml_requests').addColumn('verified_profile', 'text').execute();
  await db.schema.alterTable('saml_requests').addColumn('finished_at', 'text').execute();
  await db.schema.createIndex('saml_requests_by_ticket').on('saml_requests').column('ticket_hash').execute();
  await db.schema.alterTable('oidc_requests').addColumn('browser_hash', 'text').execute();
  await db.schema.alterTable('oidc_requests').addColumn('link_user_id', 'text').execute();

  await db.schema
    .createTable('user_identities')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('user_id', 'text', (col) => c(col.notNull().references('users.id').onDelete('cascade')))
    .addColumn('organization_id', 'text', (col) => c(col.notNull().references('organizations.id').onDelete('cascade')))
    .addColumn('provider_kind', 'text', (col) => col.notNull())
    .addColumn('provider_id', 'text', (col) => c(col.notNull()))
    // SAML's NameID, OpenID Connect's `sub`; null for a link carried over from before identities were kept,
    // taken by the next sign-in that names the same e-mail.
    .addColumn('subject', 'text', (col) => c(col))
    .addColumn('email', 'text')
    .addColumn('origin', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('user_identities_by_subject').unique().on('user_identities').columns(['provider_id', 'subject']).execute();
  await db.schema.createIndex('user_identities_by_user').on('user_identities').column('user_id').execute();

  await db.schema
    .createTable('organization_domains')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('organization_id', 'text', (col) => c(col.notNull().references('organizations.id').onDelete('cascade')))
    .addColumn('domain', 'text', (col) => c(col.notNull()))
    // The value of the TXT record that proves the domain; also the secret of a mailed link (as its hash).
    .addColumn('token', 'text', (col) => col.notNull())
    .addColumn('mail_token_hash', 'text')
    .addColumn('mailed_to', 'text')
    .addColumn('verified_at', 'text')
    .addColumn('verified_by', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('organization_domains_by_domain').unique().on('organization_domains').columns(['organization_id', 'domain']).execute();
  await db.schema.createIndex('organization_domains_by_mail_token').on('organization_domains').column('mail_token_hash').execute();

  await db.schema
    .createTable('pending_invitations')
    .addColumn('organization_id', 'text', (col) => c(col.notNull().references('organizations.id').onDelete('cascade')))
    .addColumn('user_id', 'text', (col) => c(col.notNull().references('users.id').onDelete('cascade')))
    .addColumn('role', 'text')
    .addColumn('sso', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('invited_by', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('pending_invitations_pk', ['organization_id', 'user_id'])
    .execute();
  await db.schema.createIndex('pending_invitations_by_user').on('pending_invitations').column('user_id').execute();

  // Accounts without a password that signed in through a provider of an organization they belong to: that
  // provider's own. SAML's subject is the e-mail (NameID format emailAddress); OIDC's `sub` is learned at the
  // next sign-in.
  await sql`
    insert into user_identities (id, user_id, organization_id, provider_kind, provider_id, subject, email, origin, created_at)
    select 'mig' || s.user_id || s.provider_id, s.user_id, s.organization_id, s.method, s.provider_id,
           case when s.method = 'saml' then u.email else null end, u.email, 'created', min(s.created_at)
    from sessions s
    join users u on u.id = s.user_id
    join members m on m.user_id = s.user_id and m.organization_id = s.organization_id
    where s.method in ('saml', 'oidc') and s.provider_id is not null and u.email is not null
      and not exists (select 1 from user_passwords p where p.user_id = s.user_id)
    group by s.user_id, s.provider_id, s.organization_id, s.method, u.email
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('pending_invitations').execute();
  await db.schema.dropTable('organization_domains').execute();
  await db.schema.dropTable('user_identities').execute();
  for (const column of ['browser_hash', 'link_user_id']) await db.schema.alterTable('oidc_requests').dropColumn(column).execute();
  await db.schema.dropIndex('saml_requests_by_ticket').execute();
  for (const column of ['browser_hash', 'link_user_id', 'ticket_hash', 'verified_profile', 'finished_at']) await db.schema.alterTable('saml_requests').dropColumn(column).execute();
  await db.schema.alterTable('api_tokens').dropColumn('organization_id').execute();
  await db.schema.alterTable('users').dropColumn('email_verified_at').execute();
}
