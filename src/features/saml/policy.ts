import type { OrgAccess } from '../access/service.ts';
import { forbidden } from '../../platform/errors.ts';
import { assertCanInOrganization, assertOrganizationVisible } from '../organizations/policy.ts';

/**
 * Members with a role see their organization's identity providers (nothing in them is secret, and the start
 * URLs are public anyway); guests, people from outside let in to some content, do not; outsiders get 404.
 */
export function assertCanViewProviders(access: OrgAccess): void {
  assertOrganizationVisible(access);
  if (access.orgRole === null) throw forbidden('Seeing SAML providers needs a role in the organization (guests have none)');
}

/** Adding, changing and removing identity providers decides who can sign in: organization admins only. */
export function assertCanManageProviders(access: OrgAccess): void {
  assertCanInOrganization(access, 'admin', 'Managing SAML providers');
}
