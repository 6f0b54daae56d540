import type { Config } from '../../config.ts';
import type { Role } from '../access/roles.ts';
import type { presentTeam } from '../teams/present.ts';
import { apiUrl } from '../../platform/urls.ts';
import type { OidcProviderRow } from './store.ts';
import { serviceUrls } from './urls.ts';

/** A provider as its organization's members see it: everything but the client secret. */
export function presentProvider(config: Config, row: OidcProviderRow, defaultTeam: ReturnType<typeof presentTeam> | undefined) {
  return {
    object: 'oidc-provider' as const,
    id: row.id,
    label: row.label,
    issuer: row.issuer,
    clientId: row.client_id,
    defaultRole: row.default_role as Role | null,
    ...(defaultTeam ? { defaultTeam } : {}),
    createdAt: row.created_at,
    service: serviceUrls(config, row.id),
    urls: { location: apiUrl(config, `/orgs/${row.organization_id}/oidc/${row.id}`) },
  };
}
