import type { Executor } from '../../db/types.ts';
import { type AppContext, type Caller, authorOf } from '../../platform/context.ts';
import { ApiError, badRequest, notFound } from '../../platform/errors.ts';
import { isoNow } from '../../platform/clock.ts';
import { newId } from '../../platform/ids.ts';
import { enqueueJob } from '../../platform/jobs.ts';
import { recordEvent } from '../../platform/events.ts';
import { recordAudit } from '../audit/record.ts';
import { loadServerSecret } from '../../platform/secret-store.ts';
import { safeFetch } from '../../platform/safe-fetch.ts';
import { installationOfSpace } from '../git-installations/queries.ts';
import { loadSpace } from '../spaces/service.ts';
import { spacePolicy } from '../spaces/policy.ts';
import { findSpace } from '../spaces/queries.ts';
import { createChangeRequest } from '../change-requests/service.ts';
import { findChangeRequest } from '../change-requests/queries.ts';
import { findUserById } from '../users/queries.ts';
import { webhookUrl } from './connection.ts';
import { storeFileBytes } from '../files/service.ts';
import { writeImportedContent, type ImportedFile } from '../content/imported-content.ts';
import { findRevision, getDocuments } from '../content/revisions.ts';
import { Snapshot } from '../content/snapshot.ts';
import { buildTree, flattenTree } from '../content/tree.ts';
import { openUrl, sealUrl } from './credentials.ts';
import { branchOf, checkoutBranch, commitFiles, folderTree, httpClient, listBranchFiles, pushBranch, readBranchBlob, readFiles, withoutCredentials, type Checkout, type GitFetcher } from './git-client.ts';
import { prepareRepositoryImport, type ExistingContent, type ImportReport } from './import-repository.ts';
import { exportLayout } from './export-repository.ts';
import { findGitLayout, findGitSync, listRedirects, replaceRedirects, saveGitLayout, saveGitSync, updateOperation, type GitSyncRow } from './store.ts';
import { parseGitbookYaml } from './layout.ts';
import type { SourceLayoutName } from './source-layout.ts';
import { managedFiles } from './repository.ts';

/*
 * The official Git Sync operations: importGitRepository and exportToGitRepository start a job (204) and
 * getSpaceGitInfo tells how the last one went. The job clones the repository over HTTPS through the SSRF-safe
 * fetcher, reads its Git Sync layout and writes it as one revision: on the space's main content, or, for a
 * `standalone` import, in a new change request, leaving the main content as it is. Export writes the space's
 * current content in the same layout and pushes one commit to the branch. The events `space_gitsync_started`
 * and `space_gitsync_completed` go to the outbox.
 */

export const GIT_IMPORT_JOB = 'git-sync-import';
export const GIT_EXPORT_JOB = 'git-sync-export';

export interface GitOperationBody {
  url: string;
  ref: string;
  commitMessage?: string | undefined;
  repoTreeURL?: string | undefined;
  repoProjectDirectory?: string | undefined;
  force?: boolean | undefined;
  standalone?: boolean | undefined;
  gitInfo?: { provider?: 'github' | 'gitlab' | undefined; url?: string | undefined } | undefined;
}

interface JobPayload {
  spaceId: string;
  operationId: string;
  sealedUrl: string;
  ref: string;
  projectDirectory: string;
  userId: string | null;
  standalone?: boolean;
  commitMessage?: string;
  force?: boolean;
}

function assertRepositoryUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest('body/url: not an absolute URL of a Git repository');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw badRequest(`body/url: only http and https repositories can be synced, not ${parsed.protocol.replace(/:$/, '')}`);
}

function assertRef(ref: string): void {
  const branch = ref.replace(/^refs\/heads\//, '');
  if (branch === '' || ref.startsWith('refs/') && !ref.startsWith('refs/heads/') || /[\s~^:?*[\\]|\.\.|@\{|\/\/|^\/|\/$|\.lock$/.test(branch)) {
    throw badRequest(`body/ref: "${ref}" is not a branch ref (e.g. "refs/heads/main")`);
  }
}

function cleanProjectDirectory(dir: string | undefined): string {
  const clean = (dir ?? '').trim().replace(/^\.?\/+|\/+$/g, '');
  if (clean.split('/').some((s) => s === '..')) throw badRequest('body/repoProjectDirectory: must stay inside the repository');
  return clean;
}

function providerOf(body: GitOperationBody): string {
  if (body.gitInfo?.provider) return body.gitInfo.provider;
  return /gitlab/i.test(new URL(body.url).hostname) ? 'gitlab' : 'github';
}

/** `via`: the Git Sync installation (features/git-installations) the operation was started through, if any. */
async function startOperation(ctx: AppContext, caller: Caller, spaceId: string, body: GitOperationBody, direction: 'import' | 'export', via?: { installationId: string }): Promise<void> {
  const { space, role } = await loadSpace(ctx, caller, spaceId);
  spacePolicy.assert({ role, editMode: direction === 'export' ? 'live' : space.edit_mode }, 'triggerGitSync', direction === 'import' ? 'Importing a Git repository' : 'Exporting to a Git repository');
  assertRepositoryUrl(body.url);
  assertRef(body.ref);
  const projectDirectory = cleanProjectDirectory(body.repoProjectDirectory);
  if (direction === 'export' && !body.commitMessage?.trim()) throw badRequest('body/commitMessage: must not be empty');
  const now = isoNow(ctx.clock);
  const operationId = newId();
  const secret = await loadServerSecret(ctx.db, 'git-sync-credentials', now);
  const payload: JobPayload = {
    spaceId: space.id,
    operationId,
    sealedUrl: sealUrl(secret, body.url),
    ref: body.ref,
    projectDirectory,
    userId: authorOf(caller),
    ...(direction === 'import' ? { standalone: body.standalone === true } : { commitMessage: body.commitMessage!, force: body.force === true }),
  };
  await ctx.db.transaction().execute(async (trx) => {
    const previous = await findGitSync(trx, space.id);
    // A standalone import leaves the space's Git Sync settings as they were; only its operation is recorded.
    const linked = !(direction === 'import' && body.standalone) || !previous;
    // Importing or exporting connects the space to the repository and branch: from then on syncing needs no call
    // (auto-sync.ts), and acts for whoever connected it.
    const connection = linked ? { sealed_url: payload.sealedUrl, connected_by: authorOf(caller), paused_change_request_id: null, sync_error: null } : {};
    await saveGitSync(trx, {
      ...connection,
      space_id: space.id,
      installation_id: via?.installationId ?? previous?.installation_id ?? newId(),
      url: linked ? withoutCredentials(body.url) : previous!.url,
      ref: linked ? body.ref : previous!.ref,
      provider: linked ? providerOf(body) : previous!.provider,
      tree_url: linked ? (body.gitInfo?.url ?? body.repoTreeURL ?? previous?.tree_url ?? null) : previous!.tree_url,
      project_directory: linked ? projectDirectory : previous!.project_directory,
      commit_oid: previous?.commit_oid ?? null,
      operation_id: operationId,
      operation_state: 'running',
      operation_direction: direction,
      operation_started_at: now,
      operation_ended_at: null,
      operation_error: null,
      operation_progress: JSON.stringify({ step: 'queued' }),
      last_import: previous?.last_import ?? null,
      updated_at: now,
    });
    await enqueueJob(ctx, trx, direction === 'import' ? GIT_IMPORT_JOB : GIT_EXPORT_JOB, payload);
    await recordEvent(trx, ctx.clock, 'space_gitsync_started', space.organization_id, { spaceId: space.id, direction, operationId, url: withoutCredentials(body.url), ref: body.ref });
    // Connecting, or pointing the connection at another repository or branch, is what the audit log keeps; a sync is not.
    const url = withoutCredentials(body.url);
    if (linked && (!previous?.sealed_url || previous.url !== url || previous.ref !== body.ref)) {
      await recordAudit(ctx, trx, space.organization_id, caller, { action: 'git_sync.connected', target: { type: 'space', id: space.id, label: space.title }, details: { url, ref: body.ref, direction } });
    }
  });
}

export function importGitRepository(ctx: AppContext, caller: Caller, spaceId: string, body: GitOperationBody, via?: { installationId: string }): Promise<void> {
  return startOperation(ctx, caller, spaceId, body, 'import', via);
}

export function exportToGitRepository(ctx: AppContext, caller: Caller, spaceId: string, body: GitOperationBody, via?: { installationId: string }): Promise<void> {
  return startOperation(ctx, caller, spaceId, body, 'export', via);
}

/**
 * getSpaceGitInfo: the space's Git Sync, or 404 when it has none. A space with a Git Sync installation
 * (features/git-installations) that has synced nothing yet answers the installation alone: `unauthenticated`
 * until it is given a token, then `active`, as GitBook's state of an installation whose repository is not chosen.
 */
export async function getSpaceGitInfo(ctx: AppContext, caller: Caller, spaceId: string) {
  const { space } = await loadSpace(ctx, caller, spaceId);
  const [row, installation] = await Promise.all([findGitSync(ctx.db, space.id), installationOfSpace(ctx.db, space.id)]);
  const installed = installation
    ? { installationId: installation.id, installationProvider: installation.provider, installationStatus: installation.hasToken ? ('active' as const) : ('unauthenticated' as const) }
    : undefined;
  if (!row) {
    if (installed) return installed;
    throw notFound(`Space ${spaceId} is not synced with a Git repository`);
  }
  const paused = row.paused_change_request_id ? await findChangeRequest(ctx.db, space.id, row.paused_change_request_id) : undefined;
  return {
    ...presentGitSync(ctx, row),
    ...installed,
    ...(row.sealed_url ? { sync: presentConnection(ctx, row, space.revision_id, paused ? { id: paused.id, number: paused.number } : undefined) } : {}),
  };
}

/** The automatic syncing of a connected space (auto-sync.ts): what was last synced, what is due, what stops it. */
function presentConnection(ctx: AppContext, row: GitSyncRow, revisionId: string, paused: { id: string; number: number } | undefined) {
  const lastSync = parseJson<{ direction: 'import' | 'export'; commit?: string; revisionId?: string | null; at: string; by?: string | null }>(row.last_sync);
  const delivery = parseJson<{ at: string; provider: string; event: string; result: string }>(row.webhook_delivery);
  const exportDue = !paused && revisionId !== row.synced_revision_id;
  const importDue = row.sync_requested_at !== null && row.sync_requested_at !== undefined;
  return {
    connected: true,
    branch: `refs/heads/${branchOf(row.ref)}`,
    projectDirectory: row.project_directory,
    ...(lastSync
      ? {
          lastSync: {
            direction: lastSync.direction,
            ...(lastSync.commit ? { commit: lastSync.commit } : {}),
            ...(lastSync.revisionId ? { revision: lastSync.revisionId } : {}),
            at: lastSync.at,
            ...(lastSync.by ? { by: lastSync.by } : {}),
          },
        }
      : {}),
    ...(exportDue || importDue ? { pending: exportDue && importDue ? ('both' as const) : exportDue ? ('export' as const) : ('import' as const) } : {}),
    ...(paused ? { pausedBy: paused } : {}),
    ...(row.sync_error ? { error: row.sync_error } : {}),
    webhook: { url: webhookUrl(ctx, row.space_id), configured: Boolean(row.webhook_secret), ...(delivery ? { lastDelivery: delivery } : {}) },
    pollInterval: ctx.config.gitSyncPollIntervalMs,
  };
}

function parseJson<T>(json: string | null | undefined): T | undefined {
  if (!json) return undefined;
  try {
    return JSON.parse(json) as T;
  } catch {
    return undefined;
  }
}

function presentGitSync(ctx: AppContext, row: GitSyncRow) {
  const lastImport = lastImportOf(row.last_import);
  const repoName = new URL(row.url).pathname.replace(/^\/+|\/+$/g, '').replace(/\.git$/, '');
  return {
    repoName,
    installationId: row.installation_id,
    installationProvider: row.provider as 'github' | 'gitlab' | 'github-legacy',
    installationStatus: 'active' as const,
    url: row.tree_url ?? row.url,
    operationTimeout: ctx.config.gitSyncTimeoutMs,
    updatedAt: row.updated_at,
    ...(row.operation_state && row.operation_direction && row.operation_started_at
      ? {
          operation: {
            state: row.operation_state as 'running' | 'failure' | 'success' | 'timeout',
            direction: row.operation_direction as 'import' | 'export',
            startedAt: row.operation_started_at,
            ...(row.operation_ended_at ? { endedAt: row.operation_ended_at } : {}),
            ...(row.operation_error ? { error: row.operation_error } : {}),
            // The operation is that import: its report.
            ...(lastImport && lastImport.operationId === row.operation_id ? { report: lastImport.report } : {}),
          },
        }
      : {}),
    ...(lastImport ? { lastImport: { endedAt: lastImport.endedAt, report: lastImport.report } } : {}),
  };
}

/** The last import's report (runOperation), which the exports after it leave in place. */
function lastImportOf(json: string | null): { operationId: string; endedAt: string; report: ImportReport } | undefined {
  if (!json) return undefined;
  try {
    return JSON.parse(json) as { operationId: string; endedAt: string; report: ImportReport };
  } catch {
    return undefined;
  }
}

export function gitFetcher(ctx: AppContext): GitFetcher {
  return (url, options) => safeFetch(ctx.config, url, { maxBytes: options.maxBytes, headers: options.headers, ...(options.post ? { post: options.post } : {}) });
}

/** Runs an operation to its end within GIT_SYNC_TIMEOUT_MS, recording its state; a failed operation is not retried. */
async function runOperation(
  ctx: AppContext,
  payload: JobPayload,
  direction: 'import' | 'export',
  work: (progress: (step: string) => Promise<void>) => Promise<Record<string, unknown> & { report?: ImportReport; synced?: SyncedState }>,
) {
  const space = await findSpace(ctx.db, payload.spaceId);
  if (!space || space.deleted_at) return;
  const progress = (step: string) => updateOperation(ctx.db, payload.spaceId, payload.operationId, { operation_progress: JSON.stringify({ step }) });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError()), ctx.config.gitSyncTimeoutMs);
  });
  let state: 'success' | 'failure' | 'timeout' = 'success';
  let error: string | null = null;
  let details: Record<string, unknown> = {};
  let report: ImportReport | undefined;
  let synced: SyncedState | undefined;
  try {
    ({ report, synced, ...details } = await Promise.race([work(progress), deadline]));
  } catch (caught) {
    state = caught instanceof TimeoutError ? 'timeout' : 'failure';
    error = caught instanceof TimeoutError ? `The ${direction} took longer than ${ctx.config.gitSyncTimeoutMs} ms (GIT_SYNC_TIMEOUT_MS)` : caught instanceof Error ? caught.message : String(caught);
  } finally {
    clearTimeout(timer);
  }
  const now = isoNow(ctx.clock);
  const by = synced && payload.userId ? (await findUserById(ctx.db, payload.userId))?.display_name : undefined;
  await ctx.db.transaction().execute(async (trx) => {
    await updateOperation(trx, payload.spaceId, payload.operationId, {
      operation_state: state,
      operation_ended_at: now,
      operation_error: error,
      operation_progress: JSON.stringify({ step: 'done' }),
      // An import's report (the layout, what was not carried over), for getSpaceGitInfo: the operation's while it is
      // the last, and the last import's after the exports that follow.
      ...(report ? { last_import: JSON.stringify({ operationId: payload.operationId, endedAt: now, report }) } : {}),
      ...(typeof details.commit === 'string' && !payload.standalone ? { commit_oid: details.commit } : {}),
      // What both sides held when it ended: the point automatic syncing goes on from.
      ...(synced && !payload.standalone
        ? {
            synced_tree: synced.tree,
            synced_revision_id: synced.revisionId,
            last_sync: JSON.stringify({ direction, commit: details.commit, revisionId: synced.revisionId, at: now, by }),
          }
        : {}),
    });
    await recordEvent(trx, ctx.clock, 'space_gitsync_completed', space.organization_id, { spaceId: space.id, direction, operationId: payload.operationId, state, ...(error ? { error } : {}), ...details });
  });
}

class TimeoutError extends Error {}

/** The tree of the space's folder in the commit an operation read or wrote, and the space's revision it matched. */
export interface SyncedState {
  tree: string;
  revisionId: string;
}

/** The job of importGitRepository. */
export async function runGitImport(ctx: AppContext, raw: unknown): Promise<void> {
  const payload = raw as JobPayload;
  await runOperation(ctx, payload, 'import', async (progress) => {
    const secret = await loadServerSecret(ctx.db, 'git-sync-credentials', isoNow(ctx.clock));
    const url = openUrl(secret, payload.sealedUrl);
    const http = httpClient(gitFetcher(ctx), { maxBytes: ctx.config.gitSyncMaxBytes });
    await progress('cloning');
    const checkout = await checkoutBranch(url, payload.ref, http);
    let files: Map<string, Buffer>;
    let tree: string;
    try {
      files = await readFiles(checkout.dir, ctx.config.gitSyncMaxBytes);
      tree = await folderTree(checkout, payload.projectDirectory);
    } finally {
      await checkout.remove();
    }
    await progress('reading');
    const result = await importFiles(ctx, payload.spaceId, payload.userId, files, {
      projectDirectory: payload.projectDirectory,
      standalone: payload.standalone === true,
      event: { gitSync: { operationId: payload.operationId, commit: checkout.oid } },
    });
    return {
      commit: checkout.oid,
      revisionId: result.revisionId,
      ...(result.changeRequestId ? { changeRequestId: result.changeRequestId } : { synced: { tree, revisionId: result.revisionId } }),
      pages: result.pages,
      files: result.files,
      report: result.report,
    };
  });
}

/**
 * Writes a Git Sync layout's files (or a folder of markdown files) into a space. Git Sync replaces the whole
 * content on the main branch (or, `standalone`, in a new change request) with the redirects of `.gitbook.yaml`,
 * in the same transaction; `into` adds the pages instead, at the top level or under a page, of the main
 * content or of a change request (archive imports).
 */
export async function importFiles(
  ctx: AppContext,
  spaceId: string,
  userId: string | null,
  files: ReadonlyMap<string, Buffer>,
  options: {
    projectDirectory?: string;
    standalone?: boolean;
    into?: { changeRequestId?: string | undefined; under: string | null };
    subject?: string;
    event?: Record<string, unknown>;
    /**
     * The error to refuse with when the layout finds no page in the files, rather than replace the content with
     * nothing (`quire import`: a wrong folder must not empty a space).
     */
    ifNoPage?: (layout: SourceLayoutName) => Error;
    /** More writes in the import's transaction, told the ids of the pages written (an import run's result). */
    alsoWrite?: (trx: Executor, written: { revisionId: string; pages: { id: string; kind: string }[]; files: number }) => Promise<void>;
    /**
     * Git Sync's push while main moved: the content replaces this change request's (made from `basedOn`), and pages
     * and files keep the ids they had in `basedOn`, so that merging it is a three-way merge page by page.
     */
    changeRequest?: { id: string; basedOn: string };
    /** Replace main's content only if its head is still this revision (else HeadMoved, nothing written). */
    expectedHead?: string;
  },
): Promise<{ revisionId: string; changeRequestId?: string; pages: number; files: number; report: ImportReport }> {
  const space = await findSpace(ctx.db, spaceId);
  if (!space || space.deleted_at) throw notFound(`No space ${spaceId}`);
  const replace = options.into === undefined;
  const existing = replace ? await existingContent(ctx, options.changeRequest?.basedOn ?? space.revision_id) : undefined;
  const prepared = await prepareRepositoryImport(files, { projectDirectory: options.projectDirectory ?? '', ...(existing ? { existing } : {}) });
  if (options.ifNoPage && prepared.pages.length === 0) throw options.ifNoPage(prepared.report.layout);
  const stored: ImportedFile[] = [];
  for (const file of prepared.files) {
    try {
      stored.push({ id: file.id, name: file.name, stored: await storeFileBytes(ctx, ctx.db, { name: file.name, bytes: file.bytes }) });
    } catch (error) {
      throw new ApiError(422, `${file.path}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  // A Git Sync job checks the rights of who started it again: they may have changed while the job waited.
  if (userId && replace) {
    const { role } = await loadSpace(ctx, callerOf(userId), spaceId);
    spacePolicy.assert({ role, editMode: space.edit_mode }, 'triggerGitSync', 'Importing a Git repository');
  }
  let changeRequestId = options.into?.changeRequestId ?? options.changeRequest?.id;
  if (replace && options.standalone && userId) changeRequestId = (await createChangeRequest(ctx, callerOf(userId), spaceId, { subject: options.subject ?? 'Import from Git' })).id;
  const redirects = prepared.redirects.map((r) => ({ space_id: space.id, source: r.source, destination: r.destination, page_id: r.pageId, anchor: r.anchor, created_at: isoNow(ctx.clock) }));
  const revision = await writeImportedContent(
    ctx,
    { userId },
    space,
    changeRequestId ? { branch: 'change-request', changeRequestId } : { branch: 'main' },
    {
      pages: prepared.pages,
      reusableContents: prepared.reusableContents,
      files: stored,
      mode: replace ? { replace: true } : { replace: false, under: options.into!.under },
      ...(options.expectedHead !== undefined ? { expectedHead: options.expectedHead } : {}),
      alsoWrite: async (trx, written) => {
        // The redirects and the layout belong to the main content: written with it, in its transaction.
        if (replace && !changeRequestId) {
          await replaceRedirects(trx, space.id, redirects);
          await saveGitLayout(trx, {
            space_id: space.id,
            gitbook_yaml: prepared.gitLayout.gitbookYaml ?? null,
            file_paths: JSON.stringify(Object.fromEntries(prepared.gitLayout.filePaths)),
            updated_at: isoNow(ctx.clock),
          });
        }
        await options.alsoWrite?.(trx, { revisionId: written.id, pages: prepared.pages.map((p) => ({ id: p.id, kind: p.kind })), files: stored.length });
      },
    },
    options.event ?? {},
  );
  return { revisionId: revision.id, ...(changeRequestId ? { changeRequestId } : {}), pages: prepared.pages.length, files: stored.length, report: prepared.report };
}

/** The user who started a job, as a caller (no token: the job acts for them after their request). */
export function callerOf(userId: string): Caller {
  return { kind: 'user', userId, tokenId: '' };
}

/** Ids of the content an import replaces, by path and kind (pages), by name (files) and by file (reusable contents). */
async function existingContent(ctx: AppContext, revisionId: string): Promise<ExistingContent> {
  const revision = await findRevision(ctx.db, revisionId);
  if (!revision) return { pages: new Map(), files: new Map() };
  const snapshot = await Snapshot.of(ctx.db, revision);
  const pages = new Map<string, string>();
  const walk = (nodes: ReturnType<typeof buildTree>, parentPath: string) => {
    for (const node of nodes) {
      const path = node.page.kind === 'link' ? `${parentPath}#${node.page.title}` : node.path;
      pages.set(`${node.page.kind}:${path}`, node.page.id);
      walk(node.children, node.page.kind === 'link' ? parentPath : node.path);
    }
  };
  walk(buildTree(await snapshot.pages()), '');
  const files = new Map<string, string>();
  for (const file of await snapshot.files()) if (!files.has(file.name)) files.set(file.name, file.file_id);
  const reusableContents = new Map<string, string>();
  for (const content of await snapshot.reusableContents()) if (content.git && !reusableContents.has(content.git.path)) reusableContents.set(content.git.path, content.id);
  return { pages, files, reusableContents };
}

/** The job of exportToGitRepository. */
export async function runGitExport(ctx: AppContext, raw: unknown): Promise<void> {
  const payload = raw as JobPayload;
  await runOperation(ctx, payload, 'export', async (progress) => {
    const secret = await loadServerSecret(ctx.db, 'git-sync-credentials', isoNow(ctx.clock));
    const url = openUrl(secret, payload.sealedUrl);
    const http = httpClient(gitFetcher(ctx), { maxBytes: ctx.config.gitSyncMaxBytes });
    await progress('cloning');
    const checkout = await checkoutBranch(url, payload.ref, http, { create: true, noCheckout: true });
    try {
      await progress('writing');
      const folder = payload.projectDirectory;
      const branch = await readBranchLayout(checkout, folder);
      const revisionId = (await findSpace(ctx.db, payload.spaceId))?.revision_id ?? '';
      const files = await exportFiles(ctx, payload.spaceId, branch.gitbookYaml, revisionId);
      const placed = new Map([...files].map(([path, bytes]) => [folder ? `${folder}/${path}` : path, bytes]));
      const now = ctx.clock.now();
      const { oid, changed } = await commitFiles(checkout, placed, {
        message: payload.commitMessage ?? 'Update from Quire',
        author: { name: 'Quire', email: `quire@${new URL(ctx.config.publicUrl).hostname}`, timestamp: Math.floor(now.getTime() / 1000) },
        remove: branch.managed,
      });
      await progress('pushing');
      if (changed) await pushBranch(checkout, url, payload.ref, http, payload.force === true);
      const tree = await folderTree({ ...checkout, oid }, folder);
      return { commit: oid, changed, files: placed.size, synced: { tree, revisionId } };
    } finally {
      await checkout.remove();
    }
  });
}

/**
 * What of the branch an export replaces (its pages, summary, `.gitbook.yaml` and assets folder, as an import would
 * read them) and its `.gitbook.yaml`, read from the clone's trees: every other file of the branch is kept.
 */
export async function readBranchLayout(checkout: Checkout, folder: string): Promise<{ managed: Set<string>; gitbookYaml: string | undefined }> {
  const files = await listBranchFiles(checkout, folder);
  const texts = new Map<string, string>();
  const read = async (path: string) => {
    const oid = files.get(path);
    if (oid) texts.set(path, (await readBranchBlob(checkout, oid)).toString('utf8'));
    return texts.get(path);
  };
  const gitbookYaml = await read(folder ? `${folder}/.gitbook.yaml` : '.gitbook.yaml');
  const config = readGitbookYaml(gitbookYaml);
  await read([folder, config.root, config.summary].filter(Boolean).join('/'));
  return { managed: managedFiles(files, (path) => texts.get(path), folder), gitbookYaml };
}

/** `.gitbook.yaml` read for an export; one Quire cannot read fails the export rather than being overwritten. */
function readGitbookYaml(text: string | undefined) {
  try {
    return parseGitbookYaml(text);
  } catch (error) {
    throw new ApiError(422, error instanceof Error ? error.message : String(error));
  }
}

/**
 * A space's current content as the files of a Git Sync repository, paths relative to the project directory:
 * `.gitbook.yaml` — the branch's (`gitbookYaml`), else the one the last import read — and the content under the
 * root it declares, with the space's files where the import found them.
 */
export async function exportFiles(ctx: AppContext, spaceId: string, gitbookYaml?: string, revisionId?: string): Promise<Map<string, Buffer>> {
  const space = await findSpace(ctx.db, spaceId);
  if (!space || space.deleted_at) throw notFound(`No space ${spaceId}`);
  const revision = await findRevision(ctx.db, revisionId || space.revision_id);
  if (!revision) throw notFound(`No content for space ${spaceId}`);
  const snapshot = await Snapshot.of(ctx.db, revision);
  const [pages, reusableContents] = await Promise.all([snapshot.pages(), snapshot.reusableContents()]);
  const documents = await getDocuments(ctx.db, [...pages, ...reusableContents].flatMap((p) => (p.documentId ? [p.documentId] : [])));
  const fileRows = await snapshot.files();
  const redirects = await listRedirects(ctx.db, spaceId);
  const stored = await findGitLayout(ctx.db, spaceId);
  const yaml = gitbookYaml ?? stored?.gitbook_yaml ?? undefined;
  const config = readGitbookYaml(yaml);
  const layout = exportLayout({
    pages: flattenTree(buildTree(pages)).map((n) => n.page),
    reusableContents,
    documents,
    files: fileRows.map((f) => ({ id: f.file_id, name: f.name })),
    redirects: redirects.map((r) => ({ source: r.source, destination: r.destination, pageId: r.page_id, anchor: r.anchor })),
    gitbookYaml: yaml,
    config,
    filePaths: new Map(Object.entries(stored ? (JSON.parse(stored.file_paths) as Record<string, string>) : {})),
  });
  const out = new Map<string, Buffer>();
  for (const [path, text] of layout.texts) out.set(path, Buffer.from(text, 'utf8'));
  for (const file of fileRows) {
    const path = layout.assets.get(file.file_id);
    const bytes = path ? await ctx.blobs.get(file.blob_hash) : undefined;
    if (path && bytes) out.set(path, bytes);
  }
  return out;
}
