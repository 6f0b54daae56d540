import type { OrgAccess } from '../access/service.ts';
import { allowIf, Policy } from '../../platform/policy.ts';

/**
 * Who may read an organization's audit log and set how long it is kept: its admins only (the official
 * operations say "restricted to organization administrators"), and only as a person, never an integration.
 */
export const auditPolicy = new Policy<OrgAccess, 'view' | 'configure'>({
  view: allowIf((a) => a.isMember && a.orgRole === 'admin', 'needs the admin role in the organization'),
  configure: allowIf((a) => a.isMember && a.orgRole === 'admin', 'needs the admin role in the organization'),
});
