import type { AppContext, Caller } from '../../platform/context.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { isoNow } from '../../platform/clock.ts';
import { apiUrl } from '../../platform/urls.ts';
import type { Config } from '../../config.ts';
import { OrgAccess } from '../access/service.ts';
import { TRANSLATION_LANGUAGES } from '../spaces/schemas.ts';
import { glossaryBatchProblem, MAX_GLOSSARY_ENTRIES, type GlossaryOperation, type GlossaryTranslations } from './glossary.ts';
import { assertCanEditTranslations, assertCanViewTranslations } from './policy.ts';
import {
  countGlossaryEntries,
  deleteGlossaryEntry,
  existingGlossaryEntries,
  findGlossaryEntry,
  glossaryOf,
  insertGlossaryEntry,
  nextGlossaryPosition,
  updateGlossaryEntry,
  type GlossaryEntryRow,
} from './glossary-store.ts';

const LANGUAGES: ReadonlySet<string> = new Set(TRANSLATION_LANGUAGES);

function presentEntry(config: Config, row: GlossaryEntryRow) {
  return {
    object: 'glossary-entry' as const,
    id: row.id,
    translations: JSON.parse(row.translations) as GlossaryTranslations,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    urls: { location: apiUrl(config, `/orgs/${row.organization_id}/translations-glossary/${row.id}`) },
  };
}

/** The glossary's terms, for a translation run. */
export async function glossaryTranslations(ctx: AppContext, organizationId: string): Promise<GlossaryTranslations[]> {
  return (await glossaryOf(ctx.db, organizationId)).map((row) => JSON.parse(row.translations) as GlossaryTranslations);
}

/**
 * The glossary in creation order, or by its term in `orderBy`'s language (entries without one last). A glossary
 * is bounded (MAX_GLOSSARY_ENTRIES), so it is sorted whole and the cursor holds the last entry's sort key.
 */
export async function listGlossary(ctx: AppContext, caller: Caller, organizationId: string, query: { page?: string; limit?: number; orderBy?: string }) {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertCanViewTranslations(access);
  const listKey = `glossary:${organizationId}:${query.orderBy ?? ''}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const collator = new Intl.Collator(query.orderBy, { sensitivity: 'base' });
  const keyOf = (row: GlossaryEntryRow): [string, string] => {
    if (!query.orderBy) return [String(row.position).padStart(12, '0'), row.id];
    const term = (JSON.parse(row.translations) as GlossaryTranslations)[query.orderBy];
    return [term === undefined ? '1' : `0${term}`, row.id];
  };
  const compare = (a: readonly [string, string], b: readonly [string, string]) => (query.orderBy ? collator.compare(a[0], b[0]) : a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0) || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);
  const rows = (await glossaryOf(ctx.db, organizationId)).map((row) => ({ row, key: keyOf(row) })).sort((a, b) => compare(a.key, b.key));
  const after = page.after as [string, string] | undefined;
  const start = after ? rows.findIndex((entry) => compare(entry.key, after) > 0) : 0;
  const window = start < 0 ? [] : rows.slice(start, start + page.limit + 1);
  return ctx.cursors.close(listKey, page, window, rows.length, (entry) => entry.key, (entry) => presentEntry(ctx.config, entry.row));
}

export async function getGlossaryEntry(ctx: AppContext, caller: Caller, organizationId: string, entryId: string) {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertCanViewTranslations(access);
  const row = await findGlossaryEntry(ctx.db, organizationId, entryId);
  if (!row) throw notFound(`No glossary entry ${entryId} in organization ${organizationId}`);
  return presentEntry(ctx.config, row);
}

/** Applies a batch in one transaction: every operation, or none when one of them cannot be done. */
export async function updateGlossary(ctx: AppContext, caller: Caller, organizationId: string, operations: readonly GlossaryOperation[]): Promise<void> {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertCanEditTranslations(access, 'Changing the translation glossary');
  const problem = glossaryBatchProblem(operations, LANGUAGES);
  if (problem) throw badRequest(problem);
  const now = isoNow(ctx.clock);
  await ctx.db.transaction().execute(async (trx) => {
    const named = operations.flatMap((operation) => (operation.type === 'insert' ? [] : [operation.id]));
    const existing = await existingGlossaryEntries(trx, organizationId, named);
    let position = await nextGlossaryPosition(trx, organizationId);
    for (const [index, operation] of operations.entries()) {
      if (operation.type === 'insert') {
        await insertGlossaryEntry(trx, { id: newId(), organization_id: organizationId, translations: JSON.stringify(operation.translations), position: position++, created_at: now, updated_at: now });
      } else if (!existing.has(operation.id)) {
        // Deleting what is already gone is done; updating it is not.
        if (operation.type === 'update') throw badRequest(`body/operations/${index}/id: no glossary entry ${operation.id} in organization ${organizationId}`);
      } else if (operation.type === 'update') {
        await updateGlossaryEntry(trx, organizationId, operation.id, JSON.stringify(operation.translations), now);
      } else {
        await deleteGlossaryEntry(trx, organizationId, operation.id);
      }
    }
    const count = await countGlossaryEntries(trx, organizationId);
    if (count > MAX_GLOSSARY_ENTRIES) throw badRequest(`body/operations: a glossary holds at most ${MAX_GLOSSARY_ENTRIES} entries; this batch would leave ${count}`);
  });
}
