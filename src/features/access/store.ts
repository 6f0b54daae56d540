import type { Executor } from '../../db/types.ts';

export async function findMemberRole(db: Executor, organizationId: string, userId: string) {
  return db
    .selectFrom('members')
    .select(['role', 'disabled'])
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** The whole collection tree of an organization, as far as access is concerned (small: ids and levels). */
export async function listCollectionLevels(db: Executor, organizationId: string) {
  return db.selectFrom('collections').select(['id', 'parent_id', 'default_level']).where('organization_id', '=', organizationId).execute();
}
