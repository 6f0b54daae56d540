import type { AppContext } from '../../platform/context.ts';
import { ApiError } from '../../platform/errors.ts';
import { isoNow } from '../../platform/clock.ts';
import { newId } from '../../platform/ids.ts';
import { enqueueJob } from '../../platform/jobs.ts';
import { safeFetch } from '../../platform/safe-fetch.ts';
import { recordEvent } from '../../platform/events.ts';
import { hashOfText, type SpecProblem } from './document.ts';
import { AnalysisRunner } from './analysis-runner.ts';
import type { ProcessErrorCode } from './schemas.ts';
import { PROCESS_SPEC_JOB } from './service.ts';
import { insertVersion, lockSpec, specsDueForRefresh, updateSpec, versionHash, type SpecRow } from './store.ts';

/*
 * Processing a spec, in the job worker: `pending` (queued) -> `progress` (taken) -> `complete`. The document
 * is fetched through the SSRF-safe fetcher (FETCH_TIMEOUT_MS, OPENAPI_MAX_BYTES) or taken from the text
 * given, parsed, validated, and turned into the reader's reference; a document that differs from the latest
 * version's becomes a new version. A failure completes the processing with `lastProcessErrorCode` and the
 * problems found, and keeps the last good version: pages that render the spec go on rendering it.
 */

const ACCEPT = 'application/vnd.oai.openapi+json, application/json, application/yaml, application/x-yaml, text/yaml, text/plain;q=0.8, */*;q=0.5';
/** Specs queued for a refresh per run of the sweep. */
const REFRESH_BATCH = 20;
/** The process's analysis thread (parsing and validating happen off the event loop). */
const analyser = new AnalysisRunner();

type Outcome = { ok: true; text: string; sourceUrl: string | null } | { ok: false; code: ProcessErrorCode; problems: SpecProblem[] };

/** The job: processes the spec `specId` if it still exists. */
export async function processSpec(ctx: AppContext, specId: string): Promise<void> {
  const started = await ctx.db.transaction().execute(async (trx) => {
    const spec = await lockSpec(trx, specId);
    if (!spec) return undefined;
    const changes = { processing_state: 'progress' as const, updated_at: isoNow(ctx.clock) };
    await updateSpec(trx, spec.id, changes);
    return { ...spec, ...changes };
  });
  if (!started) return;

  const outcome = await readSource(ctx, started);
  let failure: Extract<Outcome, { ok: false }> | undefined = outcome.ok ? undefined : outcome;
  let reference: string | undefined;
  if (outcome.ok) {
    // A thread that dies on a document (out of memory, say) fails that document, not the job: a job retried
    // until it is dropped would leave the spec in `progress`.
    const analysis = await analyser
      .analyse(outcome.text, ctx.config.openapiParseTimeoutMs)
      .catch((error: unknown) => ({ ok: false as const, problems: [{ message: `Reading the document failed: ${error instanceof Error ? error.message : String(error)}`, code: 'crash' }] }));
    if (analysis.ok) reference = analysis.reference;
    else failure = { ok: false, code: 'PARSE_ERROR', problems: analysis.problems };
  }

  await ctx.db.transaction().execute(async (trx) => {
    const spec = await lockSpec(trx, specId);
    // Deleted meanwhile, or given another source: the job queued by that change processes it.
    if (!spec || spec.source_url !== started.source_url || spec.source_text !== started.source_text) return;
    const now = isoNow(ctx.clock);
    if (failure) {
      await updateSpec(trx, spec.id, {
        processing_state: 'complete',
        last_processed_at: now,
        last_error_code: failure.code,
        last_errors: JSON.stringify(failure.problems),
        updated_at: now,
      });
      return;
    }
    if (!outcome.ok || reference === undefined) return;
    const hash = hashOfText(outcome.text);
    const unchanged = spec.last_version_id !== null && (await versionHash(trx, spec.last_version_id)) === hash;
    const changes: Partial<SpecRow> = { processing_state: 'complete', last_processed_at: now, last_error_code: null, last_errors: null, updated_at: now };
    if (!unchanged) {
      const versionId = newId();
      await insertVersion(trx, {
        id: versionId,
        spec_id: spec.id,
        number: spec.version_count + 1,
        source_url: outcome.sourceUrl,
        hash,
        text: outcome.text,
        reference,
        created_at: now,
      });
      changes.last_version_id = versionId;
      changes.version_count = spec.version_count + 1;
      await recordEvent(trx, ctx.clock, 'openapi_spec_version_created', spec.organization_id, { specId: spec.id, versionId });
    }
    await updateSpec(trx, spec.id, changes);
  });
}

/** The document's text, from the URL or as given; or why it could not be had. */
async function readSource(ctx: AppContext, spec: SpecRow): Promise<Outcome> {
  if (spec.source_url === null) return { ok: true, text: spec.source_text ?? '', sourceUrl: null };
  const url = spec.source_url;
  try {
    const response = await safeFetch(ctx.config, url, { maxBytes: ctx.config.openapiMaxBytes, accept: ACCEPT });
    if (response.status < 200 || response.status >= 300) {
      return { ok: false, code: 'FETCH_ERROR', problems: [{ message: `${url} answered HTTP ${response.status}`, code: `http-${response.status}` }] };
    }
    const text = response.body.toString('utf8').replace(/^\uFEFF/, '');
    return { ok: true, text, sourceUrl: response.url };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // safe-fetch words its refusals for the caller; a timeout is the one the spec names apart.
    const timedOut = error.statusCode === 422 && /no complete answer within/.test(error.message);
    const code = timedOut ? 'timeout' : error.statusCode === 413 ? 'too-large' : error.statusCode === 400 ? 'refused' : 'unreachable';
    return { ok: false, code: timedOut ? 'FETCH_TIMEOUT' : 'FETCH_ERROR', problems: [{ message: error.message, code }] };
  }
}

/**
 * The sweep: URL specs processed longer than OPENAPI_REFRESH_INTERVAL_MS ago are queued again, a batch per
 * run, longest-waiting first. Each fetch makes a version only if the document changed.
 */
export async function refreshOpenAPISpecs(ctx: AppContext): Promise<number> {
  const interval = ctx.config.openapiRefreshIntervalMs;
  if (interval <= 0) return 0;
  const before = new Date(ctx.clock.now().getTime() - interval).toISOString();
  const due = await specsDueForRefresh(ctx.db, before, REFRESH_BATCH);
  for (const spec of due) {
    await ctx.db.transaction().execute(async (trx) => {
      const current = await lockSpec(trx, spec.id);
      if (!current || current.processing_state !== 'complete') return;
      await updateSpec(trx, spec.id, { processing_state: 'pending', updated_at: isoNow(ctx.clock) });
      await enqueueJob(ctx, trx, PROCESS_SPEC_JOB, { specId: spec.id });
    });
  }
  return due.length;
}
