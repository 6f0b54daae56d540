import type { Executor, ImportRunsTable } from '../../db/types.ts';
import { sql } from 'kysely';
import { keysetPage } from '../../db/keyset.ts';
import { isPostgres } from '../../db/dialect.ts';
import type { PageRequest } from '../../platform/pagination.ts';

export type ImportRunRow = ImportRunsTable;

/** The runs a list shows: of the organization, narrowed by target and status (`active`: pending or in progress). */
export interface ImportRunFilter {
  organizationId: string;
  spaceId?: string | undefined;
  changeRequestId?: string | undefined;
  statuses?: readonly string[] | undefined;
  /** The spaces the caller can see (undefined: every space of the organization). */
  visibleSpaceIds?: readonly string[] | undefined;
}

export async function insertImportRun(db: Executor, row: ImportRunRow): Promise<void> {
  await db.insertInto('import_runs').values(row).execute();
}

export async function findImportRun(db: Executor, organizationId: string, id: string): Promise<ImportRunRow | undefined> {
  return db.selectFrom('import_runs').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

/** The run by id alone (the job's payload names it). */
export async function findImportRunById(db: Executor, id: string): Promise<ImportRunRow | undefined> {
  return db.selectFrom('import_runs').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The run, locked until the transaction ends where the database can (PostgreSQL): a cancel and the job's final
 * write then wait for each other instead of both going through. SQLite has one writer, which does the same.
 */
export async function lockImportRun(db: Executor, id: string): Promise<ImportRunRow | undefined> {
  let query = db.selectFrom('import_runs').selectAll().where('id', '=', id);
  if (isPostgres(db)) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** The ids of the runs of these statuses, of every organization. */
export async function importRunIdsWithStatus(db: Executor, statuses: readonly string[]): Promise<string[]> {
  const rows = await db.selectFrom('import_runs').select('id').where('status', 'in', [...statuses]).execute();
  return rows.map((row) => row.id);
}

/**
 * Deletes at most `limit` runs of these statuses last updated before `cutoff` (the retention sweep passes the
 * finished ones: such a run is never updated again). Answers how many it deleted.
 */
export async function deleteImportRunsUpdatedBefore(db: Executor, statuses: readonly string[], cutoff: string, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('import_runs')
    .where('id', 'in', (eb) => eb.selectFrom('import_runs').select('id').where('status', 'in', [...statuses]).where('updated_at', '<', cutoff).limit(limit))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Updates the run only while its status is one of `from`; tells whether it did. */
export async function updateImportRun(db: Executor, id: string, from: readonly string[], patch: Partial<Omit<ImportRunRow, 'id' | 'organization_id'>>): Promise<boolean> {
  const result = await db.updateTable('import_runs').set(patch).where('id', '=', id).where('status', 'in', [...from]).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

function filtered(db: Executor, filter: ImportRunFilter) {
  let query = db.selectFrom('import_runs').where('organization_id', '=', filter.organizationId);
  if (filter.spaceId !== undefined) query = query.where('space_id', '=', filter.spaceId);
  if (filter.changeRequestId !== undefined) query = query.where('change_request_id', '=', filter.changeRequestId);
  if (filter.statuses !== undefined) query = query.where('status', 'in', [...filter.statuses]);
  if (filter.visibleSpaceIds !== undefined) {
    if (filter.visibleSpaceIds.length === 0) return query.where(sql<boolean>`1 = 0`);
    query = query.where('space_id', 'in', [...filter.visibleSpaceIds]);
  }
  return query;
}

/** Newest first, as the official listImportRuns. */
export async function listImportRuns(db: Executor, filter: ImportRunFilter, page: PageRequest): Promise<ImportRunRow[]> {
  return keysetPage(filtered(db, filter).selectAll(), ['created_at', 'id'], 'desc', page).execute();
}

export async function countImportRuns(db: Executor, filter: ImportRunFilter): Promise<number> {
  const row = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
