import type { Executor, SignInLinksTable } from '../../db/types.ts';

export type SignInLinkRow = SignInLinksTable;

export async function findPasswordHash(db: Executor, userId: string): Promise<string | undefined> {
  return (await db.selectFrom('user_passwords').select('hash').where('user_id', '=', userId).executeTakeFirst())?.hash;
}

export async function savePasswordHash(db: Executor, userId: string, hash: string, now: string): Promise<void> {
  await db
    .insertInto('user_passwords')
    .values({ user_id: userId, hash, updated_at: now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ hash, updated_at: now }))
    .execute();
}

/** Whether the person has an account they sign in to already: a password, or membership of another organization. */
export async function hasOwnAccount(db: Executor, userId: string, organizationId: string): Promise<boolean> {
  const password = await db.selectFrom('user_passwords').select('user_id').where('user_id', '=', userId).executeTakeFirst();
  if (password) return true;
  const elsewhere = await db.selectFrom('members').select('organization_id').where('user_id', '=', userId).where('organization_id', '!=', organizationId).executeTakeFirst();
  return elsewhere !== undefined;
}

export async function insertLink(db: Executor, row: SignInLinkRow): Promise<void> {
  await db.insertInto('sign_in_links').values(row).execute();
}

/** A link that still opens: not used, not expired. */
export async function findOpenLink(db: Executor, tokenHash: string, now: string): Promise<SignInLinkRow | undefined> {
  return db.selectFrom('sign_in_links').selectAll().where('token_hash', '=', tokenHash).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
}

/** Marks a link used; true only for the one call that did (two submissions of one link race here). */
export async function useLink(db: Executor, id: string, now: string): Promise<boolean> {
  const result = await db.updateTable('sign_in_links').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Every other open link of the person ends too: once they have set a password, older links must not reset it. */
export async function closeLinksOf(db: Executor, userId: string, now: string): Promise<void> {
  await db.updateTable('sign_in_links').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
}

/** Links past their expiry protect nothing and open nothing. */
export async function deleteExpiredLinks(db: Executor, now: string): Promise<void> {
  await db.deleteFrom('sign_in_links').where('expires_at', '<', now).execute();
}

export async function deletePasswordOf(db: Executor, userId: string): Promise<void> {
  await db.deleteFrom('user_passwords').where('user_id', '=', userId).execute();
}
