import type { OrgAccess } from '../access/service.ts';
import { allOf, allowIf, Policy } from '../../platform/policy.ts';
import { assertCanInOrganization, assertOrganizationVisible } from '../organizations/policy.ts';

/** The caller's role in a team (owner or member), or undefined when they are not in it. */
export type TeamStanding = string | undefined;

interface TeamSubject {
  access: OrgAccess;
  standing: TeamStanding;
}

const view = allowIf<TeamSubject>(
  ({ access, standing }) => access.isMember && (access.orgRole !== null || standing !== undefined),
  'is only for members of the organization with a role, or of the team',
);

/**
 * What the caller may do with a team (its `permissions` and the checks of the operations on it): organization
 * admins and the team's owners manage it (title and members); members with a role see every team, and guests
 * see the teams they are in. Creating, deleting and listing teams are organization rules
 * (organizations/policy.ts: `admin`, `listTeams`).
 */
export const teamPolicy = new Policy<TeamSubject, 'admin' | 'view'>({
  admin: allOf(
    view,
    allowIf(({ access, standing }) => access.orgRole === 'admin' || (access.isMember && standing === 'owner'), 'needs the admin role in the organization or ownership of the team'),
  ),
  view,
});

export function teamPermissions(access: OrgAccess, standing: TeamStanding) {
  return teamPolicy.flags({ access, standing });
}

/** Listing an organization's teams needs a role in it (guests have none). */
export function assertCanListTeams(access: OrgAccess): void {
  assertCanInOrganization(access, 'listTeams', 'Listing the teams of an organization');
}

export function assertCanViewTeam(access: OrgAccess, standing: TeamStanding): void {
  assertOrganizationVisible(access);
  teamPolicy.assert({ access, standing }, 'view', 'Seeing a team');
}

export function assertCanManageTeam(access: OrgAccess, standing: TeamStanding): void {
  assertCanViewTeam(access, standing);
  teamPolicy.assert({ access, standing }, 'admin', 'Managing a team');
}

/** Creating and deleting teams is for organization admins. */
export function assertCanAdministerTeams(access: OrgAccess): void {
  assertCanInOrganization(access, 'admin', 'Creating or deleting teams');
}
