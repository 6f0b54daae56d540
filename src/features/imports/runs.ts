import type { Config } from '../../config.ts';
import { type AppContext, type Caller, authorOf } from '../../platform/context.ts';
import { ApiError, badRequest, notFound } from '../../platform/errors.ts';
import { isoNow } from '../../platform/clock.ts';
import { newId } from '../../platform/ids.ts';
import { enqueueJob, queuedJobs } from '../../platform/jobs.ts';
import { deleteInBatches } from '../../platform/batched-delete.ts';
import { apiUrl } from '../../platform/urls.ts';
import { OrgAccess } from '../access/service.ts';
import { assertOrganizationVisible } from '../organizations/policy.ts';
import { findRevision } from '../content/revisions.ts';
import { Snapshot } from '../content/snapshot.ts';
import { fileDownloadUrl } from '../files/service.ts';
import { spaceIdsOf } from '../spaces/queries.ts';
import { assertCanEditContent } from '../spaces/policy.ts';
import { loadSpace } from '../spaces/service.ts';
import { authorizeImport, performImport, type ImportInput, type ImportTarget, type SourceFile, type SourceFileKind } from './service.ts';
import { parseImportUrl } from './source-url.ts';
import type { ContentImportRun, ListImportRunsQuery, StartImportRunBody } from './run-schemas.ts';
import { countImportRuns, deleteImportRunsUpdatedBefore, findImportRun, findImportRunById, importRunIdsWithStatus, insertImportRun, listImportRuns, lockImportRun, updateImportRun, type ImportRunFilter, type ImportRunRow } from './run-store.ts';

/*
 * Import runs: an import done by a job rather than inside the request (startImportRun answers at once with a
 * `pending` run). The request checks the rights and the source, stores the run and queues its job in one
 * transaction; the job reads the source, converts it and writes ONE revision exactly as importContent does,
 * and in that same transaction marks the run `completed` with the revision and its pages. A run cancelled
 * meanwhile makes that transaction roll back, so a cancelled run writes nothing; a job that dies mid-run is
 * claimed again by the worker and redoes the import only if the run is not completed (the write and the status
 * are one transaction, so it is never written twice).
 *
 * A file key is the id of a file in the target's content (the space's, or the change request's), uploaded there
 * with an `insert_files` change (base64 or a URL): its bytes are already stored, and its name and media type say
 * what it is. See docs/operations.md.
 */

export const IMPORT_RUN_JOB = 'import-run';

const ACTIVE = ['pending', 'in-progress'] as const;
/** The statuses a run ends in: it is never updated again, so its `updated_at` is when it finished. */
const FINISHED = ['completed', 'failed', 'cancelled'] as const;

/**
 * How long a finished run is kept (by when it finished): a caller polling getImportRun, or listing what was
 * imported, has months to read the result; then the run goes, since nothing else ever deletes one. Not a
 * setting: no other retention is one either (processed outbox rows, deleted spaces).
 */
export const IMPORT_RUN_RETENTION_MS = 90 * 24 * 60 * 60 * 1000;
/** Runs deleted per statement, and statements per sweep (platform/batched-delete.ts). */
const PURGE_BATCH = 500;
const PURGE_BATCHES_PER_RUN = 20;

/** A file of a run, resolved when the run starts: the job reads its bytes from the blob store. */
interface RunFile {
  key: string;
  name: string;
  hash: string;
  contentType: string;
  kind: SourceFileKind;
}

interface RunJob {
  runId: string;
  files?: RunFile[];
}

class RunStopped extends Error {}

function targetOf(target: StartImportRunBody['target']): ImportTarget {
  return target.changeRequest
    ? { kind: 'change-request', spaceId: target.space, changeRequestId: target.changeRequest, pageId: target.page }
    : { kind: 'space', spaceId: target.space, pageId: target.page };
}

function targetOfRow(row: ImportRunRow): ImportTarget {
  return targetOf({ space: row.space_id, ...(row.change_request_id ? { changeRequest: row.change_request_id } : {}), ...(row.page_id ? { page: row.page_id } : {}) });
}

/**
 * What kind of document a file is: by its name's extension first (a Word document is a zip archive to whoever
 * sniffs its bytes), else by its media type.
 */
export function fileKindOf(name: string, contentType: string): SourceFileKind | undefined {
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  if (extension === 'md' || extension === 'markdown' || extension === 'mdx') return 'markdown';
  if (extension === 'html' || extension === 'htm' || extension === 'xhtml') return 'html';
  if (extension === 'docx') return 'docx';
  if (extension === 'zip') return 'zip';
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'text/markdown' || type === 'text/x-markdown' || type === 'text/plain') return 'markdown';
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'application/vnd.openxmlformats-officedocument.wordprocessingml.document') return 'docx';
  if (type === 'application/zip' || type === 'application/x-zip-compressed') return 'zip';
  return undefined;
}

/** The files of a `file` source, found in the content imported into; 400 naming each key that is not one. */
async function resolveFiles(ctx: AppContext, revisionId: string, keys: readonly string[]): Promise<RunFile[]> {
  const revision = await findRevision(ctx.db, revisionId);
  const snapshot = revision && (await Snapshot.of(ctx.db, revision));
  const files: RunFile[] = [];
  for (const [i, key] of keys.entries()) {
    const file = snapshot && (await snapshot.file(key));
    if (!file) throw badRequest(`body/source/files/${i}: no file "${key}" in the content imported into; upload it first (an insert_files change) and give its id`);
    const kind = fileKindOf(file.name, file.content_type);
    if (!kind) throw badRequest(`body/source/files/${i}: "${file.name}" (${file.content_type}) is not a markdown, HTML, Word (.docx) or zip file`);
    files.push({ key, name: file.name, hash: file.blob_hash, contentType: file.content_type, kind });
  }
  if (new Set(keys).size !== keys.length) throw badRequest('body/source/files: a file is listed twice');
  if (files.length > 1 && files.some((f) => f.kind === 'zip')) throw badRequest('body/source/files: a zip archive is imported on its own, not with other files');
  return files;
}

/**
 * startImportRun: the same checks as importContent (404 for a target the caller cannot see, 403 when they may
 * not write it), then the run, `pending`, and its job, in one transaction.
 */
export async function startImportRun(ctx: AppContext, caller: Caller, organizationId: string, body: StartImportRunBody): Promise<ContentImportRun> {
  const target = targetOf(body.target);
  const place = await authorizeImport(ctx, caller, target);
  if (place.space.organization_id !== organizationId) throw notFound(`No space ${body.target.space} in organization ${organizationId}`);
  let files: RunFile[] | undefined;
  if (body.source.type === 'website') parseImportUrl(body.source.url, 'body/source/url');
  else files = await resolveFiles(ctx, place.revisionId, body.source.files);

  const now = isoNow(ctx.clock);
  const row: ImportRunRow = {
    id: newId(),
    organization_id: organizationId,
    space_id: place.space.id,
    change_request_id: place.cr?.id ?? null,
    page_id: target.pageId ?? null,
    source: JSON.stringify(body.source),
    status: 'pending',
    progress: null,
    imported_resources: 0,
    total_resources: 0,
    revision_id: null,
    pages: '[]',
    error: null,
    caller: JSON.stringify(storedCaller(caller)),
    created_by: authorOf(caller),
    created_at: now,
    started_at: null,
    completed_at: null,
    updated_at: now,
  };
  const job: RunJob = { runId: row.id, ...(files ? { files } : {}) };
  await ctx.db.transaction().execute(async (trx) => {
    await insertImportRun(trx, row);
    await enqueueJob(ctx, trx, IMPORT_RUN_JOB, job);
  });
  return presentImportRun(ctx.config, row);
}

/** The caller the job acts as, without the token it called with (the job must not depend on it staying valid). */
function storedCaller(caller: Caller): Caller {
  return caller.kind === 'user' ? { kind: 'user', userId: caller.userId, tokenId: '' } : { ...caller, tokenId: '' };
}

/** A run the caller may see: of the organization, into a space they can see; 404 otherwise. */
async function loadImportRun(ctx: AppContext, caller: Caller, organizationId: string, importRunId: string): Promise<ImportRunRow> {
  const row = await findImportRun(ctx.db, organizationId, importRunId);
  const missing = () => notFound(`No import run ${importRunId} in organization ${organizationId}`);
  if (!row) throw missing();
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  if (!access.isMember) throw missing();
  const scope = await access.readableScope();
  if (!scope.everything && !(await spaceIdsOf(ctx.db, { organizationId, scope })).includes(row.space_id)) throw missing();
  return row;
}

/** getImportRun. */
export async function getImportRun(ctx: AppContext, caller: Caller, organizationId: string, importRunId: string): Promise<ContentImportRun> {
  return presentImportRun(ctx.config, await loadImportRun(ctx, caller, organizationId, importRunId));
}

/** listImportRuns: the organization's runs into spaces the caller can see, newest first. */
export async function listImportRunsOfOrganization(ctx: AppContext, caller: Caller, organizationId: string, query: ListImportRunsQuery) {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertOrganizationVisible(access);
  const scope = await access.readableScope();
  const filter: ImportRunFilter = {
    organizationId,
    spaceId: query.space,
    changeRequestId: query.changeRequest,
    statuses: query.status === 'active' ? ACTIVE : query.status ? [query.status] : undefined,
    visibleSpaceIds: scope.everything ? undefined : await spaceIdsOf(ctx.db, { organizationId, scope }),
  };
  const listKey = `import-runs:${organizationId}:${query.space ?? ''}:${query.changeRequest ?? ''}:${query.status ?? ''}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const [rows, count] = await Promise.all([listImportRuns(ctx.db, filter, page), countImportRuns(ctx.db, filter)]);
  return ctx.cursors.close(listKey, page, rows, count, (row) => [row.created_at, row.id], (row) => presentImportRun(ctx.config, row));
}

/**
 * cancelImportRun: a pending or in-progress run becomes `cancelled` and its job writes nothing. Cancelling needs
 * the right to write the target (the right to start the run); a run that ended answers 400 (the spec declares
 * 400 and 404), one already cancelled is answered as it is.
 */
export async function cancelImportRun(ctx: AppContext, caller: Caller, organizationId: string, importRunId: string): Promise<ContentImportRun> {
  const row = await loadImportRun(ctx, caller, organizationId, importRunId);
  // The role that may write the space's content, whatever became of the target since (a space locked or a
  // change request merged meanwhile makes the run fail; it can still be cancelled first).
  const { role } = await loadSpace(ctx, caller, row.space_id);
  assertCanEditContent(role, 'live');
  const cancelled = await ctx.db.transaction().execute(async (trx) => {
    const current = await lockImportRun(trx, row.id);
    if (!current) throw notFound(`No import run ${importRunId} in organization ${organizationId}`);
    if (current.status === 'cancelled') return current;
    if (current.status !== 'pending' && current.status !== 'in-progress') {
      throw badRequest(`Import run ${importRunId} is ${current.status}: only a pending or in-progress run can be cancelled`);
    }
    const patch = { status: 'cancelled', progress: null, updated_at: isoNow(ctx.clock) };
    await updateImportRun(trx, row.id, ACTIVE, patch);
    return { ...current, ...patch };
  });
  return presentImportRun(ctx.config, cancelled);
}

/** The input of a run's import: the website, or the files' bytes from the blob store. */
function inputOf(ctx: AppContext, row: ImportRunRow, job: RunJob): ImportInput {
  const source = JSON.parse(row.source) as StartImportRunBody['source'];
  if (source.type === 'website') return { kind: 'website', url: source.url };
  return {
    kind: 'files',
    load: async () => {
      const files: SourceFile[] = [];
      for (const file of job.files ?? []) {
        const bytes = await ctx.blobs.get(file.hash);
        if (!bytes) throw new ApiError(422, `The bytes of file "${file.name}" (${file.key}) are no longer stored`);
        files.push({ kind: file.kind, url: fileDownloadUrl(ctx.config, file.hash, file.name), contentType: file.contentType, bytes });
      }
      return files;
    },
  };
}

/** The job of startImportRun. */
export async function runImportJob(ctx: AppContext, raw: unknown): Promise<void> {
  const job = raw as RunJob;
  const row = await findImportRunById(ctx.db, job.runId);
  // Cancelled while it waited, or completed by an earlier attempt of this job: nothing to do.
  if (!row || !(ACTIVE as readonly string[]).includes(row.status)) return;
  const started = isoNow(ctx.clock);
  if (!(await updateImportRun(ctx.db, row.id, ACTIVE, { status: 'in-progress', started_at: row.started_at ?? started, progress: 'queued', updated_at: started }))) return;
  try {
    await performImport(ctx, JSON.parse(row.caller) as Caller, targetOfRow(row), inputOf(ctx, row, job), {
      event: { import: { run: row.id, source: (JSON.parse(row.source) as { type: string }).type } },
      progress: async (step) => {
        await updateImportRun(ctx.db, row.id, ['in-progress'], { progress: step, updated_at: isoNow(ctx.clock) });
      },
      alsoWrite: async (trx, outcome) => {
        // Under the run's lock: a cancel that landed first rolls the whole import back.
        const current = await lockImportRun(trx, row.id);
        if (current?.status !== 'in-progress') throw new RunStopped();
        const now = isoNow(ctx.clock);
        await updateImportRun(trx, row.id, ['in-progress'], {
          status: 'completed',
          progress: null,
          revision_id: outcome.revision,
          pages: JSON.stringify(outcome.pages),
          imported_resources: outcome.importedResources,
          total_resources: outcome.totalResources,
          completed_at: now,
          updated_at: now,
        });
      },
    });
  } catch (error) {
    if (error instanceof RunStopped) return;
    // The source or the target refused the import (a fetch answering 404, an archive that is not one, rights
    // lost meanwhile): retrying would fail the same way, so the run fails with the reason.
    const reason = error instanceof Error ? error.message : String(error);
    await updateImportRun(ctx.db, row.id, ACTIVE, { status: 'failed', error: reason, progress: null, updated_at: isoNow(ctx.clock) });
  }
}

/** Why a run whose job left the queue without ending it failed. */
export const JOB_LOST = 'The import stopped: its job was lost; start the import again';

/**
 * A run still pending or in progress whose job is no longer queued fails (the worker dropped the job after its
 * last failed attempt, or the row was lost), instead of staying active forever. Run as a sweep of the job worker
 * rather than when a run is read: the list filters and counts runs by their stored status (`active`), which a
 * status corrected only as a run is presented would contradict, and a read then never writes.
 *
 * The runs are read before the jobs: a job's row is deleted only after its handler ended its run (completed,
 * failed, or found cancelled), so a run seen active and then no job for it has no job to end it; a job waiting,
 * running (in any process) or waiting to be retried is still queued and its run is left alone. The update applies
 * only to a run still active, so a run that ended meanwhile keeps its status.
 */
export async function failImportRunsWithoutJob(ctx: AppContext): Promise<void> {
  const active = await importRunIdsWithStatus(ctx.db, ACTIVE);
  if (active.length === 0) return;
  const queued = new Set((await queuedJobs(ctx.db, IMPORT_RUN_JOB)).map((job) => (job as RunJob).runId));
  for (const id of active) {
    if (queued.has(id)) continue;
    await updateImportRun(ctx.db, id, ACTIVE, { status: 'failed', error: JOB_LOST, progress: null, updated_at: isoNow(ctx.clock) });
  }
}

/**
 * Deletes runs finished (completed, failed or cancelled) more than the retention ago, in bounded batches (a
 * sweep of the worker: idempotent, any process may run it). A run pending or in progress is never deleted,
 * however old: its job, or the sweep failing runs without one, ends it first. Answers how many were deleted.
 */
export async function purgeFinishedImportRuns(ctx: AppContext, batchSize = PURGE_BATCH): Promise<number> {
  const cutoff = new Date(ctx.clock.now().getTime() - IMPORT_RUN_RETENTION_MS).toISOString();
  return deleteInBatches((limit) => deleteImportRunsUpdatedBefore(ctx.db, FINISHED, cutoff, limit), batchSize, PURGE_BATCHES_PER_RUN);
}

export function presentImportRun(config: Config, row: ImportRunRow): ContentImportRun {
  const pages = JSON.parse(row.pages) as { id: string; sourceURL?: string; type?: 'page' | 'folder' }[];
  return {
    object: 'import-run',
    id: row.id,
    status: row.status as ContentImportRun['status'],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.started_at ? { startedAt: row.started_at } : {}),
    ...(row.status === 'completed' && row.completed_at ? { completedAt: row.completed_at } : {}),
    ...(row.status === 'failed' && row.error ? { reason: row.error } : {}),
    source: JSON.parse(row.source) as ContentImportRun['source'],
    target: { space: row.space_id, ...(row.change_request_id ? { changeRequest: row.change_request_id } : {}), ...(row.page_id ? { page: row.page_id } : {}) },
    createdBy: row.created_by,
    urls: { location: apiUrl(config, `/org/${row.organization_id}/imports/${row.id}`) },
    ...(row.revision_id ? { revision: row.revision_id, importedResources: row.imported_resources, totalResources: row.total_resources } : {}),
    ...(row.status === 'in-progress' && row.progress ? { step: row.progress as 'queued' | 'fetching' | 'writing' } : {}),
    pages: pages.map((p) => ({ id: p.id, ...(p.sourceURL ? { sourceURL: p.sourceURL } : {}), type: p.type ?? 'page', status: 'complete' as const })),
  };
}
