import type { OrgAccess } from '../access/service.ts';
import { atLeast } from '../access/roles.ts';
import { notFound } from '../../platform/errors.ts';
import { allowIf, Policy } from '../../platform/policy.ts';

const admin = allowIf<OrgAccess>((a) => a.orgRole === 'admin', 'is only for organization admins');
const withRole = allowIf<OrgAccess>((a) => a.isMember && a.orgRole !== null, 'needs a role in the organization (guests have none)');
const create = allowIf<OrgAccess>((a) => atLeast(a.orgRole, 'create'), 'needs the create role in this organization');

/**
 * What a caller may do with an organization: its `permissions` and the checks of the operations on it, its
 * members and its teams. Team owners manage their team's members (features/teams/policy.ts).
 */
export type OrganizationAction =
  | 'view'
  | 'admin'
  | 'ownTeam'
  | 'createContent'
  | 'createOpenAPISpec'
  | 'ingestConversations'
  | 'viewBilling'
  | 'listMembers'
  | 'listTeams'
  | 'listIntegrations'
  | 'listInstallations'
  | 'installIntegration';

export const organizationPolicy = new Policy<OrgAccess, OrganizationAction>({
  view: allowIf((a) => a.isMember, 'needs membership of the organization'),
  admin,
  ownTeam: allowIf((a) => a.isMember && a.ownsTeam, 'needs ownership of a team'),
  createContent: create,
  createOpenAPISpec: create,
  ingestConversations: admin,
  viewBilling: admin,
  listMembers: withRole,
  listTeams: withRole,
  listIntegrations: withRole,
  listInstallations: admin,
  installIntegration: admin,
});

export function organizationPermissions(access: OrgAccess) {
  return organizationPolicy.flags(access);
}

/** Callers outside an organization must not learn it exists: without `view`, a 404 rather than a 403. */
export function assertOrganizationVisible(access: OrgAccess): void {
  if (!organizationPolicy.can(access, 'view')) throw notFound(`No organization ${access.organizationId}`);
}

/** A visible organization, then the rule of `action`. */
export function assertCanInOrganization(access: OrgAccess, action: Exclude<OrganizationAction, 'view'>, doing: string): void {
  assertOrganizationVisible(access);
  organizationPolicy.assert(access, action, doing);
}

export function assertOrganizationAdmin(access: OrgAccess): void {
  assertCanInOrganization(access, 'admin', 'Changing the organization');
}
