import { forbidden } from '../../platform/errors.ts';
import type { OrgAccess } from '../access/service.ts';
import { assertOrganizationVisible } from '../organizations/policy.ts';

/** Members with a role see the other members; guests see only themselves. */
export function assertCanSeeMember(access: OrgAccess, callerId: string, userId: string | null): void {
  assertOrganizationVisible(access);
  if (access.orgRole === null && userId !== callerId) throw forbidden('Guests cannot list the members of an organization');
}

export function assertCanListMembers(access: OrgAccess): void {
  assertCanSeeMember(access, '', null);
}

/** Changing roles, inviting, removing others and marking SSO members is for organization admins. */
export function assertCanManageMembers(access: OrgAccess): void {
  assertOrganizationVisible(access);
  if (access.orgRole !== 'admin') throw forbidden('Only organization admins can manage members');
}

/**
 * The spaces of a member name content the caller may not be able to read: only the member themselves and
 * organization admins list them.
 */
export function assertCanListSpacesOf(access: OrgAccess, callerId: string, userId: string): void {
  assertOrganizationVisible(access);
  if (userId !== callerId && access.orgRole !== 'admin') throw forbidden("Only organization admins can list another member's spaces");
}
