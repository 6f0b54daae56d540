import type { Static } from 'typebox';
import type { Executor } from '../../db/types.ts';
import { personOf, type AppContext, type Caller } from '../../platform/context.ts';
import { badRequest, forbidden, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { isoNow } from '../../platform/clock.ts';
import { recordEvent } from '../../platform/events.ts';
import { OrgAccess } from '../access/service.ts';
import { rank, type Role } from '../access/roles.ts';
import { findOrganization } from '../organizations/queries.ts';
import { addOrUpdateMember } from '../members/service.ts';
import { recordAudit } from '../audit/record.ts';
import { findMember } from '../members/queries.ts';
import { assertCanManageMembers } from '../members/policy.ts';
import type { CreateOrganizationInviteBody, UpdateOrganizationInviteBody } from './schemas.ts';
import { countInvites, deleteInvite, findInvite, insertInvite, listInvites, updateInviteRole, type InviteRow } from './store.ts';

/** An invite gives `role`; a guest invite (null) gives membership without a role. */
const roleRank = (role: Role | null) => (role === null ? 0 : rank(role));

function present(access: OrgAccess, row: InviteRow) {
  const role = row.role as Role | null;
  return { object: 'invite' as const, id: row.id, role, redundant: access.isMember && roleRank(access.orgRole) >= roleRank(role) };
}

async function adminAccess(ctx: AppContext, caller: Caller, organizationId: string): Promise<OrgAccess> {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertCanManageMembers(access);
  return access;
}

async function requireInvite(ctx: AppContext, organizationId: string, id: string): Promise<InviteRow> {
  const row = await findInvite(ctx.db, organizationId, id);
  if (!row) throw notFound(`No invite ${id} in organization ${organizationId}`);
  return row;
}

export async function listOrganizationInvites(ctx: AppContext, caller: Caller, organizationId: string, query: { page?: string; limit?: number }) {
  const access = await adminAccess(ctx, caller, organizationId);
  const listKey = `invites:${organizationId}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const [rows, count] = await Promise.all([listInvites(ctx.db, organizationId, page), countInvites(ctx.db, organizationId)]);
  return ctx.cursors.close(listKey, page, rows, count, (row) => [row.created_at, row.id], (row) => present(access, row));
}

/** A shareable invite link of the organization: whoever holds its id and an account joins with its role. */
export async function createOrganizationInvite(ctx: AppContext, caller: Caller, organizationId: string, body: Static<typeof CreateOrganizationInviteBody>) {
  const access = await adminAccess(ctx, caller, organizationId);
  const row: InviteRow = { id: newId(), organization_id: organizationId, role: body.role, created_by: personOf(caller), created_at: isoNow(ctx.clock) };
  await ctx.db.transaction().execute(async (trx) => {
    await insertInvite(trx, row);
    await recordEvent(trx, ctx.clock, 'organization_invite_created', organizationId, { inviteId: row.id, role: row.role });
    await recordAudit(ctx, trx, organizationId, caller, { action: 'invite_link.created', target: { type: 'invite', id: row.id }, details: { role: row.role } });
  });
  return present(access, row);
}

export async function getOrganizationInvite(ctx: AppContext, caller: Caller, organizationId: string, id: string) {
  const access = await adminAccess(ctx, caller, organizationId);
  return present(access, await requireInvite(ctx, organizationId, id));
}

export async function updateOrganizationInvite(ctx: AppContext, caller: Caller, organizationId: string, id: string, body: Static<typeof UpdateOrganizationInviteBody>) {
  const access = await adminAccess(ctx, caller, organizationId);
  const row = await requireInvite(ctx, organizationId, id);
  const role = body.role !== undefined ? body.role : body.level;
  if (role === undefined) throw badRequest('body must have the property role (or level)');
  await updateInviteRole(ctx.db, row.id, role);
  return present(access, { ...row, role });
}

/** Deletes an invite; true when there was one (205, else 204). */
export async function deleteOrganizationInvite(ctx: AppContext, caller: Caller, organizationId: string, id: string): Promise<boolean> {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  if (!access.isMember) return false;
  assertCanManageMembers(access);
  return ctx.db.transaction().execute(async (trx) => {
    const deleted = await deleteInvite(trx, organizationId, id);
    if (deleted) await recordAudit(ctx, trx, organizationId, caller, { action: 'invite_link.revoked', target: { type: 'invite', id } });
    return deleted;
  });
}

/**
 * Joins the organization with an invite: a newcomer becomes a member with its role; a member keeps a higher
 * role and is raised to the invite's otherwise; a disabled member stays out. The invite stays usable by others.
 */
export async function joinOrganizationWithInvite(ctx: AppContext, caller: Caller, organizationId: string, id: string): Promise<Record<string, never>> {
  const userId = personOf(caller);
  await ctx.db.transaction().execute((trx) => joinWithInvite(ctx, trx, organizationId, id, userId, caller));
  return {};
}

/** Joining, inside the caller's transaction (signing up with an invite link creates the account in the same one). */
export async function joinWithInvite(ctx: AppContext, trx: Executor, organizationId: string, id: string, userId: string, caller?: Caller): Promise<void> {
  if (!(await findOrganization(trx, organizationId))) throw notFound(`No organization ${organizationId}`);
  const invite = await findInvite(trx, organizationId, id);
  if (!invite) throw notFound(INVITE_GONE);
  const role = invite.role as Role | null;
  const member = await findMember(trx, organizationId, userId);
  if (member?.disabled) throw forbidden('Your membership of this organization is disabled');
  if (member && roleRank(member.role as Role | null) >= roleRank(role)) return;
  await addOrUpdateMember(ctx, trx, organizationId, userId, role, caller ?? { kind: 'person', userId });
}

/** Revoked (deleted) and made-up links look the same: neither tells whether the organization exists. */
export const INVITE_GONE = 'This invite link is no longer valid: it was revoked, or it never existed. Ask an administrator of the organization for a new one.';

/**
 * What an invite link is for, to whoever holds it (the join screen shows it before anyone signs in): the
 * organization's name and the role. Holding the link's id is what allows joining, so it may tell this much.
 */
export async function describeInviteLink(ctx: AppContext, organizationId: string, id: string) {
  const [organization, invite] = await Promise.all([findOrganization(ctx.db, organizationId), findInvite(ctx.db, organizationId, id)]);
  if (!organization || !invite) throw notFound(INVITE_GONE);
  return { organization: { id: organization.id, title: organization.title }, role: invite.role as Role | null };
}
