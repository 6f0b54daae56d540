import { forbidden } from '../../platform/errors.ts';
import type { OrgAccess } from '../access/service.ts';
import { assertOrganizationVisible } from '../organizations/policy.ts';

/** The caller's role in a team (owner or member), or undefined when they are not in it. */
export type TeamStanding = string | undefined;

/**
 * What the caller may do with a team: organization admins and the team's owners manage it (title and
 * members); members with a role see every team, and guests see the teams they are in.
 */
export function teamPermissions(access: OrgAccess, standing: TeamStanding) {
  const nonGuest = access.isMember && access.orgRole !== null;
  return {
    admin: access.orgRole === 'admin' || (access.isMember && standing === 'owner'),
    view: nonGuest || (access.isMember && standing !== undefined),
  };
}

/** Listing an organization's teams needs a role in it (guests have none). */
export function assertCanListTeams(access: OrgAccess): void {
  assertOrganizationVisible(access);
  if (access.orgRole === null) throw forbidden('Guests cannot list the teams of an organization');
}

export function assertCanViewTeam(access: OrgAccess, standing: TeamStanding): void {
  assertOrganizationVisible(access);
  if (!teamPermissions(access, standing).view) throw forbidden('Only members of the organization with a role, or of the team, can see it');
}

export function assertCanManageTeam(access: OrgAccess, standing: TeamStanding): void {
  assertCanViewTeam(access, standing);
  if (!teamPermissions(access, standing).admin) throw forbidden('Managing a team needs the admin role in the organization or ownership of the team');
}

/** Creating and deleting teams is for organization admins. */
export function assertCanAdministerTeams(access: OrgAccess): void {
  assertOrganizationVisible(access);
  if (access.orgRole !== 'admin') throw forbidden('Only organization admins can create or delete teams');
}
