import type { Executor } from '../../db/types.ts';
import type { UsersTable } from '../../db/types.ts';

export type UserRow = UsersTable;

export async function findUserById(db: Executor, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
}

export async function insertUser(db: Executor, row: UserRow): Promise<void> {
  await db.insertInto('users').values(row).execute();
}

export async function updateUserName(db: Executor, id: string, displayName: string): Promise<void> {
  await db.updateTable('users').set({ display_name: displayName }).where('id', '=', id).execute();
}

export async function updateUserProfile(db: Executor, id: string, changes: Partial<Pick<UserRow, 'display_name' | 'photo_url'>>): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', id).execute();
}

/** Marks the address proven; true when it was not yet (the caller then acts on the new proof). */
export async function markEmailVerified(db: Executor, id: string, now: string): Promise<boolean> {
  const result = await db.updateTable('users').set({ email_verified_at: now }).where('id', '=', id).where('email_verified_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function countUsers(db: Executor): Promise<number> {
  const row = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * True when `viewer` is an active member of an organization `other` belongs to. A disabled member no longer
 * sees the organization (access/service.ts), so neither do they see its people; a disabled `other` stays visible.
 */
export async function shareAnOrganization(db: Executor, viewer: string, other: string): Promise<boolean> {
  const row = await db
    .selectFrom('members as m1')
    .innerJoin('members as m2', 'm2.organization_id', 'm1.organization_id')
    .select('m1.organization_id')
    .where('m1.user_id', '=', viewer)
    .where('m1.disabled', '=', 0)
    .where('m2.user_id', '=', other)
    .executeTakeFirst();
  return row !== undefined;
}

/** Every user, or the members of one organization with their role (the `user list` command of operators). */
export async function listAllUsers(db: Executor, organizationId?: string): Promise<{ id: string; email: string | null; display_name: string; role: string | null }[]> {
  const query = db.selectFrom('users').select(['users.id', 'users.email', 'users.display_name']).orderBy('users.created_at').orderBy('users.id');
  if (!organizationId) return (await query.execute()).map((user) => ({ ...user, role: null }));
  return query.innerJoin('members', 'members.user_id', 'users.id').where('members.organization_id', '=', organizationId).select('members.role').execute();
}
