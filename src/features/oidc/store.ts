import type { Executor, OidcProvidersTable, OidcRequestsTable } from '../../db/types.ts';

export type OidcProviderRow = OidcProvidersTable;
export type OidcRequestRow = OidcRequestsTable;

export async function findProvider(db: Executor, organizationId: string, id: string): Promise<OidcProviderRow | undefined> {
  return db.selectFrom('oidc_providers').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

/** A provider by id alone: the sign-in routes are addressed by the provider, not the organization. */
export async function findProviderById(db: Executor, id: string): Promise<OidcProviderRow | undefined> {
  return db.selectFrom('oidc_providers').selectAll().where('id', '=', id).executeTakeFirst();
}

/** An organization's providers, or every provider of the server for the sign-in page (bounded). */
export async function listProviders(db: Executor, organizationId?: string): Promise<OidcProviderRow[]> {
  let query = db.selectFrom('oidc_providers').selectAll().orderBy('created_at').orderBy('id').limit(1000);
  if (organizationId) query = query.where('organization_id', '=', organizationId);
  return query.execute();
}

export async function insertProvider(db: Executor, row: OidcProviderRow): Promise<void> {
  await db.insertInto('oidc_providers').values(row).execute();
}

export async function updateProvider(db: Executor, id: string, changes: Partial<OidcProviderRow>): Promise<void> {
  await db.updateTable('oidc_providers').set(changes).where('id', '=', id).execute();
}

export async function deleteProvider(db: Executor, organizationId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('oidc_providers').where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A sign-in we started: the callback must answer one of these, once, before it expires. */
export async function insertRequest(db: Executor, row: OidcRequestRow, now: string): Promise<void> {
  // Each start sweeps the requests past their expiry: the table holds sign-ins in progress only.
  await db.deleteFrom('oidc_requests').where('expires_at', '<', now).execute();
  await db.insertInto('oidc_requests').values(row).execute();
}

export async function findOpenRequest(db: Executor, providerId: string, state: string, now: string): Promise<OidcRequestRow | undefined> {
  return db
    .selectFrom('oidc_requests')
    .selectAll()
    .where('state', '=', state)
    .where('provider_id', '=', providerId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Marks a request answered; true only for the one call that did (a callback replayed races here). */
export async function useRequest(db: Executor, state: string, now: string): Promise<boolean> {
  const result = await db.updateTable('oidc_requests').set({ used_at: now }).where('state', '=', state).where('used_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
