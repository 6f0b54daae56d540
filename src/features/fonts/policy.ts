import type { OrgAccess } from '../access/service.ts';
import { allowIf, Policy } from '../../platform/policy.ts';

/**
 * Who may do what with an organization's custom fonts: every member reads them (a site's customization names
 * them, and whoever sees the organization may see how its sites look); organization admins, who customize
 * sites, add, change and remove them. The `edit` rule is the font's `permissions.edit`.
 */
export const fontPolicy = new Policy<OrgAccess, 'view' | 'edit'>({
  view: allowIf((a) => a.isMember, 'needs membership of the organization'),
  edit: allowIf((a) => a.isMember && a.orgRole === 'admin', 'needs the admin role in the organization'),
});
