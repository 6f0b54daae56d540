import { sql } from 'kysely';
import type { Executor, InstallationTokensTable, IntegrationInstallationsTable, IntegrationsTable, IntegrationSiteInstallationsTable, IntegrationSpaceInstallationsTable } from '../../db/types.ts';
import { keysetPage } from '../../db/keyset.ts';
import type { PageRequest } from '../../platform/pagination.ts';

export type IntegrationRow = IntegrationsTable;
export type InstallationRow = IntegrationInstallationsTable;
export type SpaceInstallationRow = IntegrationSpaceInstallationsTable;
export type SiteInstallationRow = IntegrationSiteInstallationsTable;

/** Where an event is sent is decided at delivery time (development mode may have changed since). */
export type DeliveryIntegration = Pick<
  IntegrationRow,
  'id' | 'name' | 'organization_id' | 'script' | 'secrets' | 'endpoint' | 'dev_tunnel_url' | 'dev_all' | 'signing_secret' | 'content_security_policy'
>;

const DELIVERY_COLUMNS = ['id', 'name', 'organization_id', 'script', 'secrets', 'endpoint', 'dev_tunnel_url', 'dev_all', 'signing_secret', 'content_security_policy'] as const;

/** What an event or a render needs of the installation it is for. */
export type InstallationTarget = Pick<InstallationRow, 'id' | 'integration_id' | 'organization_id' | 'configuration'>;

export async function findIntegrationByName(db: Executor, name: string): Promise<IntegrationRow | undefined> {
  return db.selectFrom('integrations').selectAll().where('name', '=', name).executeTakeFirst();
}

export async function integrationExists(db: Executor, integrationId: string): Promise<boolean> {
  return (await db.selectFrom('integrations').select('id').where('id', '=', integrationId).executeTakeFirst()) !== undefined;
}

/** The integration as delivery needs it, without its manifest's lists. */
export async function findDeliveryIntegration(db: Executor, integrationId: string): Promise<DeliveryIntegration | undefined> {
  return db.selectFrom('integrations').select(DELIVERY_COLUMNS).where('id', '=', integrationId).executeTakeFirst();
}

export async function insertIntegration(db: Executor, row: IntegrationRow): Promise<void> {
  await db.insertInto('integrations').values(row).execute();
}

export async function updateIntegration(db: Executor, id: string, changes: Partial<IntegrationRow>): Promise<void> {
  await db.updateTable('integrations').set(changes).where('id', '=', id).execute();
}

/** Installations, tokens and events go with it (cascade). */
export async function deleteIntegration(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('integrations').where('id', '=', id).execute();
}

export interface IntegrationFilters {
  /** Organizations whose private integrations the caller sees (those they are a member of). */
  memberOf: readonly string[];
  search?: string | undefined;
  category?: string | undefined;
  blockDomain?: string | undefined;
  blocks?: boolean | undefined;
  contentSources?: boolean | undefined;
  owner?: string | undefined;
  scope?: string | undefined;
  target?: string | undefined;
}

/**
 * Integrations a caller may list, by name: public ones, and the private and unlisted ones of organizations they
 * belong to (unlisted ones are reachable by name by anyone, listed only to their owner). The manifest lists are
 * JSON text: `LIKE` on the quoted value filters them in both dialects.
 */
function filtered(db: Executor, filters: IntegrationFilters) {
  let query = db.selectFrom('integrations');
  query = query.where((eb) => {
    const visible = [eb('visibility', '=', 'public')];
    if (filters.memberOf.length > 0) visible.push(eb('organization_id', 'in', filters.memberOf));
    return eb.or(visible);
  });
  if (filters.search) {
    const pattern = `%${filters.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) => eb.or([eb(sql`lower(name)`, 'like', sql`${pattern} escape '\\'`), eb(sql`lower(title)`, 'like', sql`${pattern} escape '\\'`)]));
  }
  if (filters.category) query = query.where('categories', 'like', `%"${filters.category}"%`);
  if (filters.scope) query = query.where('scopes', 'like', `%"${filters.scope}"%`);
  if (filters.target) query = query.where('target', '=', filters.target);
  if (filters.owner) query = query.where('organization_id', '=', filters.owner);
  if (filters.blocks !== undefined) query = query.where('blocks', filters.blocks ? '!=' : '=', '[]');
  if (filters.contentSources !== undefined) query = query.where('content_sources', filters.contentSources ? '!=' : '=', '[]');
  // The domain is checked in the URL patterns of the blocks' urlUnfurl (e.g. "https://figma.com/*").
  if (filters.blockDomain) query = query.where('blocks', 'like', `%${filters.blockDomain.replace(/[\\%_]/g, '')}%`);
  return query;
}

export async function listIntegrations(db: Executor, filters: IntegrationFilters, page: PageRequest): Promise<IntegrationRow[]> {
  return keysetPage(filtered(db, filters).selectAll(), ['name'], 'asc', page).execute();
}

export async function countIntegrations(db: Executor, filters: IntegrationFilters): Promise<number> {
  const row = await filtered(db, filters)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The organizations a user is an (enabled) member of, and those they administer. */
export async function membershipsOfUser(db: Executor, userId: string) {
  return db.selectFrom('members').select(['organization_id', 'role']).where('user_id', '=', userId).where('disabled', '=', 0).execute();
}

export async function findInstallation(db: Executor, integrationId: string, installationId: string): Promise<InstallationRow | undefined> {
  return db.selectFrom('integration_installations').selectAll().where('integration_id', '=', integrationId).where('id', '=', installationId).executeTakeFirst();
}

export async function findInstallationInOrganization(db: Executor, integrationId: string, organizationId: string): Promise<InstallationRow | undefined> {
  return db.selectFrom('integration_installations').selectAll().where('integration_id', '=', integrationId).where('organization_id', '=', organizationId).executeTakeFirst();
}

/**
 * Active installations of the organization that are on the space or site (or on every space or site): those
 * that hear of a change there. The two kinds differ only in their selection column and content table.
 */
export async function installationsOnTarget(db: Executor, organizationId: string, kind: 'space' | 'site', targetId: string): Promise<InstallationTarget[]> {
  // Kysely cannot type a table chosen at run time: the space names stand for both (as in contentInstallationsOf).
  const table = `integration_${kind}_installations as s` as 'integration_space_installations as s';
  const column = `s.${kind}_id` as 's.space_id';
  const selection = `i.${kind}_selection` as 'i.space_selection';
  return db
    .selectFrom('integration_installations as i')
    .select(['i.id', 'i.integration_id', 'i.organization_id', 'i.configuration'])
    .where('i.organization_id', '=', organizationId)
    .where('i.status', '=', 'active')
    .where((eb) =>
      eb.or([
        eb(selection, '=', 'all'),
        eb.exists(eb.selectFrom(table).select('s.installation_id').whereRef('s.installation_id', '=', 'i.id').where(column, '=', targetId).where('s.status', '=', 'active')),
      ]),
    )
    .orderBy('i.id')
    .execute();
}

/**
 * The installations of the integration on organizations the user is a member of, oldest first (render: who
 * may render, and as which installation).
 */
export async function installationsVisibleTo(db: Executor, integrationId: string, userId: string): Promise<InstallationTarget[]> {
  return db
    .selectFrom('integration_installations as i')
    // A disabled member is no member (features/access: membershipOf).
    .innerJoin('members as m', (join) => join.onRef('m.organization_id', '=', 'i.organization_id').on('m.user_id', '=', userId).on('m.disabled', '=', 0))
    .select(['i.id', 'i.integration_id', 'i.organization_id', 'i.configuration'])
    .where('i.integration_id', '=', integrationId)
    .orderBy('i.created_at')
    .orderBy('i.id')
    .execute();
}

export async function insertInstallation(db: Executor, row: InstallationRow): Promise<void> {
  await db.insertInto('integration_installations').values(row).execute();
}

export async function updateInstallation(db: Executor, id: string, changes: Partial<InstallationRow>): Promise<void> {
  await db.updateTable('integration_installations').set(changes).where('id', '=', id).execute();
}

/** Its space and site installations and its tokens go with it (cascade). */
export async function deleteInstallation(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('integration_installations').where('id', '=', id).execute();
}

/** Which installations of an integration a caller sees: all of them (its owner's admins), or those of some organizations, or one. */
export type InstallationReachFilter = { all: true } | { organizations: readonly string[] } | { installation: string };

function installationsOf(db: Executor, integrationId: string, reach: InstallationReachFilter, externalId?: string) {
  let query = db.selectFrom('integration_installations').where('integration_id', '=', integrationId);
  if ('organizations' in reach) query = reach.organizations.length === 0 ? query.where(sql<boolean>`1 = 0`) : query.where('organization_id', 'in', reach.organizations);
  if ('installation' in reach) query = query.where('id', '=', reach.installation);
  if (externalId) query = query.where('external_ids', 'like', `%${JSON.stringify(externalId)}%`);
  return query;
}

export async function listInstallations(db: Executor, integrationId: string, reach: InstallationReachFilter, externalId: string | undefined, page: PageRequest) {
  return keysetPage(installationsOf(db, integrationId, reach, externalId).selectAll(), ['created_at', 'id'], 'asc', page).execute();
}

export async function countInstallations(db: Executor, integrationId: string, reach: InstallationReachFilter, externalId: string | undefined): Promise<number> {
  const row = await installationsOf(db, integrationId, reach, externalId)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The number of spaces each installation is on, in one grouped query. */
export async function spaceCounts(db: Executor, installationIds: readonly string[]): Promise<Map<string, number>> {
  if (installationIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('integration_space_installations')
    .select(['installation_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('installation_id', 'in', installationIds)
    .groupBy('installation_id')
    .execute();
  return new Map(rows.map((r) => [r.installation_id, Number(r.n)]));
}

export async function findSpaceInstallation(db: Executor, installationId: string, spaceId: string): Promise<SpaceInstallationRow | undefined> {
  return db.selectFrom('integration_space_installations').selectAll().where('installation_id', '=', installationId).where('space_id', '=', spaceId).executeTakeFirst();
}

export async function upsertSpaceInstallation(db: Executor, row: SpaceInstallationRow): Promise<void> {
  await db
    .insertInto('integration_space_installations')
    .values(row)
    .onConflict((oc) => oc.columns(['installation_id', 'space_id']).doUpdateSet({ status: row.status, configuration: row.configuration, external_ids: row.external_ids, updated_at: row.updated_at }))
    .execute();
}

export async function findSiteInstallation(db: Executor, installationId: string, siteId: string): Promise<SiteInstallationRow | undefined> {
  return db.selectFrom('integration_site_installations').selectAll().where('installation_id', '=', installationId).where('site_id', '=', siteId).executeTakeFirst();
}

export async function upsertSiteInstallation(db: Executor, row: SiteInstallationRow): Promise<void> {
  await db
    .insertInto('integration_site_installations')
    .values(row)
    .onConflict((oc) => oc.columns(['installation_id', 'site_id']).doUpdateSet({ status: row.status, configuration: row.configuration, external_ids: row.external_ids, updated_at: row.updated_at }))
    .execute();
}

/** Answers whether there was one. */
export async function deleteSpaceInstallation(db: Executor, installationId: string, spaceId: string): Promise<boolean> {
  const result = await db.deleteFrom('integration_space_installations').where('installation_id', '=', installationId).where('space_id', '=', spaceId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Answers whether there was one. */
export async function deleteSiteInstallation(db: Executor, installationId: string, siteId: string): Promise<boolean> {
  const result = await db.deleteFrom('integration_site_installations').where('installation_id', '=', installationId).where('site_id', '=', siteId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function spaceInstallationsOf(db: Executor, installationId: string) {
  return db.selectFrom('integration_space_installations').selectAll().where('installation_id', '=', installationId).execute();
}

export async function siteInstallationsOf(db: Executor, installationId: string) {
  return db.selectFrom('integration_site_installations').selectAll().where('installation_id', '=', installationId).execute();
}

function contentInstallationsOf<T extends 'integration_space_installations' | 'integration_site_installations'>(
  db: Executor,
  table: T,
  integrationId: string,
  reach: InstallationReachFilter,
  externalId?: string,
) {
  // One query shape for both tables; Kysely cannot type a table chosen at run time, hence the casts.
  let query = db
    .selectFrom(`${table} as c` as 'integration_space_installations as c')
    .innerJoin('integration_installations as i', 'i.id', 'c.installation_id')
    .where('i.integration_id', '=', integrationId);
  if ('organizations' in reach) query = reach.organizations.length === 0 ? query.where(sql<boolean>`1 = 0`) : query.where('i.organization_id', 'in', reach.organizations);
  if ('installation' in reach) query = query.where('i.id', '=', reach.installation);
  if (externalId) query = query.where('c.external_ids', 'like', `%${JSON.stringify(externalId)}%`);
  return query;
}

export async function listSpaceInstallations(db: Executor, integrationId: string, reach: InstallationReachFilter, externalId: string | undefined, page: PageRequest) {
  const query = contentInstallationsOf(db, 'integration_space_installations', integrationId, reach, externalId).selectAll('c');
  return keysetPage(query, ['c.created_at', 'c.installation_id', 'c.space_id'], 'asc', page).execute();
}

export async function countSpaceInstallations(db: Executor, integrationId: string, reach: InstallationReachFilter, externalId: string | undefined) {
  const row = await contentInstallationsOf(db, 'integration_space_installations', integrationId, reach, externalId)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listSiteInstallations(db: Executor, integrationId: string, reach: InstallationReachFilter, externalId: string | undefined, page: PageRequest) {
  const query = contentInstallationsOf(db, 'integration_site_installations', integrationId, reach, externalId).selectAll('c');
  return (await keysetPage(query, ['c.created_at', 'c.installation_id', 'c.site_id'], 'asc', page).execute()) as unknown as SiteInstallationRow[];
}

export async function countSiteInstallations(db: Executor, integrationId: string, reach: InstallationReachFilter, externalId: string | undefined) {
  const row = await contentInstallationsOf(db, 'integration_site_installations', integrationId, reach, externalId)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertInstallationToken(db: Executor, row: InstallationTokensTable): Promise<void> {
  await db.insertInto('installation_tokens').values(row).execute();
}

/** Deletes up to `limit` tokens that expired before `cutoff`; answers how many. */
export async function deleteTokensExpiredBefore(db: Executor, cutoff: string, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('installation_tokens')
    .where('id', 'in', (eb) => eb.selectFrom('installation_tokens').select('id').where('expires_at', '<', cutoff).limit(limit))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** An unexpired, unrevoked installation token with what its caller needs: the installation and the manifest's scopes. */
export async function findActiveInstallationToken(db: Executor, tokenHash: string, now: string) {
  return db
    .selectFrom('installation_tokens as t')
    .innerJoin('integration_installations as i', 'i.id', 't.installation_id')
    .innerJoin('integrations as g', 'g.id', 'i.integration_id')
    .select(['t.id', 't.expires_at', 'i.id as installation_id', 'i.organization_id', 'i.created_by', 'g.id as integration_id', 'g.scopes'])
    .where('t.token_hash', '=', tokenHash)
    .where('t.revoked_at', 'is', null)
    .where('t.expires_at', '>', now)
    .executeTakeFirst();
}
