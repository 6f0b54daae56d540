import type { OrgAccess } from '../access/service.ts';
import { atLeast } from '../access/roles.ts';
import { forbidden, notFound } from '../../platform/errors.ts';

/** What the caller may do with an organization; every flag is enforced by the operation it names. */
export function organizationPermissions(access: OrgAccess) {
  const member = access.isMember;
  const role = access.orgRole;
  const admin = role === 'admin';
  const nonGuest = member && role !== null;
  return {
    view: member,
    admin,
    // Team owners manage their team's members (features/teams/policy.ts).
    ownTeam: member && access.ownsTeam,
    createContent: atLeast(role, 'create'),
    createOpenAPISpec: atLeast(role, 'create'),
    ingestConversations: admin,
    viewBilling: admin,
    listMembers: nonGuest,
    listTeams: nonGuest,
    listIntegrations: nonGuest,
    listInstallations: admin,
    installIntegration: admin,
  };
}

/** Callers outside an organization must not learn it exists. */
export function assertOrganizationVisible(access: OrgAccess): void {
  if (!access.isMember) throw notFound(`No organization ${access.organizationId}`);
}

export function assertOrganizationAdmin(access: OrgAccess): void {
  assertOrganizationVisible(access);
  if (access.orgRole !== 'admin') throw forbidden('Only organization admins can do this');
}

export function assertCanCreateContent(access: OrgAccess): void {
  assertOrganizationVisible(access);
  if (!atLeast(access.orgRole, 'create')) throw forbidden('Creating content in this organization needs the create role');
}
