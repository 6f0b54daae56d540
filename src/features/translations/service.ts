import { type AppContext, type Caller, authorOf } from '../../platform/context.ts';
import { badRequest, isNotFound, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { isoNow } from '../../platform/clock.ts';
import { recordEvent } from '../../platform/events.ts';
import { enqueueJob } from '../../platform/jobs.ts';
import type { Executor } from '../../db/types.ts';
import { OrgAccess } from '../access/service.ts';
import { loadSpace } from '../spaces/service.ts';
import { assertCanEditTranslations, assertCanViewTranslations, translationPermissions } from './policy.ts';
import { languagesOf, presentTranslation } from './present.ts';
import type { TranslationSettingsBody } from './schemas.ts';
import {
  countTranslationPages,
  countTranslations,
  deleteTranslation,
  findTranslation,
  insertTranslation,
  listTranslationPages,
  listTranslations,
  targetsOf,
  updateTranslation,
  type TranslationRow,
} from './store.ts';

export const TRANSLATION_RUN_JOB = 'translation-run';

async function presentRows(ctx: AppContext, access: OrgAccess, rows: readonly TranslationRow[]) {
  const targets = await targetsOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  const permissions = translationPermissions(access);
  return new Map(rows.map((row) => [row.id, presentTranslation(ctx.config, row, targets.filter((t) => t.translation_id === row.id), permissions)]));
}

async function presentOne(ctx: AppContext, access: OrgAccess, row: TranslationRow) {
  return (await presentRows(ctx, access, [row])).get(row.id)!;
}

async function loadTranslation(ctx: AppContext, caller: Caller, organizationId: string, translationId: string) {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertCanViewTranslations(access);
  const row = await findTranslation(ctx.db, organizationId, translationId);
  if (!row) throw notFound(`No translation ${translationId} in organization ${organizationId}`);
  return { access, row };
}

function cleanTitle(title: string): string {
  const trimmed = title.trim();
  if (trimmed.length === 0) throw badRequest('body/title must NOT have fewer than 1 characters');
  return trimmed;
}

/** The settings a body gives: `language` (the official single target) joins `languages`; the source must be a space of the organization. */
async function settingsOf(ctx: AppContext, caller: Caller, organizationId: string, body: TranslationSettingsBody, current?: TranslationRow) {
  let languages = body.languages ? [...body.languages] : current ? languagesOf(current) : [];
  if (body.language && !languages.includes(body.language)) languages = [body.language, ...languages];
  let source = current?.source_space_id ? { space: current.source_space_id, language: current.source_language ?? 'en' } : undefined;
  if (body.source) {
    try {
      const { space } = await loadSpace(ctx, caller, body.source.space);
      if (space.organization_id !== organizationId) throw notFound('elsewhere');
    } catch (error) {
      if (isNotFound(error)) throw badRequest(`body/source/space: no space ${body.source.space} in organization ${organizationId}`);
      throw error;
    }
    source = body.source;
  }
  if (source && languages.includes(source.language)) {
    throw badRequest(`body/languages: "${source.language}" is the source language; a translation needs other target languages`);
  }
  return {
    title: cleanTitle(body.title),
    languages,
    source,
    instructions: body.instructions ? JSON.stringify(body.instructions) : (current?.instructions ?? null),
  };
}

function canRun(row: Pick<TranslationRow, 'source_space_id' | 'languages'>): boolean {
  return row.source_space_id !== null && languagesOf(row).length > 0;
}

/** Queues a run in the transaction of the change that asks for it; the row says `pending` until it starts. */
async function queueRun(ctx: AppContext, trx: Executor, row: TranslationRow): Promise<void> {
  await updateTranslation(trx, row.id, { status: 'pending', run_attempts: 0, last_error: null });
  await enqueueJob(ctx, trx, TRANSLATION_RUN_JOB, { translationId: row.id });
  row.status = 'pending';
  row.run_attempts = 0;
  row.last_error = null;
}

export async function listTranslationsOfOrganization(ctx: AppContext, caller: Caller, organizationId: string, query: { page?: string | undefined; limit?: number | undefined }) {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertCanViewTranslations(access);
  const listKey = `translations:${organizationId}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const [rows, count] = await Promise.all([listTranslations(ctx.db, organizationId, page), countTranslations(ctx.db, organizationId)]);
  const presented = await presentRows(ctx, access, rows.slice(0, page.limit));
  return ctx.cursors.close(listKey, page, rows, count, (row) => [row.created_at, row.id], (row) => presented.get(row.id)!);
}

export async function createTranslation(ctx: AppContext, caller: Caller, organizationId: string, body: TranslationSettingsBody) {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertCanEditTranslations(access, 'Creating a translation');
  const settings = await settingsOf(ctx, caller, organizationId, body);
  const now = isoNow(ctx.clock);
  const row: TranslationRow = {
    id: newId(),
    organization_id: organizationId,
    title: settings.title,
    languages: JSON.stringify(settings.languages),
    source_space_id: settings.source?.space ?? null,
    source_language: settings.source?.language ?? null,
    instructions: settings.instructions,
    status: 'pending',
    last_error: null,
    run_attempts: 0,
    runs: 0,
    total_words: 0,
    total_pages: 0,
    total_duration: 0,
    latest_run_duration: 0,
    latest_pages: 0,
    latest_words: 0,
    last_run_at: null,
    created_by: authorOf(caller),
    created_at: now,
    updated_at: now,
  };
  await ctx.db.transaction().execute(async (trx) => {
    await insertTranslation(trx, row);
    if (canRun(row)) await queueRun(ctx, trx, row);
    await recordEvent(trx, ctx.clock, 'translation_created', organizationId, { translationId: row.id });
  });
  return presentOne(ctx, access, row);
}

export async function getTranslation(ctx: AppContext, caller: Caller, organizationId: string, translationId: string) {
  const { access, row } = await loadTranslation(ctx, caller, organizationId, translationId);
  return presentOne(ctx, access, row);
}

/** New settings; a change of source or languages queues a run, so the targets follow. */
export async function updateTranslationSettings(ctx: AppContext, caller: Caller, organizationId: string, translationId: string, body: TranslationSettingsBody) {
  const { access, row } = await loadTranslation(ctx, caller, organizationId, translationId);
  assertCanEditTranslations(access, 'Changing a translation');
  const settings = await settingsOf(ctx, caller, organizationId, body, row);
  const changes = {
    title: settings.title,
    languages: JSON.stringify(settings.languages),
    source_space_id: settings.source?.space ?? null,
    source_language: settings.source?.language ?? null,
    instructions: settings.instructions,
    updated_at: isoNow(ctx.clock),
  };
  const rerun = changes.languages !== row.languages || changes.source_space_id !== row.source_space_id || changes.source_language !== row.source_language;
  const updated = { ...row, ...changes };
  await ctx.db.transaction().execute(async (trx) => {
    await updateTranslation(trx, row.id, changes);
    if (rerun && canRun(updated)) await queueRun(ctx, trx, updated);
    await recordEvent(trx, ctx.clock, 'translation_updated', organizationId, { translationId: row.id });
  });
  return presentOne(ctx, access, updated);
}

/** The target spaces stay: they are content of their own, deleted like any space. */
export async function removeTranslation(ctx: AppContext, caller: Caller, organizationId: string, translationId: string): Promise<void> {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  // In an organization the caller cannot see there is no translation for them to delete: 204, as for any missing target.
  if (!access.isMember) return;
  assertCanEditTranslations(access, 'Deleting a translation');
  const row = await findTranslation(ctx.db, organizationId, translationId);
  if (!row) return;
  await ctx.db.transaction().execute(async (trx) => {
    await deleteTranslation(trx, organizationId, row.id);
    await recordEvent(trx, ctx.clock, 'translation_deleted', organizationId, { translationId: row.id });
  });
}

/** runTranslation: queues a run now; a run already waiting is not queued twice. */
export async function requestTranslationRun(ctx: AppContext, caller: Caller, organizationId: string, translationId: string): Promise<void> {
  const { access, row } = await loadTranslation(ctx, caller, organizationId, translationId);
  assertCanEditTranslations(access, 'Running a translation');
  if (!canRun(row)) throw badRequest(`Translation ${translationId} has no source space or no target languages: set source and languages first`);
  if (row.status === 'pending' && row.last_error === null) return;
  await ctx.db.transaction().execute(async (trx) => queueRun(ctx, trx, row));
}

/** listTranslationPages (an extension): each copied page with its state, so people find what to translate. */
export async function listPagesOfTranslation(
  ctx: AppContext,
  caller: Caller,
  organizationId: string,
  translationId: string,
  query: { page?: string | undefined; limit?: number | undefined; language?: string | undefined; state?: string | undefined },
) {
  const { row } = await loadTranslation(ctx, caller, organizationId, translationId);
  const filter = { translationId: row.id, language: query.language, state: query.state };
  const listKey = `translation-pages:${row.id}:${query.language ?? ''}:${query.state ?? ''}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const [rows, count, targets] = await Promise.all([listTranslationPages(ctx.db, filter, page), countTranslationPages(ctx.db, filter), targetsOf(ctx.db, [row.id])]);
  const spaceOf = new Map(targets.map((t) => [t.language, t.space_id]));
  return ctx.cursors.close(listKey, page, rows, count, (r) => [r.language, r.source_page_id], (r) => ({
    object: 'translation-page' as const,
    language: r.language,
    sourcePage: r.source_page_id,
    space: spaceOf.get(r.language) ?? '',
    page: r.target_page_id,
    state: r.state as 'translated' | 'needs-translation' | 'outdated',
    updatedAt: r.updated_at,
  }));
}
