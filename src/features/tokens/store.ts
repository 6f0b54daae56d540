import type { Executor } from '../../db/types.ts';

export async function findActiveTokenByHash(db: Executor, tokenHash: string) {
  return db
    .selectFrom('api_tokens')
    .select(['id', 'user_id', 'last_used_at', 'expires_at', 'organization_id'])
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

export async function touchToken(db: Executor, id: string, now: string) {
  await db.updateTable('api_tokens').set({ last_used_at: now }).where('id', '=', id).execute();
}

export async function insertToken(db: Executor, row: { id: string; user_id: string; token_hash: string; label: string; created_at: string; expires_at?: string | null; organization_id?: string | null }) {
  await db.insertInto('api_tokens').values(row).execute();
}

export async function revokeTokens(db: Executor, where: { id?: string; tokenHash?: string; userId?: string }, now: string): Promise<number> {
  let q = db.updateTable('api_tokens').set({ revoked_at: now }).where('revoked_at', 'is', null);
  if (where.id) q = q.where('id', '=', where.id);
  if (where.userId) q = q.where('user_id', '=', where.userId);
  if (where.tokenHash) q = q.where('token_hash', '=', where.tokenHash);
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function listTokensOfUser(db: Executor, userId: string) {
  return db
    .selectFrom('api_tokens')
    .select(['id', 'label', 'created_at', 'last_used_at', 'revoked_at', 'expires_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
}

/** A person's tokens that still open: not revoked, not expired (newest first, bounded). */
export async function listActiveTokensOfUser(db: Executor, userId: string, now: string) {
  return db
    .selectFrom('api_tokens')
    .select(['id', 'label', 'created_at', 'last_used_at', 'expires_at'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1000)
    .execute();
}

export async function findTokenOfUser(db: Executor, userId: string, id: string) {
  return db.selectFrom('api_tokens').select(['id', 'label', 'organization_id']).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
}
