import type { Executor } from '../../db/types.ts';

export async function findMember(db: Executor, organizationId: string, userId: string) {
  return db.selectFrom('members').selectAll().where('organization_id', '=', organizationId).where('user_id', '=', userId).executeTakeFirst();
}

export async function insertMemberRow(db: Executor, row: { organization_id: string; user_id: string; role: string | null; joined_at: string }) {
  await db.insertInto('members').values({ ...row, disabled: 0, sso: 0, last_seen_at: null }).execute();
}

export async function setMemberRole(db: Executor, organizationId: string, userId: string, role: string | null) {
  await db.updateTable('members').set({ role }).where('organization_id', '=', organizationId).where('user_id', '=', userId).execute();
}
