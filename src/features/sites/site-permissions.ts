import type { Static } from 'typebox';
import { type AppContext, type Caller, personOf } from '../../platform/context.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { isoNow } from '../../platform/clock.ts';
import { recordEvent } from '../../platform/events.ts';
import { recordAudit } from '../audit/record.ts';
import type { Executor } from '../../db/types.ts';
import { membershipOf, type OrgAccess } from '../access/service.ts';
import { listGrantsReachingUsers } from '../access/queries.ts';
import { highest, isRole, type Role } from '../access/roles.ts';
import { findMember, listActiveMembersByUser, memberIdsAmong } from '../members/queries.ts';
import { presentTeams } from '../teams/service.ts';
import { findTeam, findTeams } from '../teams/queries.ts';
import { presentUser } from '../users/present.ts';
import { siteRoleOf, standingOf } from './policy.ts';
import { loadSite, loadSiteForDelete } from './service.ts';
import { spacesOfSites, type SiteRow } from './store.ts';
import {
  countSiteGrants,
  deleteSiteGrant,
  listSiteGrantsReachingUsers,
  listSiteTeamGrants,
  listSiteUserGrants,
  upsertSiteGrant,
  userIdsInTeam,
  type SiteGrantReaching,
  type SiteGrantSubject,
} from './site-grants-store.ts';
import type { InviteToSiteBody, SiteAggregateQuery } from './site-permissions-schemas.ts';

/*
 * Who has access to a site (the official site-permissions operations): a role given on the site to members and
 * teams of its organization, which the site's policy (policy.ts) counts in the caller's role on the site. Anyone
 * who sees the site sees who has access; its admins (organization admins, members or teams given admin on it)
 * change it.
 */

/** A member (a guest included) or a team named in a request must be of the site's organization. */
async function subjectExists(ctx: AppContext, organizationId: string, subject: SiteGrantSubject, id: string): Promise<boolean> {
  return Boolean(subject === 'user' ? await findMember(ctx.db, organizationId, id) : await findTeam(ctx.db, organizationId, id));
}

async function permissionsChanged(db: Executor, ctx: AppContext, site: SiteRow): Promise<void> {
  await recordEvent(db, ctx.clock, 'site_permissions_updated', site.organization_id, { siteId: site.id });
}

export async function listSiteUserPermissions(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, query: { page?: string; limit?: number }) {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'view');
  const listKey = `site-grants:users:${site.id}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const [rows, count] = await Promise.all([listSiteUserGrants(ctx.db, site.id, page), countSiteGrants(ctx.db, site.id, 'user')]);
  return ctx.cursors.close(
    listKey,
    page,
    rows,
    count,
    (row) => [row.created_at, row.subject_id],
    (row) => ({ permission: row.role as Role, user: presentUser(ctx.config, row) }),
  );
}

export async function listSiteTeamPermissions(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, query: { page?: string; limit?: number }) {
  const { site, access } = await loadSite(ctx, caller, organizationId, siteId, 'view');
  const listKey = `site-grants:teams:${site.id}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const [rows, count] = await Promise.all([listSiteTeamGrants(ctx.db, site.id, page), countSiteGrants(ctx.db, site.id, 'team')]);
  const teams = await presentTeams(ctx, access, personOf(caller), rows.slice(0, page.limit));
  return ctx.cursors.close(
    listKey,
    page,
    rows,
    count,
    (row) => [row.granted_at, row.subject_id],
    (row) => ({ permission: row.role as Role, team: teams.get(row.id)! }),
  );
}

/** A role given or taken away on a site changes who may read it: the audit log's "site sharing changed". */
async function auditGrant(ctx: AppContext, db: Executor, caller: Caller, site: SiteRow, subject: SiteGrantSubject, subjectId: string, role: Role | null) {
  await recordAudit(ctx, db, site.organization_id, caller, {
    action: 'site.sharing_changed',
    target: { type: 'site', id: site.id, label: site.title },
    details: { [subject === 'user' ? 'user' : 'team']: subjectId, role },
  });
}

/** Gives a role on the site to members and teams at once (null takes what they were given away). */
export async function inviteToSite(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, body: Static<typeof InviteToSiteBody>): Promise<void> {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'manage', 'Changing who has access to a site');
  const users = [...new Set(body.users ?? [])];
  const teamIds = [...new Set(body.teams ?? [])];
  if (users.length === 0 && teamIds.length === 0) throw badRequest('body must name at least one of users or teams');
  // Every one named must be of the organization, before anything is written.
  const [members, teams] = await Promise.all([
    memberIdsAmong(ctx.db, organizationId, users),
    findTeams(ctx.db, organizationId, teamIds).then((rows) => new Set(rows.map((t) => t.id))),
  ]);
  (body.users ?? []).forEach((userId, i) => {
    if (!members.has(userId)) throw badRequest(`body/users/${i}: no member ${userId} in this organization`);
  });
  (body.teams ?? []).forEach((teamId, i) => {
    if (!teams.has(teamId)) throw badRequest(`body/teams/${i}: no team ${teamId} in this organization`);
  });
  const now = isoNow(ctx.clock);
  await ctx.db.transaction().execute(async (trx) => {
    for (const [subject, ids] of [['user', users], ['team', teamIds]] as const) {
      for (const subjectId of ids) {
        if (body.role === null) await deleteSiteGrant(trx, site.id, subject, subjectId);
        else await upsertSiteGrant(trx, site.id, subject, subjectId, body.role, now);
        await auditGrant(ctx, trx, caller, site, subject, subjectId, body.role);
      }
    }
    await permissionsChanged(trx, ctx, site);
  });
}

/** Sets the role of one member or team on the site (null takes it away); 404 for one not of the organization. */
export async function setSiteGrant(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, subject: SiteGrantSubject, subjectId: string, role: Role | null): Promise<void> {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'manage', 'Changing who has access to a site');
  if (!(await subjectExists(ctx, organizationId, subject, subjectId))) throw notFound(`No ${subject === 'user' ? 'member' : 'team'} ${subjectId} in this organization`);
  await ctx.db.transaction().execute(async (trx) => {
    if (role === null) await deleteSiteGrant(trx, site.id, subject, subjectId);
    else await upsertSiteGrant(trx, site.id, subject, subjectId, role, isoNow(ctx.clock));
    await auditGrant(ctx, trx, caller, site, subject, subjectId, role);
    await permissionsChanged(trx, ctx, site);
  });
}

/** Takes what a member or team was given on the site away: true when there was a grant (205), false otherwise (204). */
export async function removeSiteGrant(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, subject: SiteGrantSubject, subjectId: string): Promise<boolean> {
  // What the caller cannot see holds no grant, for them: 204, as for one that does not exist.
  const loaded = await loadSiteForDelete(ctx, caller, organizationId, siteId, 'Changing who has access to a site');
  if (!loaded) return false;
  return ctx.db.transaction().execute(async (trx) => {
    const removed = await deleteSiteGrant(trx, loaded.site.id, subject, subjectId);
    if (removed) await permissionsChanged(trx, ctx, loaded.site);
    if (removed) await auditGrant(ctx, trx, caller, loaded.site, subject, subjectId, null);
    return removed;
  });
}

/** Members whose roles are computed for one aggregate list, at most: the list is built in memory. */
const AGGREGATE_MEMBER_LIMIT = 10_000;

type Origin =
  | { type: 'organization'; organization: string }
  | { type: 'space'; space: string }
  | { type: 'site'; site: string; reason: 'member' | 'team'; team?: string };

/**
 * Where a member's role on the site comes from: the organization (its admins), what was given on the site to
 * them or a team of theirs (when that is at least what their spaces give), else a space of the site they read.
 */
function originOf(site: SiteRow, orgAdmin: boolean, grant: SiteGrantReaching | undefined, readSpace: string | undefined): Origin {
  if (orgAdmin) return { type: 'organization', organization: site.organization_id };
  if (grant) return grant.subject_type === 'team' ? { type: 'site', site: site.id, reason: 'team', team: grant.team_id! } : { type: 'site', site: site.id, reason: 'member' };
  return { type: 'space', space: readSpace! };
}

/**
 * listPermissionsAggregateInSite: every member who holds a role on the site, the role, and where it comes
 * from, by the same policy that answers their requests (siteRoleOf). Grants of all members, on the site and
 * on the spaces it publishes, are read in one query each.
 */
export async function listSitePermissionsAggregate(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, query: Static<typeof SiteAggregateQuery>) {
  const { site, access } = await loadSite(ctx, caller, organizationId, siteId, 'view');
  let members = await listActiveMembersByUser(ctx.db, organizationId, AGGREGATE_MEMBER_LIMIT);
  if (query.team !== undefined) {
    const team = await findTeam(ctx.db, organizationId, query.team);
    if (!team) throw badRequest(`querystring/team: no team ${query.team} in this organization`);
    const inTeam = new Set(await userIdsInTeam(ctx.db, query.team));
    members = members.filter((m) => inTeam.has(m.user_id));
  }
  if (query.search !== undefined && query.search !== '') {
    const needle = query.search.toLowerCase();
    members = members.filter((m) => m.display_name.toLowerCase().includes(needle) || (m.email ?? '').toLowerCase().includes(needle));
  }
  const userIds = members.map((m) => m.user_id);
  const [spaces, contentGrants, siteGrants] = await Promise.all([
    spacesOfSites(ctx.db, organizationId, [site.id]),
    listGrantsReachingUsers(ctx.db, organizationId, userIds),
    listSiteGrantsReachingUsers(ctx.db, organizationId, userIds, [site.id]),
  ]);
  const contentGrantsOf = groupBy(contentGrants, (g) => g.user_id);
  const siteGrantsOf = groupBy(siteGrants, (g) => g.user_id);

  const holders: { row: (typeof members)[number]; role: Role; origin: Origin }[] = [];
  for (const row of members) {
    const peer: OrgAccess = access.peer(row.user_id, membershipOf(row), false, contentGrantsOf.get(row.user_id) ?? []);
    const grants = (siteGrantsOf.get(row.user_id) ?? []).filter((g) => isRole(g.role));
    const granted = highest(...grants.map((g) => g.role as Role));
    // The grant that gives the role: the member's own before a team's, when they give the same.
    const topGrant = grants.filter((g) => g.role === granted).sort((a, b) => (a.subject_type === b.subject_type ? 0 : a.subject_type === 'user' ? -1 : 1))[0];
    // A grant gives at least what reading a space does: the spaces are looked at only without one.
    let readSpace: string | undefined;
    if (granted === null && peer.orgRole !== 'admin') {
      for (const space of spaces) {
        if (await peer.roleOn(space)) {
          readSpace = space.id;
          break;
        }
      }
    }
    const standing = standingOf(peer, readSpace !== undefined, granted);
    const role = siteRoleOf(standing);
    if (role === null) continue;
    if (query.role !== undefined && query.role !== role) continue;
    holders.push({ row, role, origin: originOf(site, standing.orgAdmin, granted !== null ? topGrant : undefined, readSpace) });
  }

  const sort = query.sort ?? 'joinedAt';
  const order = query.order ?? 'desc';
  const keyOf = (h: (typeof holders)[number]): [string, string] => [
    sort === 'name' ? h.row.display_name.toLowerCase() : sort === 'lastSeenAt' ? (h.row.last_seen_at ?? '') : h.row.joined_at,
    h.row.user_id,
  ];
  // Compared as JavaScript does, whatever the database's collation: the cursor compares the same way.
  const compare = (a: [string, string], b: [string, string]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);
  const direction = order === 'asc' ? 1 : -1;
  holders.sort((a, b) => direction * compare(keyOf(a), keyOf(b)));
  const listKey = `site-grants:aggregate:${site.id}:${JSON.stringify([query.role, query.search, query.team, sort, order])}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const after = page.after ? ([String(page.after[0]), String(page.after[1])] as [string, string]) : undefined;
  const from = after === undefined ? holders : holders.filter((h) => direction * compare(keyOf(h), after) > 0);
  return ctx.cursors.close(listKey, page, from.slice(0, page.limit + 1), holders.length, keyOf, (h) => ({
    permission: h.role,
    user: presentUser(ctx.config, { id: h.row.user_id, display_name: h.row.display_name, email: h.row.email, photo_url: h.row.photo_url }),
    origin: h.origin,
    // Only active members are listed: a disabled member holds nothing.
    disabled: false,
    ...(h.row.last_seen_at ? { lastSeenAt: h.row.last_seen_at } : {}),
  }));
}

function groupBy<T>(rows: readonly T[], keyOf: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}
