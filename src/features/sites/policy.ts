import type { OrgAccess } from '../access/service.ts';
import { highest, type Role } from '../access/roles.ts';
import { forbidden, notFound } from '../../platform/errors.ts';

/**
 * Who may do what with a site (decision, README). A caller's role on a site is the highest of:
 * - `admin` for organization admins;
 * - the role given on the site to them or to a team of theirs (inviteToSite and its kin, site-permissions.ts);
 * - `read` when they can read at least one of the spaces the site publishes (a site without spaces, or whose
 *   spaces they cannot read, is for admins and those given a role on it only).
 * Any role sees the site (its settings and structure); `admin` manages it (every write, who has access, and
 * the share links, whose keys are secrets). Roles between read and admin (comment, edit, review, create) are
 * about the content of the spaces, which their own permissions govern: on the site itself they read.
 * Whoever holds no role on a site gets 404, as if it did not exist.
 */
export interface SiteStanding {
  orgAdmin: boolean;
  /** The caller can read at least one space the site publishes. */
  readsSomeSpace: boolean;
  /** The highest role given on the site to the caller or to a team of theirs (null: none). */
  granted: Role | null;
}

/** The caller's role on the site, from their standing (see above). */
export function siteRoleOf(s: SiteStanding): Role | null {
  if (s.orgAdmin) return 'admin';
  return highest(s.granted, s.readsSomeSpace ? 'read' : null);
}

const RULES = {
  view: (s: SiteStanding) => siteRoleOf(s) !== null,
  manage: (s: SiteStanding) => siteRoleOf(s) === 'admin',
  viewShareLinks: (s: SiteStanding) => siteRoleOf(s) === 'admin',
} as const;

export type SiteAction = keyof typeof RULES;

/** A member's standing; someone outside the organization (or disabled) holds nothing, whatever was given. */
export function standingOf(access: OrgAccess, readsSomeSpace: boolean, granted: Role | null = null): SiteStanding {
  return { orgAdmin: access.isMember && access.orgRole === 'admin', readsSomeSpace: access.isMember && readsSomeSpace, granted: access.isMember ? granted : null };
}

export function can(standing: SiteStanding, action: SiteAction): boolean {
  return RULES[action](standing);
}

/** 404 when the site is out of the caller's sight, 403 when they see it but may not do this. */
export function authorizeSite(standing: SiteStanding, action: SiteAction, siteId: string, what: string): void {
  if (!can(standing, 'view')) throw notFound(`No site ${siteId}`);
  if (!can(standing, action)) throw forbidden(`${what} needs the admin role on the site (an organization admin, or a member or team given admin on it)`);
}

/** Every rule's answer for this caller (for tests and any future `permissions` object). */
export function sitePermissions(standing: SiteStanding): Record<SiteAction, boolean> {
  return Object.fromEntries(Object.entries(RULES).map(([action, rule]) => [action, rule(standing)])) as Record<SiteAction, boolean>;
}

/** Creating a site is managing the organization's sites: admins only (members see the organization: 403). */
export function authorizeSiteCreation(access: OrgAccess): void {
  if (!(access.isMember && access.orgRole === 'admin')) throw forbidden('Creating a site needs the admin role in the organization');
}
