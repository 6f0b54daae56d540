import { createHash, randomBytes } from 'node:crypto';
import type { AppContext, Caller, InstallationCaller } from '../../platform/context.ts';
import { forbidden } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { cachedRead, readCache } from '../../platform/read-cache.ts';
import { deleteInBatches } from '../../platform/batched-delete.ts';
import { OrgAccess } from '../access/service.ts';
import { loadIntegration } from './service.ts';
import { deleteTokensExpiredBefore, findActiveInstallationToken, findInstallation, insertInstallationToken } from './store.ts';
import { notFound } from '../../platform/errors.ts';

/** Installation tokens are told apart from personal ones by their prefix, so one lookup decides which table to ask. */
export const INSTALLATION_TOKEN_PREFIX = 'quire_inst_';

/** Like GitBook's: an installation token lives one hour; the integration asks for another when it needs one. */
export const INSTALLATION_TOKEN_TTL_MS = 60 * 60 * 1000;

/**
 * An expired token is kept this long before it is purged: a day in which its row still tells, when someone
 * looks, which installation a token that stopped working belonged to.
 */
export const EXPIRED_TOKEN_GRACE_MS = 24 * 60 * 60 * 1000;
/** Tokens deleted per statement, and statements per sweep (platform/batched-delete.ts). */
const PURGE_BATCH = 500;
const PURGE_BATCHES_PER_RUN = 20;

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Issues a token acting as the installation. Who may: admins of the organization it is installed in, admins of
 * the organization that owns the integration (the developer's server asks for them), and the installation
 * itself (a token renewing itself). The value is returned once and stored as its SHA-256 only.
 */
export async function createInstallationToken(ctx: AppContext, caller: Caller, name: string, installationId: string): Promise<{ token: string }> {
  const { integration, access } = await loadIntegration(ctx, caller, name);
  const installation = await findInstallation(ctx.db, integration.id, installationId);
  if (!installation) throw notFound(`No installation ${installationId} of integration ${name}`);
  const itself = caller.kind === 'installation' && caller.installationId === installation.id;
  const ownerAdmin = caller.kind === 'user' && access.orgRole === 'admin';
  const installedAdmin = caller.kind === 'user' && (await OrgAccess.load(ctx.db, installation.organization_id, caller)).orgRole === 'admin';
  if (!itself && !ownerAdmin && !installedAdmin) {
    const seen = caller.kind === 'user' && (await OrgAccess.load(ctx.db, installation.organization_id, caller)).isMember;
    if (!seen) throw notFound(`No installation ${installationId} of integration ${name}`);
    throw forbidden('Creating an installation token is only for admins of the organization it is installed in or of the one owning the integration');
  }
  return { token: (await issueInstallationToken(ctx, installation.id)).token };
}

/**
 * A new token acting as an installation, with no check of who asks: for the server itself (the environment of
 * the integration's script) and for createInstallationToken once it has checked the caller.
 */
export async function issueInstallationToken(ctx: AppContext, installationId: string): Promise<{ token: string; expiresAt: Date }> {
  const token = `${INSTALLATION_TOKEN_PREFIX}${randomBytes(30).toString('base64url')}`;
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + INSTALLATION_TOKEN_TTL_MS);
  await insertInstallationToken(ctx.db, {
    id: newId(),
    installation_id: installationId,
    token_hash: hashToken(token),
    created_at: now.toISOString(),
    expires_at: expiresAt.toISOString(),
    revoked_at: null,
  });
  return { token, expiresAt };
}

type ActiveInstallationToken = Awaited<ReturnType<typeof findActiveInstallationToken>>;

/**
 * Active installation tokens by hash, cached like personal ones (a few seconds, emptied by any write of the
 * tables they come from: an uninstall or unpublish in this process cuts the token off at once). The expiry is
 * checked at every use, cached or not.
 */
function installationTokenCache(ctx: AppContext) {
  return readCache<ActiveInstallationToken>(ctx.db, 'installation-tokens', {
    max: 10_000,
    ttlMs: 'shared',
    dependsOn: ['installation_tokens', 'integration_installations', 'integrations'],
    keep: (row) => row !== undefined,
  });
}

export async function authenticateInstallationToken(ctx: AppContext, token: string): Promise<InstallationCaller | null> {
  const hash = hashToken(token);
  const now = ctx.clock.now().toISOString();
  const row = await cachedRead(installationTokenCache(ctx), hash, () => findActiveInstallationToken(ctx.db, hash, now));
  if (!row || row.expires_at <= now) return null;
  return {
    kind: 'installation',
    installationId: row.installation_id,
    integrationId: row.integration_id,
    organizationId: row.organization_id,
    scopes: JSON.parse(row.scopes) as string[],
    tokenId: row.id,
    installedBy: row.created_by,
  };
}

/**
 * Deletes installation tokens expired for more than the grace period, in bounded batches (a sweep of the
 * worker: idempotent, any process may run it). Answers how many were deleted.
 */
export async function purgeExpiredInstallationTokens(ctx: AppContext): Promise<number> {
  const cutoff = new Date(ctx.clock.now().getTime() - EXPIRED_TOKEN_GRACE_MS).toISOString();
  return deleteInBatches((limit) => deleteTokensExpiredBefore(ctx.db, cutoff, limit), PURGE_BATCH, PURGE_BATCHES_PER_RUN);
}
