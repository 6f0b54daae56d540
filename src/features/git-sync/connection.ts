import { randomBytes } from 'node:crypto';
import type { AppContext, Caller } from '../../platform/context.ts';
import { badRequest, isNotFound, notFound, unauthorized } from '../../platform/errors.ts';
import { isoNow } from '../../platform/clock.ts';
import { apiUrl } from '../../platform/urls.ts';
import { loadServerSecret } from '../../platform/secret-store.ts';
import { loadSpace } from '../spaces/service.ts';
import { recordAudit } from '../audit/record.ts';
import { spacePolicy } from '../spaces/policy.ts';
import { findSpace } from '../spaces/queries.ts';
import { openUrl, sealUrl } from './credentials.ts';
import { branchOf } from './git-client.ts';
import { disconnectGitSync, findGitSync, requestSyncOfRepository, updateGitSync, type GitSyncRow } from './store.ts';
import { readWebhook, type WebhookDelivery } from './webhooks.ts';

/*
 * A connected space's Git Sync, beyond the official operations (Quire's): disconnect it, ask for a sync now, make
 * the webhook's secret, and take a delivery of the webhook. Syncing itself is auto-sync.ts.
 */

/** The space's Git Sync row, for a caller who may run Git Sync on it; 404 when it is not connected. */
async function connectedSync(ctx: AppContext, caller: Caller, spaceId: string, what: string): Promise<GitSyncRow> {
  const { space } = await assertMayRun(ctx, caller, spaceId, what);
  const row = await findGitSync(ctx.db, space.id);
  if (!row?.sealed_url) throw notFound(`Space ${spaceId} is not connected to a Git repository: import from one or export to one to connect it`);
  return row;
}

/**
 * disconnectGitSync: the space stops syncing; its content and the repository stay as they are. As every DELETE
 * here, disconnecting what is not connected, or what the caller cannot see, answers as done.
 */
export async function disconnect(ctx: AppContext, caller: Caller, spaceId: string): Promise<void> {
  let space;
  try {
    ({ space } = await assertMayRun(ctx, caller, spaceId, 'Disconnecting Git Sync'));
  } catch (error) {
    if (isNotFound(error)) return;
    throw error;
  }
  await ctx.db.transaction().execute(async (trx) => {
    const row = await findGitSync(trx, space.id);
    if (!row) return;
    await disconnectGitSync(trx, space.id);
    await recordAudit(ctx, trx, space.organization_id, caller, { action: 'git_sync.disconnected', target: { type: 'space', id: space.id, label: space.title }, details: { url: row.url, ref: row.ref } });
  });
}

async function assertMayRun(ctx: AppContext, caller: Caller, spaceId: string, what: string) {
  const loaded = await loadSpace(ctx, caller, spaceId);
  spacePolicy.assert({ role: loaded.role, editMode: 'live' }, 'triggerGitSync', what);
  return loaded;
}

/** syncGitNow: both ways as soon as the worker can (within about a second). */
export async function requestSync(ctx: AppContext, caller: Caller, spaceId: string): Promise<void> {
  const row = await connectedSync(ctx, caller, spaceId, 'Syncing with Git');
  await updateGitSync(ctx.db, row.space_id, { sync_requested_at: isoNow(ctx.clock) });
}

/** The address a Git server posts the space's pushes to. */
export function webhookUrl(ctx: AppContext, spaceId: string): string {
  return apiUrl(ctx.config, `/git-sync/hooks/${spaceId}`);
}

/**
 * createGitSyncWebhook: a new secret for the space's webhook (the previous one stops working), answered this once:
 * only its sealed form is kept, to check the deliveries' signatures with.
 */
export async function createWebhookSecret(ctx: AppContext, caller: Caller, spaceId: string): Promise<{ url: string; secret: string }> {
  const row = await connectedSync(ctx, caller, spaceId, 'Setting up the Git Sync webhook');
  const secret = randomBytes(24).toString('base64url');
  const key = await loadServerSecret(ctx.db, 'git-sync-credentials', isoNow(ctx.clock));
  await updateGitSync(ctx.db, row.space_id, { webhook_secret: sealUrl(key, secret), webhook_delivery: null });
  return { url: webhookUrl(ctx, row.space_id), secret };
}

export interface WebhookAnswer {
  status: 202;
  body: { accepted: boolean; message: string };
}

/**
 * A delivery of the space's webhook. Unknown space, or no webhook set up: 404. A delivery that does not prove the
 * secret: 401, and nothing is queued. A push to the synced branch asks for a sync of every space synced with that
 * branch (one push may touch several folders of a repository); other events and branches are acknowledged.
 */
export async function receiveWebhook(ctx: AppContext, spaceId: string, headers: Record<string, string | string[] | undefined>, body: Buffer): Promise<WebhookAnswer> {
  const row = await findGitSync(ctx.db, spaceId);
  const space = row ? await findSpace(ctx.db, spaceId) : undefined;
  if (!row?.sealed_url || !row.webhook_secret || !space || space.deleted_at) throw notFound(`No Git Sync webhook for space ${spaceId}`);
  const key = await loadServerSecret(ctx.db, 'git-sync-credentials', isoNow(ctx.clock));
  const delivery = readWebhook(headers, body, openUrl(key, row.webhook_secret));
  if (!delivery) throw badRequest('headers: not a push webhook of GitHub, GitLab, Gitea, Forgejo or Bitbucket (no X-GitHub-Event, X-Gitlab-Event, X-Gitea-Event or X-Event-Key)');
  const record = (result: string) => updateGitSync(ctx.db, spaceId, { webhook_delivery: JSON.stringify({ at: isoNow(ctx.clock), provider: delivery.provider, event: delivery.event, result }) });
  if (!delivery.verified) {
    await record('refused: the signature does not match the secret');
    throw unauthorized(`The delivery's ${signatureHeader(delivery)} does not prove the webhook's secret`);
  }
  const answer = decide(delivery, row.ref);
  await record(answer.message);
  if (answer.accepted) await requestSyncOfRepository(ctx.db, row.url, row.ref, isoNow(ctx.clock));
  return { status: 202, body: answer };
}

function signatureHeader(delivery: WebhookDelivery): string {
  return { github: 'X-Hub-Signature-256', gitlab: 'X-Gitlab-Token', gitea: 'X-Gitea-Signature', bitbucket: 'X-Hub-Signature' }[delivery.provider];
}

function decide(delivery: WebhookDelivery, ref: string): { accepted: boolean; message: string } {
  if (!delivery.refs) return { accepted: false, message: `ignored: the ${delivery.event || 'unnamed'} event is not a push` };
  const wanted = `refs/heads/${branchOf(ref)}`;
  if (!delivery.refs.includes(wanted)) return { accepted: false, message: `ignored: the push is to ${delivery.refs.join(', ') || 'no branch'}, not ${wanted}` };
  return { accepted: true, message: `queued: a sync of ${wanted}` };
}
