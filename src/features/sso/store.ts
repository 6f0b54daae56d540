import type { Executor, UserIdentitiesTable } from '../../db/types.ts';

export type IdentityRow = UserIdentitiesTable;

/**
 * The identity a provider's answer names: by its subject, else a link carried over from before identities were
 * kept (no subject yet) for the same e-mail, which the caller then completes with the subject.
 */
export async function findIdentity(db: Executor, providerId: string, subject: string, email: string): Promise<IdentityRow | undefined> {
  const bySubject = await db.selectFrom('user_identities').selectAll().where('provider_id', '=', providerId).where('subject', '=', subject).executeTakeFirst();
  if (bySubject) return bySubject;
  return db.selectFrom('user_identities').selectAll().where('provider_id', '=', providerId).where('subject', 'is', null).where('email', '=', email).executeTakeFirst();
}

export async function insertIdentity(db: Executor, row: IdentityRow): Promise<void> {
  await db.insertInto('user_identities').values(row).execute();
}

export async function touchIdentity(db: Executor, id: string, changes: { subject: string; email: string; last_used_at: string }): Promise<void> {
  await db.updateTable('user_identities').set(changes).where('id', '=', id).execute();
}

export async function listIdentitiesOfUser(db: Executor, userId: string): Promise<IdentityRow[]> {
  return db.selectFrom('user_identities').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
}

export async function deleteIdentityOfUser(db: Executor, userId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('user_identities').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Every provider link of an account but those its organization's verified domain vouches for. */
export async function deleteUnprovenIdentities(db: Executor, userId: string): Promise<void> {
  await db.deleteFrom('user_identities').where('user_id', '=', userId).where('origin', '!=', 'domain').execute();
}
