import { hash, randomBytes } from 'node:crypto';
import { personOf, type AppContext, type Caller } from '../../platform/context.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { isoNow } from '../../platform/clock.ts';
import type { Executor } from '../../db/types.ts';
import { cachedRead, readCache } from '../../platform/read-cache.ts';
import { authenticateInstallationToken, INSTALLATION_TOKEN_PREFIX } from '../integrations/tokens.ts';
import { authenticateNotificationsToken, looksLikeNotificationsToken } from '../notifications/token.ts';
import { recordAudit, recordAuditForMember, type AuditEntry } from '../audit/record.ts';
import { findActiveTokenByHash, findTokenOfUser, insertToken, listActiveTokensOfUser, listTokensOfUser, revokeTokens, touchToken } from './store.ts';

/** Tokens are stored only as their SHA-256: a database leak does not leak credentials. */
export function hashToken(token: string): string {
  // The one-shot form: every request hashes its token, and a Hash object per request costs more than the hash.
  return hash('sha256', token, 'hex');
}

export function generateTokenValue(): string {
  return `quire_${randomBytes(30).toString('base64url')}`;
}

/** Writing last_used_at on every request would turn reads into writes; once a minute is precise enough. */
const TOUCH_INTERVAL_MS = 60_000;

type ActiveToken = Awaited<ReturnType<typeof findActiveTokenByHash>>;

/**
 * Active tokens by hash, for a few seconds at most: every request checks its token, few revoke one. A revocation
 * (or a deleted user) in this process empties the cache at once; in another process it shows within the TTL.
 */
function tokenCache(ctx: AppContext) {
  return readCache<ActiveToken>(ctx.db, 'tokens', { max: 10_000, ttlMs: 'shared', dependsOn: ['api_tokens', 'users'], keep: (row) => row !== undefined });
}

export async function authenticateToken(ctx: AppContext, token: string): Promise<Caller | null> {
  // Installation tokens (features/integrations) carry their own prefix and live in their own table.
  if (token.startsWith(INSTALLATION_TOKEN_PREFIX)) return authenticateInstallationToken(ctx, token);
  if (looksLikeNotificationsToken(token)) return authenticateNotificationsToken(ctx, token);
  const hash = hashToken(token);
  const row = await cachedRead(tokenCache(ctx), hash, () => findActiveTokenByHash(ctx.db, hash));
  if (!row) return null;
  const now = ctx.clock.now();
  if (row.expires_at !== null && Date.parse(row.expires_at) <= now.getTime()) return null;
  if (!row.last_used_at || now.getTime() - Date.parse(row.last_used_at) > TOUCH_INTERVAL_MS) {
    await touchToken(ctx.db, row.id, now.toISOString());
  }
  return { kind: 'user', userId: row.user_id, tokenId: row.id, ...(row.organization_id ? { onlyOrganization: row.organization_id } : {}) };
}

/** Issues a personal API token; the value is returned once and never stored. */
export async function issueToken(
  ctx: AppContext,
  db: Executor,
  userId: string,
  options: { label?: string; value?: string; expiresAt?: string; onlyOrganization?: string | undefined } = {},
): Promise<{ id: string; token: string; createdAt: string }> {
  const token = options.value ?? generateTokenValue();
  if (token.length < 16) throw badRequest('a token must be at least 16 characters long');
  const id = newId();
  const createdAt = isoNow(ctx.clock);
  await insertToken(db, {
    id,
    user_id: userId,
    token_hash: hashToken(token),
    label: options.label ?? 'api',
    created_at: createdAt,
    expires_at: options.expiresAt ?? null,
    organization_id: options.onlyOrganization ?? null,
  });
  return { id, token, createdAt };
}

/** Every token of a person ends (someone who never proved the account's address minted them, say). */
export async function revokeAllTokensOf(ctx: AppContext, db: Executor, userId: string): Promise<void> {
  await revokeTokens(db, { userId }, isoNow(ctx.clock));
}

export async function revokeToken(ctx: AppContext, which: { id?: string; token?: string }): Promise<number> {
  return revokeTokens(ctx.db, { id: which.id, tokenHash: which.token ? hashToken(which.token) : undefined }, isoNow(ctx.clock));
}

export async function listTokens(ctx: AppContext, userId: string) {
  return listTokensOfUser(ctx.db, userId);
}

/** Personal API tokens, as the person manages them (`/v1/user/tokens`): their own, the value shown once. */
export async function listOwnTokens(ctx: AppContext, caller: Caller) {
  const rows = await listActiveTokensOfUser(ctx.db, personOf(caller), isoNow(ctx.clock));
  return { items: rows.map((row) => ({ id: row.id, label: row.label, createdAt: row.created_at, lastUsedAt: row.last_used_at, expiresAt: row.expires_at })) };
}

export async function createOwnToken(ctx: AppContext, caller: Caller, body: { label: string; expiresAt?: string | undefined }) {
  const label = body.label.trim();
  if (!label) throw badRequest('body/label must NOT be blank');
  let expiresAt: string | undefined;
  if (body.expiresAt !== undefined) {
    const at = Date.parse(body.expiresAt);
    if (!(at > ctx.clock.now().getTime())) throw badRequest('body/expiresAt must be in the future');
    expiresAt = new Date(at).toISOString();
  }
  // A token minted by a session an identity provider opened (or by such a token) reaches what that session
  // reaches: the provider's organization only.
  const onlyOrganization = caller.kind === 'user' ? caller.onlyOrganization : undefined;
  const userId = personOf(caller);
  const issued = await ctx.db.transaction().execute(async (trx) => {
    const issued = await issueToken(ctx, trx, userId, { label, ...(expiresAt ? { expiresAt } : {}), onlyOrganization });
    await auditTokenChange(ctx, trx, caller, userId, onlyOrganization, { action: 'api_token.created', target: { type: 'api-token', id: issued.id, label }, details: { expiresAt: expiresAt ?? null } });
    return issued;
  });
  return { id: issued.id, label, createdAt: issued.createdAt, expiresAt: expiresAt ?? null, token: issued.token };
}

/** Revokes one of the caller's tokens; another person's is 404, as if it did not exist. */
export async function deleteOwnToken(ctx: AppContext, caller: Caller, tokenId: string): Promise<void> {
  const userId = personOf(caller);
  await ctx.db.transaction().execute(async (trx) => {
    const token = await findTokenOfUser(trx, userId, tokenId);
    const count = await revokeTokens(trx, { id: tokenId, userId }, isoNow(ctx.clock));
    if (count === 0 || !token) throw notFound(`No token ${tokenId} of yours`);
    await auditTokenChange(ctx, trx, caller, userId, token.organization_id ?? undefined, { action: 'api_token.revoked', target: { type: 'api-token', id: tokenId, label: token.label } });
  });
}

/**
 * A personal token reaches every organization of its owner (or the one it is bound to): each of their audit
 * logs records its creation and revocation.
 */
async function auditTokenChange(ctx: AppContext, db: Executor, caller: Caller, userId: string, onlyOrganization: string | undefined, entry: AuditEntry) {
  if (onlyOrganization) await recordAudit(ctx, db, onlyOrganization, caller, entry);
  else await recordAuditForMember(ctx, db, userId, caller, entry);
}
