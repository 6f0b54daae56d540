import type { OrgAccess } from '../access/service.ts';
import { allowIf, Policy } from '../../platform/policy.ts';
import { assertOrganizationVisible } from '../organizations/policy.ts';

/**
 * What a caller may do with an organization's translation settings: members with a role see them (guests do
 * not); organization admins create, change, run and delete them, since a run creates and writes spaces.
 */
export const translationPolicy = new Policy<OrgAccess, 'view' | 'edit'>({
  view: allowIf((a) => a.isMember && a.orgRole !== null, 'needs a role in the organization (guests have none)'),
  edit: allowIf((a) => a.orgRole === 'admin', 'is only for organization admins'),
});

export function translationPermissions(access: OrgAccess) {
  return translationPolicy.flags(access);
}

export function assertCanViewTranslations(access: OrgAccess): void {
  assertOrganizationVisible(access);
  translationPolicy.assert(access, 'view', 'Seeing translations');
}

export function assertCanEditTranslations(access: OrgAccess, doing: string): void {
  assertOrganizationVisible(access);
  translationPolicy.assert(access, 'edit', doing);
}
