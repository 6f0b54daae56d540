import type { Static } from 'typebox';
import type { Executor } from '../../db/types.ts';
import { type AppContext, type Caller, personOf } from '../../platform/context.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import { isoNow } from '../../platform/clock.ts';
import { recordEvent } from '../../platform/events.ts';
import { OrgAccess } from '../access/service.ts';
import { isRole, type Role } from '../access/roles.ts';
import { findOrganization } from '../organizations/queries.ts';
import { NO_ACTIVITY, presentSpace } from '../spaces/present.ts';
import { countersOfMany } from '../spaces/service.ts';
import { countSpaces, listSpaces, type SpaceFilter } from '../spaces/queries.ts';
import { presentTeams } from '../teams/service.ts';
import { countTeams, listTeams, teamRolesOfUser, type TeamFilter } from '../teams/queries.ts';
import { normalizeEmail } from '../users/email.ts';
import { createUser } from '../users/service.ts';
import { findUserByEmail } from '../users/queries.ts';
import { COUNTED_TABLES, memberCounts } from './counts.ts';
import { serializedRead } from '../../platform/read-cache.ts';
import { assertCanListMembers, assertCanListSpacesOf, assertCanManageMembers, assertCanSeeMember } from './policy.ts';
import { presentMember } from './present.ts';
import type { InviteUsersBody, ListMembersQuery, ListMemberSpacesQuery, ListMemberTeamsQuery } from './schemas.ts';
import {
  countAdmins,
  countMembers,
  deleteMember,
  findMember,
  findMemberWithUser,
  insertMemberRow,
  listMembers,
  lockOrganizationMembership,
  savePendingInvitation,
  setMemberRole,
  takePendingInvitationsOf,
  updateMember,
  type MemberFilter,
  type MemberRow,
} from './store.ts';
import { signVisitorClaims } from './visitor-claims.ts';
import { revokeSessionsOfMember } from '../sessions/service.ts';
import { recordAudit, type AuditActor } from '../audit/record.ts';

/**
 * Makes a user a member of an organization with a role (null: guest), or changes the role of a member. The audit
 * log names `actor` as who did it: by default the person themselves (joining with a link, by e-mail domain).
 */
export async function addOrUpdateMember(
  ctx: AppContext,
  db: Executor,
  organizationId: string,
  userId: string,
  role: Role | null,
  actor: AuditActor = { kind: 'person', userId },
): Promise<'added' | 'updated'> {
  const existing = await findMember(db, organizationId, userId);
  const target = { type: 'user', id: userId };
  if (existing) {
    await setMemberRole(db, organizationId, userId, role);
    if (existing.role !== role) await recordAudit(ctx, db, organizationId, actor, { action: 'member.role_changed', target, details: { role: { from: existing.role, to: role } } });
    return 'updated';
  }
  await insertMemberRow(db, { organization_id: organizationId, user_id: userId, role, joined_at: isoNow(ctx.clock) });
  await recordEvent(db, ctx.clock, 'member_joined', organizationId, { userId, role });
  await recordAudit(ctx, db, organizationId, actor, { action: 'member.added', target, details: { role } });
  return 'added';
}

/**
 * A person an identity provider of the organization has just signed in (features/saml): a newcomer joins with
 * the provider's default role (null: guest), and everyone signing in this way is marked as an SSO member.
 * A disabled member stays out.
 */
export async function admitSsoMember(ctx: AppContext, db: Executor, organizationId: string, userId: string, role: Role | null): Promise<'joined' | 'member' | 'disabled'> {
  const existing = await findMember(db, organizationId, userId);
  if (existing?.disabled) return 'disabled';
  if (existing) {
    if (existing.sso !== 1) {
      await updateMember(db, organizationId, userId, { sso: 1 });
      await recordEvent(db, ctx.clock, 'member_updated', organizationId, { userId, sso: true });
    }
    return 'member';
  }
  await insertMemberRow(db, { organization_id: organizationId, user_id: userId, role, joined_at: isoNow(ctx.clock), sso: 1 });
  await recordEvent(db, ctx.clock, 'member_joined', organizationId, { userId, role, sso: true });
  await recordAudit(ctx, db, organizationId, { kind: 'person', userId }, { action: 'member.added', target: { type: 'user', id: userId }, details: { role, sso: true } });
  return 'joined';
}

async function loadAccess(ctx: AppContext, caller: Caller, organizationId: string) {
  return OrgAccess.load(ctx.db, organizationId, caller);
}

async function presentOne(ctx: AppContext, access: OrgAccess, row: MemberRow) {
  const counts = await memberCounts(ctx, access, [row]);
  return presentMember(ctx.config, row, counts.get(row.user_id)!);
}

async function requireMember(db: Executor, organizationId: string, userId: string): Promise<MemberRow> {
  const row = await findMemberWithUser(db, organizationId, userId);
  if (!row) throw notFound(`No member ${userId} in organization ${organizationId}`);
  return row;
}

/**
 * A page of the organization's members as JSON text, written by `serialize` (the route's response serializer).
 * What a member shows does not depend on who asks (once they may list members), so a page is kept per list
 * and page until a write to what it shows: the members, their users and what their counts are read from
 * (platform/read-cache.ts serializedRead).
 */
export async function listMembersOfOrganizationJson(ctx: AppContext, caller: Caller, organizationId: string, query: Static<typeof ListMembersQuery>, serialize: (page: unknown) => string): Promise<string> {
  const access = await loadAccess(ctx, caller, organizationId);
  assertCanListMembers(access);
  const sort = query.sort ?? 'joinedAt';
  const order = query.order ?? 'desc';
  const filter: MemberFilter = { organizationId, role: query.role, search: query.search, seenOnly: sort === 'lastSeenAt' };
  const listKey = `members:${organizationId}:${sort}:${order}:${query.role ?? ''}:${query.search ?? ''}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const key = JSON.stringify([ctx.config.publicUrl, listKey, query.page ?? '', page.limit]);
  return serializedRead(ctx.db, 'members:pages', COUNTED_TABLES, key, async () => {
    const [rows, count] = await Promise.all([listMembers(ctx.db, filter, sort, order, page), countMembers(ctx.db, filter)]);
    // Access is read again inside: one read before the cache's own look-up could be older than its last emptying.
    const counts = await memberCounts(ctx, await loadAccess(ctx, caller, organizationId), rows.slice(0, page.limit));
    return serialize(
      ctx.cursors.close(
        listKey,
        page,
        rows,
        count,
        (row) => [sort === 'joinedAt' ? row.joined_at : row.last_seen_at!, row.user_id],
        (row) => presentMember(ctx.config, row, counts.get(row.user_id)!),
      ),
    );
  });
}

export async function getMemberOfOrganization(ctx: AppContext, caller: Caller, organizationId: string, userId: string) {
  const access = await loadAccess(ctx, caller, organizationId);
  assertCanSeeMember(access, personOf(caller), userId);
  return presentOne(ctx, access, await requireMember(ctx.db, organizationId, userId));
}

/**
 * Changes a member's role (null makes them a guest) and disables or enables them (a disabled member keeps
 * their place but reaches nothing, and their sessions through the organization end). The organization keeps
 * at least one active admin: demoting or disabling the last one is a conflict.
 */
export async function updateMemberRole(ctx: AppContext, caller: Caller, organizationId: string, userId: string, role: Role | null | undefined, disabled?: boolean) {
  const access = await loadAccess(ctx, caller, organizationId);
  assertCanManageMembers(access);
  const row = await ctx.db.transaction().execute(async (trx) => {
    await lockOrganizationMembership(trx, organizationId);
    const row = await requireMember(trx, organizationId, userId);
    const changes = {
      ...(role !== undefined && role !== row.role ? { role } : {}),
      ...(disabled !== undefined && disabled !== (row.disabled === 1) ? { disabled: disabled ? 1 : 0 } : {}),
    };
    if (Object.keys(changes).length === 0) return row;
    const losesAdmin = row.role === 'admin' && row.disabled === 0 && ((changes.role !== undefined && changes.role !== 'admin') || changes.disabled === 1);
    if (losesAdmin && (await countAdmins(trx, organizationId)) <= 1) {
      throw conflict(changes.disabled === 1 ? 'The last admin of an organization cannot be disabled: make another member admin first' : 'The last admin of an organization cannot be demoted: make another member admin first');
    }
    await updateMember(trx, organizationId, userId, changes);
    if (changes.disabled === 1) await revokeSessionsOfMember(ctx, trx, organizationId, userId);
    await recordEvent(trx, ctx.clock, 'member_updated', organizationId, {
      userId,
      ...(changes.role !== undefined ? { role: changes.role } : {}),
      ...(changes.disabled !== undefined ? { disabled: changes.disabled === 1 } : {}),
    });
    await recordAudit(ctx, trx, organizationId, caller, {
      action: 'member.role_changed',
      target: { type: 'user', id: userId },
      details: {
        ...(changes.role !== undefined ? { role: { from: row.role, to: changes.role } } : {}),
        ...(changes.disabled !== undefined ? { disabled: changes.disabled === 1 } : {}),
      },
    });
    return { ...row, ...changes };
  });
  return presentOne(ctx, access, row);
}

/**
 * Removes a member (admins remove anyone; a member may leave). What they wrote stays; their team places and
 * grants in the organization go, and their tokens no longer reach it (membership is what grants access).
 */
export async function removeMember(ctx: AppContext, caller: Caller, organizationId: string, userId: string): Promise<void> {
  const access = await loadAccess(ctx, caller, organizationId);
  // In an organization the caller cannot see there is no member for them to remove: 204, as for any missing target.
  if (!access.isMember) return;
  if (userId !== personOf(caller)) assertCanManageMembers(access);
  else assertCanSeeMember(access, personOf(caller), userId);
  await ctx.db.transaction().execute(async (trx) => {
    await lockOrganizationMembership(trx, organizationId);
    const row = await findMember(trx, organizationId, userId);
    if (!row) return;
    if (row.role === 'admin' && (await countAdmins(trx, organizationId)) <= 1) {
      throw conflict('The last admin of an organization cannot be removed: make another member admin first');
    }
    await deleteMember(trx, organizationId, userId);
    await revokeSessionsOfMember(ctx, trx, organizationId, userId);
    await recordEvent(trx, ctx.clock, 'member_removed', organizationId, { userId });
    await recordAudit(ctx, trx, organizationId, caller, { action: 'member.removed', target: { type: 'user', id: userId }, details: { role: row.role } });
  });
}

/** Records that the caller is active in the organization, and hands them their signed visitor claims. */
export async function pingOrganization(ctx: AppContext, caller: Caller, organizationId: string) {
  const access = await loadAccess(ctx, caller, organizationId);
  assertCanSeeMember(access, personOf(caller), personOf(caller));
  const row = await requireMember(ctx.db, organizationId, personOf(caller));
  await updateMember(ctx.db, organizationId, personOf(caller), { last_seen_at: isoNow(ctx.clock) });
  const claims = await signVisitorClaims(ctx, { userId: row.user_id, email: row.email, organizationId, role: access.orgRole });
  return { serviceVisitorClaims: claims, gitbookVisitorClaims: claims };
}

export async function markMemberSso(ctx: AppContext, caller: Caller, organizationId: string, userId: string) {
  const access = await loadAccess(ctx, caller, organizationId);
  assertCanManageMembers(access);
  const row = await requireMember(ctx.db, organizationId, userId);
  if (row.sso !== 1) {
    await ctx.db.transaction().execute(async (trx) => {
      await updateMember(trx, organizationId, userId, { sso: 1 });
      await recordEvent(trx, ctx.clock, 'member_updated', organizationId, { userId, sso: true });
    });
  }
  return presentOne(ctx, access, { ...row, sso: 1 });
}

/** The spaces where a member holds a role, with that role, as the policy computes it for them. */
export async function listSpacesOfMember(ctx: AppContext, caller: Caller, organizationId: string, userId: string, query: Static<typeof ListMemberSpacesQuery>) {
  const access = await loadAccess(ctx, caller, organizationId);
  assertCanListSpacesOf(access, personOf(caller), userId);
  await requireMember(ctx.db, organizationId, userId);
  const member = userId === personOf(caller) ? access : await OrgAccess.loadForUser(ctx.db, organizationId, userId);
  const order = query.order ?? 'desc';
  const filter: SpaceFilter = { organizationId, scope: await member.readableScope() };
  const listKey = `member-spaces:${organizationId}:${userId}:${order}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const [rows, count] = await Promise.all([listSpaces(ctx.db, filter, page, order), countSpaces(ctx.db, filter)]);
  const pageRows = rows.slice(0, page.limit);
  const [theirs, mine, counters] = await Promise.all([
    Promise.all(pageRows.map((r) => member.roleOn(r))),
    Promise.all(pageRows.map((r) => access.roleOn(r))),
    countersOfMany(ctx, pageRows.map((r) => r.id)),
  ]);
  const at = new Map(pageRows.map((r, i) => [r.id, { permission: theirs[i]!, role: mine[i] ?? null }]));
  return ctx.cursors.close(
    listKey,
    page,
    rows,
    count,
    (row) => [row.created_at, row.id],
    (row) => ({
      permission: at.get(row.id)!.permission,
      space: presentSpace(ctx.config, row, at.get(row.id)!.role, counters.get(row.id) ?? NO_ACTIVITY),
    }),
  );
}

/** The teams a member is in, with their role in each. */
export async function listTeamsOfMember(ctx: AppContext, caller: Caller, organizationId: string, userId: string, query: Static<typeof ListMemberTeamsQuery>) {
  const access = await loadAccess(ctx, caller, organizationId);
  assertCanSeeMember(access, personOf(caller), userId);
  await requireMember(ctx.db, organizationId, userId);
  const filter: TeamFilter = { organizationId, memberId: userId, title: query.title };
  const listKey = `member-teams:${organizationId}:${userId}:${query.title ?? ''}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const [rows, count] = await Promise.all([listTeams(ctx.db, filter, page), countTeams(ctx.db, filter)]);
  const pageRows = rows.slice(0, page.limit);
  const [teams, roles] = await Promise.all([presentTeams(ctx, access, personOf(caller), pageRows), teamRolesOfUser(ctx.db, userId, pageRows.map((r) => r.id))]);
  return ctx.cursors.close(
    listKey,
    page,
    rows,
    count,
    (row) => [row.created_at, row.id],
    (row) => ({ team: teams.get(row.id)!, member: { role: (roles.get(row.id) ?? 'member') as 'owner' | 'member' } }),
  );
}

/**
 * Invites e-mail addresses: users that do not exist yet are created, and every addressed user who is not a
 * member yet joins with the address's role, else the body's role, else the organization's default role.
 * Existing members are left as they are. Answers the ids of the users who joined.
 */
export async function inviteUsers(ctx: AppContext, caller: Caller, organizationId: string, body: Static<typeof InviteUsersBody>) {
  const access = await loadAccess(ctx, caller, organizationId);
  assertCanManageMembers(access);
  const org = await findOrganization(ctx.db, organizationId);
  if (!org) throw notFound(`No organization ${organizationId}`);
  const fallback: Role | null = body.role !== undefined ? body.role : org.default_role;
  const wanted = new Map<string, Role | null>();
  body.emails.forEach((entry, i) => {
    const raw = typeof entry === 'string' ? entry : entry.email;
    let email: string;
    try {
      email = normalizeEmail(raw);
    } catch {
      throw badRequest(`body/emails/${i}: "${raw}" is not an e-mail address`);
    }
    if (!wanted.has(email)) wanted.set(email, typeof entry === 'string' ? fallback : entry.role);
  });
  const now = isoNow(ctx.clock);
  const { added, pending } = await ctx.db.transaction().execute(async (trx) => {
    const added: string[] = [];
    const pending: string[] = [];
    for (const [email, role] of wanted) {
      const existing = await findUserByEmail(trx, email);
      const user = existing ?? (await createUser(ctx, trx, { email }));
      if (await findMember(trx, organizationId, user.id)) continue;
      // An account someone made with this address, never proven, may not be the invited person's: the
      // invitation waits until the address's owner proves it (a link mailed to it, or the invitation's link).
      if (existing && existing.email_verified_at === null) {
        await savePendingInvitation(trx, { organization_id: organizationId, user_id: user.id, role, sso: body.sso ? 1 : 0, invited_by: personOf(caller), created_at: now });
        pending.push(user.id);
        continue;
      }
      await insertMemberRow(trx, { organization_id: organizationId, user_id: user.id, role, joined_at: now, sso: body.sso ? 1 : 0 });
      await recordEvent(trx, ctx.clock, 'member_joined', organizationId, { userId: user.id, role, invitedBy: personOf(caller) });
      await recordAudit(ctx, trx, organizationId, caller, { action: 'member.added', target: { type: 'user', id: user.id }, details: { role, invited: true } });
      added.push(user.id);
    }
    return { added, pending };
  });
  return { users: added, invited: added.length, pending };
}

/**
 * A person just proved their address: the e-mail invitations that waited for it make them a member now (an
 * organization that removed them since, or that they joined meanwhile, is left as it is).
 */
export async function admitPendingInvitations(ctx: AppContext, db: Executor, userId: string): Promise<string[]> {
  const joined: string[] = [];
  for (const invitation of await takePendingInvitationsOf(db, userId)) {
    if (await findMember(db, invitation.organization_id, userId)) continue;
    const role = invitation.role === null || isRole(invitation.role) ? invitation.role : null;
    await insertMemberRow(db, { organization_id: invitation.organization_id, user_id: userId, role, joined_at: isoNow(ctx.clock), sso: invitation.sso });
    await recordEvent(db, ctx.clock, 'member_joined', invitation.organization_id, { userId, role, invitedBy: invitation.invited_by });
    const invitedBy: AuditActor = invitation.invited_by ? { kind: 'person', userId: invitation.invited_by } : { kind: 'system' };
    await recordAudit(ctx, db, invitation.organization_id, invitedBy, {
      action: 'member.added',
      target: { type: 'user', id: userId },
      details: { role, invited: true },
    });
    joined.push(invitation.organization_id);
  }
  return joined;
}
