import { sql } from 'kysely';
import type { Db, Executor, TranslationPagesTable, TranslationsTable, TranslationTargetsTable } from '../../db/types.ts';
import { isPostgres } from '../../db/dialect.ts';
import { keysetPage } from '../../db/keyset.ts';
import type { PageRequest } from '../../platform/pagination.ts';

export type TranslationRow = TranslationsTable;
export type TranslationTargetRow = TranslationTargetsTable;
export type TranslationPageRow = TranslationPagesTable;

export async function findTranslation(db: Executor, organizationId: string, id: string): Promise<TranslationRow | undefined> {
  return db.selectFrom('translations').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

export async function findTranslationById(db: Executor, id: string): Promise<TranslationRow | undefined> {
  return db.selectFrom('translations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The first key of the run locks' advisory locks: translation runs' own space among the database's locks. */
const RUN_LOCK_CLASS = 0x7172_0016;

/**
 * Runs `work` while holding the run lock of this translation, or answers false at once, without running it,
 * when someone else holds it. On PostgreSQL several processes share the job queue, and a job whose claim
 * expired (a run longer than the worker's lock) or a second job queued for the same translation could start a
 * second run beside the first: a session advisory lock, on a connection reserved for the run, stops that, and
 * PostgreSQL releases it by itself if the process dies. SQLite has one server process (a second refuses the
 * file) whose job worker runs one job at a time.
 */
export async function withRunLock(db: Db, translationId: string, work: () => Promise<void>): Promise<boolean> {
  if (!isPostgres(db)) {
    await work();
    return true;
  }
  return db.connection().execute(async (connection) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${RUN_LOCK_CLASS}, hashtext(${translationId})) as locked`.execute(connection);
    if (rows[0]?.locked !== true) return false;
    try {
      await work();
      return true;
    } finally {
      await sql`select pg_advisory_unlock(${RUN_LOCK_CLASS}, hashtext(${translationId}))`.execute(connection);
    }
  });
}

/** Translations in creation order. */
export async function listTranslations(db: Executor, organizationId: string, page: PageRequest): Promise<TranslationRow[]> {
  const query = db.selectFrom('translations').selectAll().where('organization_id', '=', organizationId);
  return keysetPage(query, ['created_at', 'id'], 'asc', page).execute();
}

export async function countTranslations(db: Executor, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('translations')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertTranslation(db: Executor, row: TranslationRow): Promise<void> {
  await db.insertInto('translations').values(row).execute();
}

export async function updateTranslation(db: Executor, id: string, changes: Partial<TranslationRow>): Promise<void> {
  await db.updateTable('translations').set(changes).where('id', '=', id).execute();
}

/** Its targets and page records go with it (cascade); the target spaces stay, they are content. */
export async function deleteTranslation(db: Executor, organizationId: string, id: string): Promise<void> {
  await db.deleteFrom('translations').where('organization_id', '=', organizationId).where('id', '=', id).execute();
}

/** The targets of several translations, in one query. */
export async function targetsOf(db: Executor, translationIds: readonly string[]): Promise<TranslationTargetRow[]> {
  if (translationIds.length === 0) return [];
  return db.selectFrom('translation_targets').selectAll().where('translation_id', 'in', translationIds).orderBy('translation_id').orderBy('language').execute();
}

export async function findTarget(db: Executor, translationId: string, language: string): Promise<TranslationTargetRow | undefined> {
  return db.selectFrom('translation_targets').selectAll().where('translation_id', '=', translationId).where('language', '=', language).executeTakeFirst();
}

export async function upsertTarget(db: Executor, row: TranslationTargetRow): Promise<void> {
  await db
    .insertInto('translation_targets')
    .values(row)
    .onConflict((oc) => oc.columns(['translation_id', 'language']).doUpdateSet({ space_id: row.space_id, revision_id: row.revision_id, pages_to_translate: row.pages_to_translate }))
    .execute();
}

export async function pagesOfTarget(db: Executor, translationId: string, language: string): Promise<TranslationPageRow[]> {
  return db.selectFrom('translation_pages').selectAll().where('translation_id', '=', translationId).where('language', '=', language).execute();
}

/** Replaces the page records of one target language by `rows` (the state after a run). */
export async function replacePagesOfTarget(db: Executor, translationId: string, language: string, rows: readonly TranslationPageRow[]): Promise<void> {
  await db.deleteFrom('translation_pages').where('translation_id', '=', translationId).where('language', '=', language).execute();
  // Bounded statements: a large space has thousands of pages.
  for (let i = 0; i < rows.length; i += 200) await db.insertInto('translation_pages').values(rows.slice(i, i + 200)).execute();
}

export interface TranslationPageFilter {
  translationId: string;
  language?: string | undefined;
  state?: string | undefined;
}

function pagesFiltered(db: Executor, filter: TranslationPageFilter) {
  let q = db.selectFrom('translation_pages').where('translation_id', '=', filter.translationId);
  if (filter.language !== undefined) q = q.where('language', '=', filter.language);
  if (filter.state !== undefined) q = q.where('state', '=', filter.state);
  return q;
}

/** The page records of a translation, by language then source page. */
export async function listTranslationPages(db: Executor, filter: TranslationPageFilter, page: PageRequest): Promise<TranslationPageRow[]> {
  return keysetPage(pagesFiltered(db, filter).selectAll(), ['language', 'source_page_id'], 'asc', page).execute();
}

export async function countTranslationPages(db: Executor, filter: TranslationPageFilter): Promise<number> {
  const row = await pagesFiltered(db, filter)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
