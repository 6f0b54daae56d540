import type { OrgAccess } from '../access/service.ts';
import { forbidden } from '../../platform/errors.ts';
import { assertCanInOrganization, assertOrganizationVisible } from '../organizations/policy.ts';

/** As for SAML providers: members with a role see them (the secret is never shown); guests do not. */
export function assertCanViewProviders(access: OrgAccess): void {
  assertOrganizationVisible(access);
  if (access.orgRole === null) throw forbidden('Seeing OpenID Connect providers needs a role in the organization (guests have none)');
}

/** Who may sign people in is decided by organization admins only. */
export function assertCanManageProviders(access: OrgAccess): void {
  assertCanInOrganization(access, 'admin', 'Managing OpenID Connect providers');
}
