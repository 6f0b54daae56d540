import type { Executor, GlossaryEntriesTable } from '../../db/types.ts';

export type GlossaryEntryRow = GlossaryEntriesTable;

/** Every entry of an organization's glossary (at most MAX_GLOSSARY_ENTRIES), oldest first. */
export async function glossaryOf(db: Executor, organizationId: string): Promise<GlossaryEntryRow[]> {
  return db.selectFrom('glossary_entries').selectAll().where('organization_id', '=', organizationId).orderBy('position').execute();
}

export async function findGlossaryEntry(db: Executor, organizationId: string, id: string): Promise<GlossaryEntryRow | undefined> {
  return db.selectFrom('glossary_entries').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

export async function countGlossaryEntries(db: Executor, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('glossary_entries')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The position after the organization's last entry. */
export async function nextGlossaryPosition(db: Executor, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('glossary_entries')
    .select((eb) => eb.fn.max('position').as('last'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return Number(row?.last ?? 0) + 1;
}

/** The ids among `ids` that are entries of the organization. */
export async function existingGlossaryEntries(db: Executor, organizationId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('glossary_entries').select('id').where('organization_id', '=', organizationId).where('id', 'in', ids).execute();
  return new Set(rows.map((row) => row.id));
}

export async function insertGlossaryEntry(db: Executor, row: GlossaryEntryRow): Promise<void> {
  await db.insertInto('glossary_entries').values(row).execute();
}

export async function updateGlossaryEntry(db: Executor, organizationId: string, id: string, translations: string, updatedAt: string): Promise<void> {
  await db.updateTable('glossary_entries').set({ translations, updated_at: updatedAt }).where('organization_id', '=', organizationId).where('id', '=', id).execute();
}

export async function deleteGlossaryEntry(db: Executor, organizationId: string, id: string): Promise<void> {
  await db.deleteFrom('glossary_entries').where('organization_id', '=', organizationId).where('id', '=', id).execute();
}
