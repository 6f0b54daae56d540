import type { Config } from '../../config.ts';
import { apiUrl, appUrl } from '../../platform/urls.ts';
import type { OrgAccess } from '../access/service.ts';
import { organizationPermissions } from './policy.ts';
import type { OrganizationRow } from './store.ts';

export function presentOrganization(config: Config, org: OrganizationRow, access: OrgAccess) {
  return {
    object: 'organization' as const,
    id: org.id,
    title: org.title,
    createdAt: org.created_at,
    emailDomains: JSON.parse(org.email_domains) as string[],
    ...(org.hostname ? { hostname: org.hostname } : {}),
    type: org.type as 'business' | 'community',
    ...(org.use_case ? { useCase: org.use_case } : {}),
    defaultRole: org.default_role,
    ...(org.default_content ? { defaultContent: JSON.parse(org.default_content) } : {}),
    sso: org.sso === 1,
    ai: org.ai === 1,
    inviteLinks: org.invite_links === 1,
    // A self-hosted server has every feature; there is no billing.
    plan: 'enterprise_2024',
    mergeRules: JSON.parse(org.merge_rules),
    urls: {
      location: apiUrl(config, `/orgs/${org.id}`),
      app: appUrl(config, `/o/${org.id}`),
      ...(org.logo_url ? { logo: org.logo_url } : {}),
    },
    trial: { status: 'notapplicable' },
    permissions: organizationPermissions(access),
  };
}
