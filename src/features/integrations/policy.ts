import type { OrgAccess } from '../access/service.ts';
import type { Caller } from '../../platform/context.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import type { IntegrationRow } from './store.ts';

/**
 * Who sees and manages an integration (issue 17). `visibility` decides who sees it: `public` and `unlisted`
 * everyone signed in (unlisted ones are not listed to others than their owner), `private` the members of its
 * owner organization only (and its own installations). Whoever cannot see it gets 404. Admins of the owner
 * organization publish, unpublish, switch development mode and see every installation.
 * `access` is the caller's access to the owner organization.
 */
export function canSeeIntegration(caller: Caller, access: OrgAccess, integration: IntegrationRow): boolean {
  if (integration.visibility !== 'private') return true;
  if (caller.kind === 'installation' && caller.integrationId === integration.id) return true;
  return access.isMember;
}

export function isIntegrationAdmin(caller: Caller, access: OrgAccess): boolean {
  return caller.kind === 'user' && access.orgRole === 'admin';
}

export function assertIntegrationVisible(caller: Caller, access: OrgAccess, integration: IntegrationRow): void {
  if (!canSeeIntegration(caller, access, integration)) throw notFound(`No integration ${integration.name}`);
}

export function assertIntegrationAdmin(caller: Caller, access: OrgAccess, integration: IntegrationRow, doing: string): void {
  assertIntegrationVisible(caller, access, integration);
  if (!isIntegrationAdmin(caller, access)) throw forbidden(`${doing} is only for admins of the organization that owns the integration`);
}

/**
 * Where an integration may be installed: always on an organization (the account every other installation
 * hangs from); on spaces when its target is `all` or `space`; on sites when `all` or `site`.
 */
export function targetAllows(target: string, where: 'space' | 'site'): boolean {
  return target === 'all' || target === where;
}
