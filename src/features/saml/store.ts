import type { Executor, SamlProvidersTable } from '../../db/types.ts';
import { keysetPage } from '../../db/keyset.ts';
import type { PageRequest } from '../../platform/pagination.ts';

export type SamlProviderRow = SamlProvidersTable;

export async function findProvider(db: Executor, organizationId: string, id: string): Promise<SamlProviderRow | undefined> {
  return db.selectFrom('saml_providers').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

/** A provider by id alone: the sign-in routes are addressed by the provider, not the organization. */
export async function findProviderById(db: Executor, id: string): Promise<SamlProviderRow | undefined> {
  return db.selectFrom('saml_providers').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listProviders(db: Executor, organizationId: string, page: PageRequest): Promise<SamlProviderRow[]> {
  const query = db.selectFrom('saml_providers').selectAll().where('organization_id', '=', organizationId);
  return keysetPage(query, ['created_at', 'id'], 'asc', page).execute();
}

export async function listAllProviders(db: Executor, organizationId: string): Promise<SamlProviderRow[]> {
  return db.selectFrom('saml_providers').selectAll().where('organization_id', '=', organizationId).orderBy('created_at').orderBy('id').limit(1000).execute();
}

/** Every provider of the server, or of one organization, for the sign-in page's buttons (bounded). */
export async function listSignInProviders(db: Executor, organizationId?: string): Promise<SamlProviderRow[]> {
  let query = db.selectFrom('saml_providers').selectAll().orderBy('created_at').orderBy('id').limit(1000);
  if (organizationId) query = query.where('organization_id', '=', organizationId);
  return query.execute();
}

export async function countProviders(db: Executor, organizationId: string): Promise<number> {
  const row = await db.selectFrom('saml_providers').select((eb) => eb.fn.countAll().as('n')).where('organization_id', '=', organizationId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertProvider(db: Executor, row: SamlProviderRow): Promise<void> {
  await db.insertInto('saml_providers').values(row).execute();
}

export async function updateProvider(db: Executor, id: string, changes: Partial<SamlProviderRow>): Promise<void> {
  await db.updateTable('saml_providers').set(changes).where('id', '=', id).execute();
}

export async function deleteProvider(db: Executor, organizationId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('saml_providers').where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** An AuthnRequest we sent: the response must answer one of these, once, before it expires. */
export async function insertRequest(
  db: Executor,
  row: { id: string; provider_id: string; issued_at: string; relay_state: string | null; expires_at: string; browser_hash: string | null; link_user_id: string | null },
) {
  await db.insertInto('saml_requests').values({ ...row, used_at: null, ticket_hash: null, verified_profile: null, finished_at: null }).execute();
}

/** The verified answer of a request, waiting for its browser's same-site step (`ticket`), for a short while. */
export async function saveTicket(db: Executor, providerId: string, id: string, ticket: { ticket_hash: string; verified_profile: string; expires_at: string }) {
  await db.updateTable('saml_requests').set(ticket).where('id', '=', id).where('provider_id', '=', providerId).execute();
}

export async function findTicket(db: Executor, providerId: string, ticketHash: string, now: string) {
  return db
    .selectFrom('saml_requests')
    .selectAll()
    .where('ticket_hash', '=', ticketHash)
    .where('provider_id', '=', providerId)
    .where('finished_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Marks a ticket used; true only for the one call that did. */
export async function finishTicket(db: Executor, id: string, now: string): Promise<boolean> {
  const result = await db.updateTable('saml_requests').set({ finished_at: now }).where('id', '=', id).where('finished_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function findOpenRequest(db: Executor, providerId: string, id: string, now: string) {
  return db
    .selectFrom('saml_requests')
    .selectAll()
    .where('id', '=', id)
    .where('provider_id', '=', providerId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Marks a request answered; true only for the one call that did (two responses to one request race here). */
export async function useRequest(db: Executor, providerId: string, id: string, now: string): Promise<boolean> {
  const result = await db.updateTable('saml_requests').set({ used_at: now }).where('id', '=', id).where('provider_id', '=', providerId).where('used_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Records an accepted assertion id; false when it was already accepted (a replay). */
export async function recordAssertion(db: Executor, row: { provider_id: string; assertion_id: string; expires_at: string }): Promise<boolean> {
  const result = await db.insertInto('saml_assertions').values(row).onConflict((oc) => oc.columns(['provider_id', 'assertion_id']).doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Requests and assertion ids past their expiry protect nothing any more. */
export async function purgeExpired(db: Executor, now: string): Promise<void> {
  await db.deleteFrom('saml_requests').where('expires_at', '<', now).execute();
  await db.deleteFrom('saml_assertions').where('expires_at', '<', now).execute();
}
