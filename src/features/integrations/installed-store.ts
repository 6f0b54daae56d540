import { sql, type ExpressionBuilder } from 'kysely';
import type { Database, Executor } from '../../db/types.ts';
import { keysetPage } from '../../db/keyset.ts';
import type { PageRequest } from '../../platform/pagination.ts';
import type { InstallationRow, IntegrationRow, SiteInstallationRow, SpaceInstallationRow } from './store.ts';

/*
 * What is installed where, read from an organization, a space or a site (installed.ts): the installations of an
 * organization with their integrations, its space and site installations, the integrations on one space or site.
 * `g` is always the integration, `i` the installation, `c` a space or site installation.
 */

type Joined = ExpressionBuilder<Database & { g: Database['integrations']; i: Database['integration_installations'] }, 'g' | 'i'>;

/**
 * An installation of an integration that became private after it was installed here shows only to the members of
 * the integration's owner: the caller is a member of `organizationId`, so that is what they may see.
 */
function visibleIn(eb: Joined, organizationId: string) {
  return eb.or([eb('g.visibility', '!=', 'private'), eb('g.organization_id', '=', organizationId)]);
}

/** The search of the official `search` parameter: name or title, case-insensitive, as listIntegrations. */
function matches(eb: Joined, search: string) {
  const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return eb.or([eb(sql`lower(g.name)`, 'like', sql`${pattern} escape '\\'`), eb(sql`lower(g.title)`, 'like', sql`${pattern} escape '\\'`)]);
}

export interface OrganizationInstallationFilter {
  organizationId: string;
  search?: string | undefined;
  /** Only this installation (an installation token sees its own). */
  installationId?: string | undefined;
}

function organizationInstallations(db: Executor, filter: OrganizationInstallationFilter) {
  let query = db
    .selectFrom('integration_installations as i')
    .innerJoin('integrations as g', 'g.id', 'i.integration_id')
    .where('i.organization_id', '=', filter.organizationId)
    .where((eb) => visibleIn(eb, filter.organizationId));
  if (filter.search) query = query.where((eb) => matches(eb, filter.search!));
  if (filter.installationId) query = query.where('i.id', '=', filter.installationId);
  return query;
}

export async function listOrganizationInstallations(db: Executor, filter: OrganizationInstallationFilter, page: PageRequest): Promise<InstallationRow[]> {
  return keysetPage(organizationInstallations(db, filter).selectAll('i'), ['i.created_at', 'i.id'], 'asc', page).execute();
}

export async function countOrganizationInstallations(db: Executor, filter: OrganizationInstallationFilter): Promise<number> {
  const row = await organizationInstallations(db, filter)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface ContentInstallationFilter {
  organizationId: string;
  /** Only this space or site. */
  targetId?: string | undefined;
  /** Only among these (the spaces or sites a member who is not an admin can see); undefined: all. */
  within?: readonly string[] | undefined;
  installationId?: string | undefined;
}

/** The space or site installations of an organization's installations; the two kinds differ in table and column only. */
function contentInstallations(db: Executor, kind: 'space' | 'site', filter: ContentInstallationFilter) {
  // Kysely cannot type a table chosen at run time: the space names stand for both (as in store.ts).
  const table = `integration_${kind}_installations as c` as 'integration_space_installations as c';
  const column = `c.${kind}_id` as 'c.space_id';
  let query = db
    .selectFrom(table)
    .innerJoin('integration_installations as i', 'i.id', 'c.installation_id')
    .innerJoin('integrations as g', 'g.id', 'i.integration_id')
    .where('i.organization_id', '=', filter.organizationId)
    .where((eb) => visibleIn(eb, filter.organizationId));
  if (filter.targetId !== undefined) query = query.where(column, '=', filter.targetId);
  if (filter.within !== undefined) query = filter.within.length === 0 ? query.where(sql<boolean>`1 = 0`) : query.where(column, 'in', filter.within);
  if (filter.installationId) query = query.where('i.id', '=', filter.installationId);
  return { query, column };
}

/** Each row with the integration it is of (`integration_id`). */
export type ContentInstallationRow = (SpaceInstallationRow | SiteInstallationRow) & { integration_id: string };

export async function listContentInstallationsIn(db: Executor, kind: 'space' | 'site', filter: ContentInstallationFilter, page: PageRequest): Promise<ContentInstallationRow[]> {
  const { query, column } = contentInstallations(db, kind, filter);
  const rows = await keysetPage(query.selectAll('c').select('i.integration_id'), ['c.created_at', 'c.installation_id', column], 'asc', page).execute();
  return rows as ContentInstallationRow[];
}

export async function countContentInstallationsIn(db: Executor, kind: 'space' | 'site', filter: ContentInstallationFilter): Promise<number> {
  const row = await contentInstallations(db, kind, filter)
    .query.select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The integrations installed on one space or site of the organization, by name: an installation there, or one
 * whose selection is `all` (it is on every space or site of the organization, as event delivery reads it).
 */
export async function integrationsInstalledOn(db: Executor, organizationId: string, kind: 'space' | 'site', targetId: string, search: string | undefined): Promise<IntegrationRow[]> {
  const table = `integration_${kind}_installations as c` as 'integration_space_installations as c';
  const column = `c.${kind}_id` as 'c.space_id';
  const selection = `i.${kind}_selection` as 'i.space_selection';
  let query = db
    .selectFrom('integrations as g')
    .innerJoin('integration_installations as i', 'i.integration_id', 'g.id')
    .where('i.organization_id', '=', organizationId)
    .where((eb) => visibleIn(eb, organizationId))
    .where((eb) =>
      eb.or([eb(selection, '=', 'all'), eb.exists(eb.selectFrom(table).select('c.installation_id').whereRef('c.installation_id', '=', 'i.id').where(column, '=', targetId))]),
    );
  if (search) query = query.where((eb) => matches(eb, search));
  return query.selectAll('g').orderBy('g.name').execute();
}

export async function integrationsByIds(db: Executor, ids: readonly string[]): Promise<IntegrationRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('integrations').selectAll().where('id', 'in', ids).execute();
}
