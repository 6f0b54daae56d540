import { createHash } from 'node:crypto';
import type { AppContext, Caller } from '../../platform/context.ts';
import { isoNow } from '../../platform/clock.ts';
import { recordEvent } from '../../platform/events.ts';
import { createSpace } from '../spaces/service.ts';
import { findSpace, type SpaceRow } from '../spaces/queries.ts';
import { commitLiveChanges, readPublishedContent, readPublishedDocument } from '../content/service.ts';
import type { PageNode } from '../content/tree.ts';
import type { PageRecord } from '../content/pages.ts';
import { countWords, rewriteRefs, textsOf, withTexts } from './document-text.ts';
import { languagesOf } from './present.ts';
import { glossaryTerms, protectTerms, type GlossaryTranslations } from './glossary.ts';
import { glossaryTranslations } from './glossary-service.ts';
import { configuredProvider, type TranslationProvider } from './provider.ts';
import {
  findTarget,
  findTranslationById,
  pagesOfTarget,
  replacePagesOfTarget,
  updateTranslation,
  upsertTarget,
  withRunLock,
  type TranslationPageRow,
  type TranslationRow,
} from './store.ts';

/** Attempts of one run before it is given up (the job worker's own limit is higher). */
export const RUN_ATTEMPTS = 5;

/** A failure that no retry can fix (the source space is gone): the run ends at once. */
class FinalFailure extends Error {}

interface RunTally {
  pages: number;
  words: number;
}

/**
 * The job of a translation run: for each target language, the target space is created when missing, then new
 * and changed pages of the source are written to it and pages removed from the source are removed. With a
 * provider, texts are translated; without one, the source text is copied and the page flagged for a human.
 * A page a person translated since the last run is never overwritten: when its source changes it is flagged
 * `outdated` instead. A failed attempt is recorded on the translation and retried by the job worker.
 */
export async function runTranslationJob(ctx: AppContext, payload: unknown): Promise<void> {
  const translationId = (payload as { translationId?: unknown } | null)?.translationId;
  if (typeof translationId !== 'string') return;
  const row = await findTranslationById(ctx.db, translationId);
  // Every queued job runs, even when the row says `completed`: settings changed during a run queue another,
  // which must not be taken for done. A run with nothing new writes nothing.
  if (!row || !row.source_space_id) return;
  const ran = await withRunLock(ctx.db, row.id, async () => {
    // Read again under the lock: a run that just finished elsewhere moved the counters.
    const current = await findTranslationById(ctx.db, row.id);
    if (current?.source_space_id) await runTranslation(ctx, current);
  });
  // The job worker retries later; the run that holds the lock is not disturbed and this try is not counted.
  if (!ran) throw new Error(`Translation ${row.id} is being run by another process; this run waits for it to end`);
}

async function runTranslation(ctx: AppContext, row: TranslationRow): Promise<void> {
  const started = ctx.clock.now();
  await updateTranslation(ctx.db, row.id, { status: 'running' });
  try {
    const tally = await runAllLanguages(ctx, row);
    const seconds = Math.round((ctx.clock.now().getTime() - started.getTime()) / 1000);
    await ctx.db.transaction().execute(async (trx) => {
      await updateTranslation(trx, row.id, {
        status: 'completed',
        last_error: null,
        run_attempts: 0,
        runs: row.runs + 1,
        total_words: row.total_words + tally.words,
        total_pages: row.total_pages + tally.pages,
        total_duration: row.total_duration + seconds,
        latest_run_duration: seconds,
        latest_pages: tally.pages,
        latest_words: tally.words,
        last_run_at: isoNow(ctx.clock),
      });
      await recordEvent(trx, ctx.clock, 'translation_run_completed', row.organization_id, { translationId: row.id });
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const attempts = row.run_attempts + 1;
    const final = error instanceof FinalFailure || attempts >= RUN_ATTEMPTS;
    // Still there? A translation deleted during its run has nothing to record.
    if (!(await findTranslationById(ctx.db, row.id))) return;
    await updateTranslation(ctx.db, row.id, { status: final ? 'completed' : 'pending', last_error: message, run_attempts: attempts, last_run_at: isoNow(ctx.clock) });
    if (!final) throw error;
  }
}

async function runAllLanguages(ctx: AppContext, row: TranslationRow): Promise<RunTally> {
  const source = await findSpace(ctx.db, row.source_space_id!);
  if (!source || source.deleted_at) throw new FinalFailure(`The source space ${row.source_space_id} was deleted`);
  // Runs act for the person who set the translation up: their rights decide where spaces may be created.
  const caller: Caller = { kind: 'user', userId: row.created_by, tokenId: `translation:${row.id}` };
  const provider = configuredProvider(ctx);
  const glossary = provider ? await glossaryTranslations(ctx, row.organization_id) : [];
  const tally: RunTally = { pages: 0, words: 0 };
  for (const language of languagesOf(row)) {
    const result = await runLanguage(ctx, caller, row, source, language, provider, glossary);
    tally.pages += result.pages;
    tally.words += result.words;
  }
  return tally;
}

/** Source pages parents first (document and group pages; link pages have nothing to translate). */
function flatten(nodes: readonly PageNode[], parentId: string | null, out: { page: PageRecord; parentId: string | null }[] = []) {
  for (const node of nodes) {
    if (node.page.kind === 'link') continue;
    out.push({ page: node.page, parentId });
    flatten(node.children, node.page.id, out);
  }
  return out;
}

function sourceFingerprint(page: PageRecord, parentId: string | null): string {
  return digest([page.kind, page.title, page.attributes.description ?? '', page.documentId ?? '', parentId ?? ''].join('\u0000'));
}

/** What the run wrote to a target page, to tell a later human edit apart. */
function writtenFingerprint(page: Pick<PageRecord, 'title' | 'attributes' | 'documentId'>): string {
  return digest([page.title, page.attributes.description ?? '', page.documentId ?? ''].join('\u0000'));
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 32);
}

async function targetSpaceFor(ctx: AppContext, caller: Caller, row: TranslationRow, source: SpaceRow, language: string): Promise<{ space: SpaceRow; fresh: boolean }> {
  const target = await findTarget(ctx.db, row.id, language);
  const existing = target && (await findSpace(ctx.db, target.space_id));
  if (existing && !existing.deleted_at) return { space: existing, fresh: false };
  const title = `${source.title} (${language})`.slice(0, 50);
  const created = await createSpace(ctx, caller, row.organization_id, {
    title,
    language: language as never,
    ...(source.parent_id ? { parent: source.parent_id } : {}),
    ...(source.parent_id && source.visibility === 'in-collection' ? { visibility: 'in-collection' as const } : {}),
  });
  const space = await findSpace(ctx.db, created.id);
  if (!space) throw new Error(`The target space for ${language} vanished as it was created`);
  await upsertTarget(ctx.db, { translation_id: row.id, language, space_id: space.id, revision_id: null, pages_to_translate: 0 });
  return { space, fresh: true };
}

async function runLanguage(
  ctx: AppContext,
  caller: Caller,
  row: TranslationRow,
  source: SpaceRow,
  language: string,
  provider: TranslationProvider | undefined,
  glossary: readonly GlossaryTranslations[],
): Promise<RunTally> {
  const { space: target, fresh } = await targetSpaceFor(ctx, caller, row, source, language);
  const sourceContent = await readPublishedContent(ctx, source.revision_id);
  const targetPages = new Map((await readPublishedContent(ctx, target.revision_id)).tree.flatMap(function all(n: PageNode): [string, PageRecord][] {
    return [[n.page.id, n.page], ...n.children.flatMap(all)];
  }));
  const known = new Map(fresh ? [] : (await pagesOfTarget(ctx.db, row.id, language)).map((p) => [p.source_page_id, p]));
  const pages = flatten(sourceContent.tree, null);
  const sourceIds = new Set(pages.map((p) => p.page.id));
  const now = isoNow(ctx.clock);

  const isNew = (id: string) => {
    const record = known.get(id);
    return !record || !targetPages.has(record.target_page_id);
  };

  // First the texts: pages new to the target, and changed pages no person has edited there, are translated (the
  // network part) before anything is written, so a failed provider call leaves the target as it was.
  const sourceLanguage = row.source_language ?? source.language ?? 'auto';
  const terms = glossaryTerms(glossary, sourceLanguage, language);
  const tally: RunTally = { pages: 0, words: 0 };
  const states = new Map<string, string>();
  const toWrite: { page: PageRecord; title: string; description: string; document: unknown }[] = [];
  for (const { page, parentId } of pages) {
    const record = known.get(page.id);
    const created = isNew(page.id);
    if (!created && record!.source_fingerprint === sourceFingerprint(page, parentId)) {
      states.set(page.id, record!.state);
      continue;
    }
    const current = created ? undefined : targetPages.get(record!.target_page_id);
    if (current && writtenFingerprint(current) !== record!.written_fingerprint) {
      states.set(page.id, 'outdated');
      continue;
    }
    const document = page.documentId ? await readPublishedDocument(ctx, page.documentId) : undefined;
    const texts = [page.title, page.attributes.description ?? '', ...(document ? textsOf(document) : [])];
    let out = texts;
    if (provider) {
      const nonEmpty = texts.map((t, i) => [t, i] as const).filter(([t]) => t.trim() !== '');
      // The glossary's terms travel as markers the provider leaves alone, and come back as the target's terms.
      const glossed = protectTerms(nonEmpty.map(([t]) => t), terms);
      const translated = glossed.restore(await provider.translate(glossed.texts, sourceLanguage, language));
      out = [...texts];
      nonEmpty.forEach(([, i], k) => (out[i] = translated[k] ?? texts[i]!));
    }
    const [title, description, ...body] = out;
    tally.pages += 1;
    tally.words += countWords(texts);
    states.set(page.id, provider ? 'translated' : 'needs-translation');
    toWrite.push({ page, title: title ?? '', description: description ?? '', document: document ? withTexts(document, body) : undefined });
  }

  // Pages new to the target are created empty, parents first, so that every page has its id in the target
  // before documents that link to each other are written; they are recorded at once, so a run that fails
  // after this point finds them again instead of creating them twice.
  const inserts = pages
    .filter(({ page }) => isNew(page.id))
    .map(({ page, parentId }) => ({
      operation: 'insert_page' as const,
      ref: page.id,
      title: page.title,
      ...(parentId ? { into: isNew(parentId) ? parentId : known.get(parentId)!.target_page_id } : {}),
      document: {},
    }));
  const ids = new Map<string, string>();
  for (const [id, record] of known) if (targetPages.has(record.target_page_id)) ids.set(id, record.target_page_id);
  if (inserts.length > 0) {
    const { batch } = await commitLiveChanges(ctx, caller, target, inserts, new Map(), { translationId: row.id, language });
    for (const outcome of batch.outcomes) if (outcome.object === 'created_page' && outcome.ref) ids.set(outcome.ref, outcome.id);
    const recorded: TranslationPageRow[] = [];
    for (const { page } of pages) {
      const targetId = ids.get(page.id);
      if (!targetId) continue;
      const previous = known.get(page.id);
      recorded.push(
        previous && !isNew(page.id)
          ? previous
          : {
              translation_id: row.id,
              language,
              source_page_id: page.id,
              target_page_id: targetId,
              // Never a real fingerprint: the page counts as changed until its document is written.
              source_fingerprint: '',
              written_fingerprint: writtenFingerprint({ title: page.title, attributes: {}, documentId: null }),
              state: 'needs-translation',
              updated_at: now,
            },
      );
    }
    await replacePagesOfTarget(ctx.db, row.id, language, recorded);
  }

  // Then the documents, with references pointing into the target; and pages removed from the source go.
  const files = new Map([...sourceContent.files].map(([id, f]) => [id, f.href]));
  const changes: Record<string, unknown>[] = toWrite.map(({ page, title, description, document }) => ({
    operation: 'update_page',
    page: ids.get(page.id)!,
    title: title.trim().slice(0, 500) || page.title,
    ...(page.attributes.description ? { description: description.slice(0, 1000) } : {}),
    document: document ? { document: rewriteRefs(document, { pages: ids, files }) } : {},
  }));
  for (const [sourceId, record] of known) {
    if (!sourceIds.has(sourceId) && targetPages.has(record.target_page_id)) changes.push({ operation: 'delete_page', page: record.target_page_id });
  }
  let revisionId = target.revision_id;
  if (changes.length > 0) {
    const { revision } = await commitLiveChanges(ctx, caller, target, changes as never, new Map(), { translationId: row.id, language });
    revisionId = revision.id;
  }

  // What was written, read back: the fingerprints that tell the next run whether a person edited a page.
  const written = new Map((await readPublishedContent(ctx, revisionId)).tree.flatMap(function all(n: PageNode): [string, PageRecord][] {
    return [[n.page.id, n.page], ...n.children.flatMap(all)];
  }));
  const records: TranslationPageRow[] = [];
  for (const { page, parentId } of pages) {
    const targetId = ids.get(page.id);
    const targetPage = targetId ? written.get(targetId) : undefined;
    if (!targetId || !targetPage) continue;
    const previous = known.get(page.id);
    const state = states.get(page.id) ?? 'needs-translation';
    // An outdated page keeps what it was last written from, so it stays flagged until a run rewrites it.
    const keep = state === 'outdated' && previous;
    records.push({
      translation_id: row.id,
      language,
      source_page_id: page.id,
      target_page_id: targetId,
      source_fingerprint: keep ? previous.source_fingerprint : sourceFingerprint(page, parentId),
      written_fingerprint: keep ? previous.written_fingerprint : writtenFingerprint(targetPage),
      state,
      updated_at: now,
    });
  }
  await ctx.db.transaction().execute(async (trx) => {
    await replacePagesOfTarget(trx, row.id, language, records);
    await upsertTarget(trx, {
      translation_id: row.id,
      language,
      space_id: target.id,
      revision_id: revisionId,
      pages_to_translate: records.filter((r) => r.state !== 'translated').length,
    });
  });
  return tally;
}
