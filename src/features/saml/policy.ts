import type { OrgAccess } from '../access/service.ts';
import { assertCanInOrganization, assertOrganizationVisible } from '../organizations/policy.ts';

/** Members see their organization's identity providers (nothing in them is secret); outsiders get 404. */
export function assertCanViewProviders(access: OrgAccess): void {
  assertOrganizationVisible(access);
}

/** Adding, changing and removing identity providers decides who can sign in: organization admins only. */
export function assertCanManageProviders(access: OrgAccess): void {
  assertCanInOrganization(access, 'admin', 'Managing SAML providers');
}
