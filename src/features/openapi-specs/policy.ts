import { isInstallationAccess, type OrgAccess } from '../access/service.ts';
import { atLeast } from '../access/roles.ts';
import { allowIf, Policy } from '../../platform/policy.ts';
import { assertCanInOrganization, assertOrganizationVisible } from '../organizations/policy.ts';

/**
 * What a caller may do with the OpenAPI specs of an organization (their `permissions` and the checks of their
 * operations). Specs belong to the organization, not to a space: members with a role read them (guests, who
 * see only what they are granted, do not), and members who may create content (the organization's
 * `createOpenAPISpec`) create, change, refresh and delete them.
 */
/**
 * An integration installation of the organization holds no role: its `openapi:read` / `openapi:write` scopes,
 * checked before the operation runs (features/integrations/scopes.ts), decide for it.
 */
const byScopes = (a: OrgAccess) => a.isMember && isInstallationAccess(a);

export const specPolicy = new Policy<OrgAccess, 'view' | 'edit'>({
  view: allowIf((a) => byScopes(a) || (a.isMember && a.orgRole !== null), 'needs a role in the organization (guests have none)'),
  edit: allowIf((a) => byScopes(a) || (a.isMember && atLeast(a.orgRole, 'create')), 'needs the create role in the organization'),
});

export function specPermissions(access: OrgAccess) {
  return specPolicy.flags(access);
}

export function assertCanViewSpecs(access: OrgAccess): void {
  assertOrganizationVisible(access);
  specPolicy.assert(access, 'view', 'Reading the OpenAPI specs of an organization');
}

export function assertCanEditSpecs(access: OrgAccess): void {
  if (!byScopes(access)) assertCanInOrganization(access, 'createOpenAPISpec', 'Creating or changing OpenAPI specs');
  else assertOrganizationVisible(access);
  specPolicy.assert(access, 'edit', 'Creating or changing OpenAPI specs');
}
