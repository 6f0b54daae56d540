import type { Executor, OrganizationInvitesTable } from '../../db/types.ts';
import { keysetPage } from '../../db/keyset.ts';
import type { PageRequest } from '../../platform/pagination.ts';

export type InviteRow = OrganizationInvitesTable;

export async function insertInvite(db: Executor, row: InviteRow): Promise<void> {
  await db.insertInto('organization_invites').values(row).execute();
}

export async function findInvite(db: Executor, organizationId: string, id: string): Promise<InviteRow | undefined> {
  return db.selectFrom('organization_invites').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

export async function listInvites(db: Executor, organizationId: string, page: PageRequest): Promise<InviteRow[]> {
  return keysetPage(db.selectFrom('organization_invites').selectAll().where('organization_id', '=', organizationId), ['created_at', 'id'], 'asc', page).execute();
}

export async function countInvites(db: Executor, organizationId: string): Promise<number> {
  const row = await db.selectFrom('organization_invites').select((eb) => eb.fn.countAll().as('n')).where('organization_id', '=', organizationId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function updateInviteRole(db: Executor, id: string, role: string | null): Promise<void> {
  await db.updateTable('organization_invites').set({ role }).where('id', '=', id).execute();
}

export async function deleteInvite(db: Executor, organizationId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('organization_invites').where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
