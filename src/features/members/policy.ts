import type { OrgAccess } from '../access/service.ts';
import { allowIf, Policy } from '../../platform/policy.ts';
import { assertCanInOrganization, assertOrganizationVisible } from '../organizations/policy.ts';

interface MemberSubject {
  access: OrgAccess;
  callerId: string;
  /** The member concerned; null for the whole list. */
  userId: string | null;
}

/**
 * What the caller may do with one member of an organization. Members with a role see the other members;
 * guests see only themselves. The spaces of a member name content the caller may not be able to read: only
 * the member themselves and organization admins list them. Listing and managing members are organization rules
 * (organizations/policy.ts: `listMembers`, `admin`).
 */
export const memberPolicy = new Policy<MemberSubject, 'view' | 'listSpaces'>({
  view: allowIf(({ access, callerId, userId }) => access.orgRole !== null || userId === callerId, 'is only for members with a role (guests see only themselves)'),
  listSpaces: allowIf(({ access, callerId, userId }) => userId === callerId || access.orgRole === 'admin', "is only for organization admins (for another member's spaces)"),
});

export function assertCanSeeMember(access: OrgAccess, callerId: string, userId: string | null): void {
  assertOrganizationVisible(access);
  memberPolicy.assert({ access, callerId, userId }, 'view', 'Seeing the members of an organization');
}

export function assertCanListMembers(access: OrgAccess): void {
  assertCanInOrganization(access, 'listMembers', 'Listing the members of an organization');
}

/** Changing roles, inviting, removing others and marking SSO members is for organization admins. */
export function assertCanManageMembers(access: OrgAccess): void {
  assertCanInOrganization(access, 'admin', 'Managing members');
}

export function assertCanListSpacesOf(access: OrgAccess, callerId: string, userId: string): void {
  assertOrganizationVisible(access);
  memberPolicy.assert({ access, callerId, userId }, 'listSpaces', 'Listing the spaces of a member');
}
