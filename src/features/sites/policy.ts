import type { OrgAccess } from '../access/service.ts';
import { forbidden, notFound } from '../../platform/errors.ts';

/**
 * Who may do what with a site (decision, README): organization admins manage sites (every write, and the
 * share links, whose keys are secrets); any other member sees a site when they can read at least one of the
 * spaces it publishes, and then reads its settings and structure (a site without spaces is for admins only).
 * Whoever cannot see a site gets 404, as if it did not exist.
 */
export interface SiteStanding {
  orgAdmin: boolean;
  /** The caller can read at least one space the site publishes. */
  readsSomeSpace: boolean;
}

const RULES = {
  view: (s: SiteStanding) => s.orgAdmin || s.readsSomeSpace,
  manage: (s: SiteStanding) => s.orgAdmin,
  viewShareLinks: (s: SiteStanding) => s.orgAdmin,
} as const;

export type SiteAction = keyof typeof RULES;

export function standingOf(access: OrgAccess, readsSomeSpace: boolean): SiteStanding {
  return { orgAdmin: access.isMember && access.orgRole === 'admin', readsSomeSpace: access.isMember && readsSomeSpace };
}

export function can(standing: SiteStanding, action: SiteAction): boolean {
  return RULES[action](standing);
}

/** 404 when the site is out of the caller's sight, 403 when they see it but may not do this. */
export function authorizeSite(standing: SiteStanding, action: SiteAction, siteId: string, what: string): void {
  if (!can(standing, 'view')) throw notFound(`No site ${siteId}`);
  if (!can(standing, action)) throw forbidden(`${what} needs the admin role in the organization`);
}

/** Every rule's answer for this caller (for tests and any future `permissions` object). */
export function sitePermissions(standing: SiteStanding): Record<SiteAction, boolean> {
  return Object.fromEntries(Object.entries(RULES).map(([action, rule]) => [action, rule(standing)])) as Record<SiteAction, boolean>;
}

/** Creating a site is managing the organization's sites: admins only (members see the organization: 403). */
export function authorizeSiteCreation(access: OrgAccess): void {
  if (!can(standingOf(access, false), 'manage')) throw forbidden('Creating a site needs the admin role in the organization');
}
