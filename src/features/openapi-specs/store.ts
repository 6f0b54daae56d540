import type { Executor, OpenapiSpecsTable, OpenapiSpecVersionsTable } from '../../db/types.ts';
import { keysetPage } from '../../db/keyset.ts';
import { isPostgres } from '../../db/dialect.ts';
import type { PageRequest } from '../../platform/pagination.ts';

export type SpecRow = OpenapiSpecsTable;
export type SpecVersionRow = OpenapiSpecVersionsTable;
/** A version without its (possibly large) text and reference. */
export type SpecVersionHead = Pick<SpecVersionRow, 'id' | 'spec_id' | 'number' | 'source_url' | 'hash' | 'created_at'>;

const HEAD_COLUMNS = ['id', 'spec_id', 'number', 'source_url', 'hash', 'created_at'] as const;

export async function findSpecBySlug(db: Executor, organizationId: string, slug: string): Promise<SpecRow | undefined> {
  return db.selectFrom('openapi_specs').selectAll().where('organization_id', '=', organizationId).where('slug', '=', slug).executeTakeFirst();
}

export async function findSpec(db: Executor, id: string): Promise<SpecRow | undefined> {
  return db.selectFrom('openapi_specs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The spec row locked for the rest of the transaction (PostgreSQL; SQLite has one writer anyway). */
export async function lockSpec(db: Executor, id: string): Promise<SpecRow | undefined> {
  let query = db.selectFrom('openapi_specs').selectAll().where('id', '=', id);
  if (isPostgres(db)) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function insertSpec(db: Executor, row: SpecRow): Promise<void> {
  await db.insertInto('openapi_specs').values(row).execute();
}

export async function updateSpec(db: Executor, id: string, changes: Partial<SpecRow>): Promise<void> {
  await db.updateTable('openapi_specs').set(changes).where('id', '=', id).execute();
}

export async function deleteSpec(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('openapi_specs').where('id', '=', id).execute();
}

/** An organization's specs in creation order. */
export async function listSpecs(db: Executor, organizationId: string, page: PageRequest): Promise<SpecRow[]> {
  const query = db.selectFrom('openapi_specs').selectAll().where('organization_id', '=', organizationId);
  return keysetPage(query, ['created_at', 'id'], 'asc', page).execute();
}

export async function countSpecs(db: Executor, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('openapi_specs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** URL specs whose last processing ended before `before`, longest ago first: due for a refresh. */
export async function specsDueForRefresh(db: Executor, before: string, limit: number): Promise<SpecRow[]> {
  return db
    .selectFrom('openapi_specs')
    .selectAll()
    .where('processing_state', '=', 'complete')
    .where('source_url', 'is not', null)
    .where('last_processed_at', '<', before)
    .orderBy('last_processed_at')
    .limit(limit)
    .execute();
}

export async function insertVersion(db: Executor, row: SpecVersionRow): Promise<void> {
  await db.insertInto('openapi_spec_versions').values(row).execute();
}

export async function findVersionHead(db: Executor, specId: string, versionId: string): Promise<SpecVersionHead | undefined> {
  return db.selectFrom('openapi_spec_versions').select(HEAD_COLUMNS).where('spec_id', '=', specId).where('id', '=', versionId).executeTakeFirst();
}

export async function findVersion(db: Executor, specId: string, versionId: string): Promise<SpecVersionRow | undefined> {
  return db.selectFrom('openapi_spec_versions').selectAll().where('spec_id', '=', specId).where('id', '=', versionId).executeTakeFirst();
}

/** The hash of a version, to tell whether a fetch changed the document. */
export async function versionHash(db: Executor, versionId: string): Promise<string | undefined> {
  const row = await db.selectFrom('openapi_spec_versions').select('hash').where('id', '=', versionId).executeTakeFirst();
  return row?.hash;
}

/** A spec's versions, newest first. */
export async function listVersions(db: Executor, specId: string, page: PageRequest): Promise<SpecVersionHead[]> {
  const query = db.selectFrom('openapi_spec_versions').select(HEAD_COLUMNS).where('spec_id', '=', specId);
  return keysetPage(query, ['number', 'id'], 'desc', page).execute();
}

/** The rendered reference of each spec's latest version, by slug, for the specs of an organization named. */
export async function latestReferences(db: Executor, organizationId: string, slugs: readonly string[]) {
  if (slugs.length === 0) return [];
  return db
    .selectFrom('openapi_specs')
    .innerJoin('openapi_spec_versions', 'openapi_spec_versions.id', 'openapi_specs.last_version_id')
    .select(['openapi_specs.slug', 'openapi_specs.source_url', 'openapi_spec_versions.id as version_id', 'openapi_spec_versions.reference'])
    .where('openapi_specs.organization_id', '=', organizationId)
    .where('openapi_specs.slug', 'in', slugs)
    .execute();
}

/** The same, for specs named by the URL they are fetched from. */
export async function latestReferencesBySource(db: Executor, organizationId: string, urls: readonly string[]) {
  if (urls.length === 0) return [];
  return db
    .selectFrom('openapi_specs')
    .innerJoin('openapi_spec_versions', 'openapi_spec_versions.id', 'openapi_specs.last_version_id')
    .select(['openapi_specs.slug', 'openapi_specs.source_url', 'openapi_spec_versions.id as version_id', 'openapi_spec_versions.reference'])
    .where('openapi_specs.organization_id', '=', organizationId)
    .where('openapi_specs.source_url', 'in', urls)
    .execute();
}

/**
 * Marks that move when an organization's specs change: their number (a deletion), their versions in all (a
 * new version, even within the same millisecond) and the last update (anything else).
 */
export async function specsChangeMarks(db: Executor, organizationId: string): Promise<{ count: number; versions: number; lastUpdate: string | null }> {
  const row = await db
    .selectFrom('openapi_specs')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('version_count').as('versions'), eb.fn.max('updated_at').as('last')])
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return { count: Number(row?.n ?? 0), versions: Number(row?.versions ?? 0), lastUpdate: (row?.last as string | null | undefined) ?? null };
}
