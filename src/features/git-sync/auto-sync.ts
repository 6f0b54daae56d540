import type { AppContext } from '../../platform/context.ts';
import { isoNow } from '../../platform/clock.ts';
import { newId } from '../../platform/ids.ts';
import { recordEvent } from '../../platform/events.ts';
import { loadServerSecret } from '../../platform/secret-store.ts';
import { findSpace, type SpaceRow } from '../spaces/queries.ts';
import { findUserById } from '../users/queries.ts';
import { createChangeRequest } from '../change-requests/service.ts';
import { mergeChangeRequest } from '../change-requests/merging.ts';
import { findChangeRequest } from '../change-requests/queries.ts';
import { findRevision } from '../content/revisions.ts';
import { HeadMoved } from '../content/imported-content.ts';
import { openUrl } from './credentials.ts';
import { checkoutBranch, commitFiles, commitInfo, folderTree, httpClient, pushBranch, readFiles, remoteHead } from './git-client.ts';
import { callerOf, exportFiles, gitFetcher, importFiles, readBranchLayout } from './service.ts';
import { clearSyncRequest, findGitSync, spacesToSync, takeSyncLease, updateGitSync, type GitSyncRow } from './store.ts';
import { exportCommitAuthor, exportCommitMessage, type ExportedChange, type Person } from './commit-message.ts';

/*
 * Git Sync both ways without a call (issue 43). A space imported from or exported to a branch stays connected to
 * it (`sealed_url`); the worker's frequent sweep then syncs each connected space that has something to sync:
 *
 * - the branch moved past the last synced commit (a webhook asked, or the poll saw it) and the space's folder
 *   changed in it: the push is imported. Main unchanged since the last sync: it replaces main's content. Main
 *   changed too: it becomes a change request based on the last synced revision and is merged three ways with main;
 *   a conflict (or a merge rule) leaves that change request open and pauses exporting until it is settled, so
 *   neither side's edit is overwritten;
 * - main moved past the last synced revision and has been quiet for GIT_SYNC_DEBOUNCE_MS: it is exported as one
 *   commit on top of the last synced commit, authored by whoever made the change, committed by Quire.
 *
 * Quire's own commits are the last synced commit, so they are never imported back. One process at a time syncs a
 * space (a lease in its row); every step reads and writes the database, so any process can take over.
 */

type Row = GitSyncRow & { sealed_url: string };

/** The sweep: every connected space with something to sync, one after the other. */
export async function syncConnectedSpaces(ctx: AppContext): Promise<void> {
  const now = ctx.clock.now().getTime();
  const at = (ms: number) => new Date(now - ms).toISOString();
  const poll = ctx.config.gitSyncPollIntervalMs;
  const spaceIds = await spacesToSync(ctx.db, at(0), at(ctx.config.gitSyncDebounceMs), poll > 0 ? at(poll) : null, at(ctx.config.gitSyncTimeoutMs));
  for (const spaceId of spaceIds) await syncSpace(ctx, spaceId);
}

/** Syncs one space both ways, unless another process is syncing it. A failure is kept on the row, not thrown. */
export async function syncSpace(ctx: AppContext, spaceId: string): Promise<void> {
  const now = ctx.clock.now();
  if (!(await takeSyncLease(ctx.db, spaceId, now.toISOString(), new Date(now.getTime() + ctx.config.gitSyncTimeoutMs).toISOString()))) return;
  try {
    await syncLeased(ctx, spaceId);
  } catch (error) {
    await updateGitSync(ctx.db, spaceId, { sync_error: error instanceof Error ? error.message : String(error) });
  } finally {
    await updateGitSync(ctx.db, spaceId, { lease_until: null });
  }
}

async function syncLeased(ctx: AppContext, spaceId: string): Promise<void> {
  let row = (await findGitSync(ctx.db, spaceId)) as Row | undefined;
  const space = await findSpace(ctx.db, spaceId);
  if (!row?.sealed_url || !space || space.deleted_at) return;
  if (row.paused_change_request_id) {
    const cr = await findChangeRequest(ctx.db, spaceId, row.paused_change_request_id);
    // Still open: the conflict waits for a person; the branch is looked at again once it is settled.
    if (cr && cr.status !== 'merged' && cr.status !== 'archived') {
      if (row.sync_requested_at) await clearSyncRequest(ctx.db, spaceId, row.sync_requested_at);
      return;
    }
    await updateGitSync(ctx.db, spaceId, { paused_change_request_id: null, sync_error: null });
    row = { ...row, paused_change_request_id: null };
  }
  const secret = await loadServerSecret(ctx.db, 'git-sync-credentials', isoNow(ctx.clock));
  const url = openUrl(secret, row.sealed_url);
  const http = httpClient(gitFetcher(ctx), { maxBytes: ctx.config.gitSyncMaxBytes });
  // The request is cleared once the sync is done (it shows as due until then); one that comes while this sync
  // runs stays, and makes one more sync after it.
  try {
    await syncBothWays(ctx, row, url, http);
  } finally {
    if (row.sync_requested_at) await clearSyncRequest(ctx.db, spaceId, row.sync_requested_at);
  }
}

/** Imports what the branch gained, then exports what main gained; again when someone pushed meanwhile (3 rounds at most). */
async function syncBothWays(ctx: AppContext, synced: Row, url: string, http: ReturnType<typeof httpClient>): Promise<void> {
  const spaceId = synced.space_id;
  let row: Row | undefined = synced;
  for (let round = 0; round < 3; round++) {
    const space = await findSpace(ctx.db, spaceId);
    if (!space || space.deleted_at) return;
    const head = await remoteHead(url, row.ref, http);
    await updateGitSync(ctx.db, spaceId, { polled_at: isoNow(ctx.clock) });
    if (head && head !== row.commit_oid) {
      await importPush(ctx, row, space, url, http);
      row = (await findGitSync(ctx.db, spaceId)) as Row | undefined;
      if (!row?.sealed_url || row.paused_change_request_id) return;
    }
    const current = await findSpace(ctx.db, spaceId);
    if (current && !current.deleted_at && current.revision_id !== row.synced_revision_id && (await exportMain(ctx, row, current, url, http)) === 'moved') {
      row = (await findGitSync(ctx.db, spaceId)) as Row | undefined;
      if (!row?.sealed_url) return;
      continue;
    }
    await updateGitSync(ctx.db, spaceId, { sync_error: null });
    return;
  }
  // Pushed to again and again while exporting: the next sync takes it from here.
  await updateGitSync(ctx.db, spaceId, { sync_requested_at: isoNow(ctx.clock) });
}

/**
 * An automatic import or export as getSpaceGitInfo shows an operation, with the integration events GitBook sends
 * (`space_gitsync_started`, `space_gitsync_completed`).
 */
async function asOperation(ctx: AppContext, space: SpaceRow, direction: 'import' | 'export', work: () => Promise<Record<string, unknown>>): Promise<void> {
  const operationId = newId();
  const started = isoNow(ctx.clock);
  await ctx.db.transaction().execute(async (trx) => {
    await updateGitSync(trx, space.id, {
      operation_id: operationId,
      operation_state: 'running',
      operation_direction: direction,
      operation_started_at: started,
      operation_ended_at: null,
      operation_error: null,
      operation_progress: JSON.stringify({ step: 'syncing' }),
    });
    await recordEvent(trx, ctx.clock, 'space_gitsync_started', space.organization_id, { spaceId: space.id, direction, operationId, automatic: true });
  });
  let details: Record<string, unknown> = {};
  let error: string | null = null;
  try {
    details = await work();
  } catch (caught) {
    error = caught instanceof Error ? caught.message : String(caught);
    throw caught;
  } finally {
    const state = error ? 'failure' : 'success';
    await ctx.db.transaction().execute(async (trx) => {
      await updateGitSync(trx, space.id, { operation_state: state, operation_ended_at: isoNow(ctx.clock), operation_error: error, operation_progress: JSON.stringify({ step: 'done' }) });
      await recordEvent(trx, ctx.clock, 'space_gitsync_completed', space.organization_id, { spaceId: space.id, direction, operationId, state, automatic: true, ...(error ? { error } : {}), ...details });
    });
  }
}

/** The branch moved: its commit is imported into the space, or into a change request merged with main. */
async function importPush(ctx: AppContext, row: Row, space: SpaceRow, url: string, http: ReturnType<typeof httpClient>): Promise<void> {
  const checkout = await checkoutBranch(url, row.ref, http);
  let files: Map<string, Buffer>;
  let tree: string;
  let commit: Awaited<ReturnType<typeof commitInfo>>;
  const head = checkout.oid!;
  try {
    tree = await folderTree(checkout, row.project_directory);
    // Quire's own commit, or a push to another space's folder of the same repository: nothing to import.
    if (tree === row.synced_tree) {
      await updateGitSync(ctx.db, space.id, { commit_oid: head });
      return;
    }
    files = await readFiles(checkout.dir, ctx.config.gitSyncMaxBytes);
    commit = await commitInfo(checkout);
  } finally {
    await checkout.remove();
  }
  const userId = row.connected_by ?? null;
  const event = { gitSync: { automatic: true, commit: head } };
  const synced = (revisionId: string | null, extra: Partial<GitSyncRow> = {}) =>
    updateGitSync(ctx.db, space.id, {
      commit_oid: head,
      synced_tree: tree,
      ...(revisionId ? { synced_revision_id: revisionId } : {}),
      last_sync: JSON.stringify({ direction: 'import', commit: head, revisionId, at: isoNow(ctx.clock), by: commit.author.name }),
      ...extra,
    });
  await asOperation(ctx, space, 'import', async () => {
    const base = row.synced_revision_id ?? null;
    const main = await findSpace(ctx.db, space.id);
    if (!base || main?.revision_id === base) {
      try {
        const result = await importFiles(ctx, space.id, userId, files, { projectDirectory: row.project_directory, event, ...(base ? { expectedHead: base } : {}) });
        await synced(result.revisionId);
        return { commit: head, revisionId: result.revisionId };
      } catch (error) {
        // Main was edited while the push was read: merged below like any push that meets an edit.
        if (!(error instanceof HeadMoved)) throw error;
      }
    }
    if (!userId) throw new Error('Both the branch and the space changed, and merging them needs a person: import or export again as a member to reconnect the space');
    const caller = callerOf(userId);
    const subject = `${commit.message.split('\n')[0]!.trim() || 'Push'} (Git ${head.slice(0, 7)})`;
    const cr = await createChangeRequest(ctx, caller, space.id, { subject }, base!);
    await importFiles(ctx, space.id, userId, files, { projectDirectory: row.project_directory, changeRequest: { id: cr.id, basedOn: base! }, event });
    let refusal: string | undefined;
    try {
      const merged = await mergeChangeRequest(ctx, caller, space.id, cr.id);
      if (merged.result !== 'merge') refusal = `it conflicts with edits made in Quire since the last sync`;
    } catch (error) {
      refusal = error instanceof Error ? error.message : String(error);
    }
    if (!refusal) {
      // Main now holds both sides: the export that follows commits it on top of the push.
      await synced(null);
      return { commit: head, changeRequestId: cr.id, merged: true };
    }
    await synced(null, {
      paused_change_request_id: cr.id,
      sync_error: `The push ${head.slice(0, 7)} was not merged: ${refusal}. Change request #${cr.number} holds it: resolve it and merge it (or close it to keep the space as it is); exporting to Git resumes then.`,
    });
    return { commit: head, changeRequestId: cr.id, merged: false };
  });
}

/**
 * Main moved: its content is committed on top of the last synced commit and pushed. 'moved': the branch was
 * pushed to since it was looked at, and that push must be imported first.
 */
async function exportMain(ctx: AppContext, row: Row, space: SpaceRow, url: string, http: ReturnType<typeof httpClient>): Promise<'done' | 'moved'> {
  const checkout = await checkoutBranch(url, row.ref, http, { create: true, noCheckout: true });
  let moved = false;
  try {
    if (checkout.oid && row.commit_oid && checkout.oid !== row.commit_oid) return 'moved';
    await asOperation(ctx, space, 'export', async () => {
      const revisionId = space.revision_id;
      const changes = await changesSince(ctx, space.id, revisionId, row.synced_revision_id ?? null);
      const quire = { name: 'Quire', email: `quire@${new URL(ctx.config.publicUrl).hostname}` };
      const timestamp = Math.floor(ctx.clock.now().getTime() / 1000);
      const folder = row.project_directory;
      const branch = await readBranchLayout(checkout, folder);
      const files = await exportFiles(ctx, space.id, branch.gitbookYaml, revisionId);
      const placed = new Map([...files].map(([path, bytes]) => [folder ? `${folder}/${path}` : path, bytes]));
      const { oid, changed } = await commitFiles(checkout, placed, {
        message: exportCommitMessage(changes),
        author: { ...exportCommitAuthor(changes, quire), timestamp },
        committer: { ...quire, timestamp },
        remove: branch.managed,
      });
      if (changed) {
        try {
          await pushBranch(checkout, url, row.ref, http, false);
        } catch (error) {
          // Refused because someone pushed meanwhile: their push is imported, then this is exported again.
          if ((await remoteHead(url, row.ref, http)) === checkout.oid) throw error;
          moved = true;
          return { commit: checkout.oid, changed: false, refused: 'the branch moved; importing it first' };
        }
      }
      const tree = await folderTree({ ...checkout, oid }, folder);
      const author = exportCommitAuthor(changes, quire);
      await updateGitSync(ctx.db, space.id, {
        commit_oid: oid,
        synced_tree: tree,
        synced_revision_id: revisionId,
        ...(changed ? { last_sync: JSON.stringify({ direction: 'export', commit: oid, revisionId, at: isoNow(ctx.clock), by: author.name }) } : {}),
      });
      return { commit: oid, changed, revisionId };
    });
    return moved ? 'moved' : 'done';
  } finally {
    await checkout.remove();
  }
}

/**
 * What main gained from `until` (the last synced revision) to `from`, newest first, along main's line: merged
 * change requests and live edits, with their people. At most 100 revisions are described.
 */
async function changesSince(ctx: AppContext, spaceId: string, from: string, until: string | null): Promise<ExportedChange[]> {
  const people = new Map<string, Person | undefined>();
  const person = async (userId: string | null): Promise<Person | undefined> => {
    if (!userId) return undefined;
    if (!people.has(userId)) {
      const user = await findUserById(ctx.db, userId);
      people.set(userId, user ? { name: user.display_name, email: user.email ?? `${userId}@users.noreply.${new URL(ctx.config.publicUrl).hostname}` } : undefined);
    }
    return people.get(userId);
  };
  const changes: ExportedChange[] = [];
  let id: string | undefined = from;
  for (let n = 0; id && id !== until && n < 100; n++) {
    const revision = await findRevision(ctx.db, id);
    if (!revision || revision.branch_id !== spaceId) break;
    if (revision.type === 'merge' && revision.merged_from) {
      const cr = await findChangeRequest(ctx.db, spaceId, revision.merged_from);
      // The change is its author's; whoever merged it only accepted it.
      changes.push({ kind: 'merge', subject: cr?.subject ?? '', number: cr?.number ?? 0, author: await person(cr?.created_by ?? revision.created_by) });
    } else if (revision.seq > 0) {
      changes.push({ kind: 'edit', author: await person(revision.created_by) });
    }
    id = (JSON.parse(revision.parents) as string[])[0];
  }
  return changes;
}
