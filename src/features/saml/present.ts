import type { Config } from '../../config.ts';
import type { Role } from '../access/roles.ts';
import { apiUrl } from '../../platform/urls.ts';
import type { presentTeam } from '../teams/present.ts';
import type { SamlProviderRow } from './store.ts';
import { serviceUrls } from './urls.ts';

/** A provider can sign people in once it knows where to send them, who signs and with which key. */
export function providerStatus(row: Pick<SamlProviderRow, 'entity_id' | 'sso_url' | 'certificate'>): 'active' | 'pending' {
  return row.entity_id && row.sso_url && row.certificate ? 'active' : 'pending';
}

/**
 * What `ssoURL` shows while a provider has none (pending): the official schema requires a URI there, and
 * `about:blank` (RFC 6694) is the URI that names nothing. Given back in an update, it clears the field.
 */
export const NO_SSO_URL = 'about:blank';

export function presentProvider(config: Config, row: SamlProviderRow, defaultTeam: ReturnType<typeof presentTeam> | undefined) {
  return {
    object: 'saml-provider' as const,
    id: row.id,
    label: row.label,
    ssoURL: row.sso_url || NO_SSO_URL,
    entityID: row.entity_id,
    certificate: row.certificate,
    ...(defaultTeam ? { defaultTeam } : {}),
    defaultRole: row.default_role as Role | null,
    createdAt: row.created_at,
    status: providerStatus(row),
    service: serviceUrls(config, row.id),
    urls: { location: apiUrl(config, `/orgs/${row.organization_id}/saml/${row.id}`) },
  };
}

export function presentLogin(config: Config, row: SamlProviderRow) {
  return { id: row.id, label: row.label, startURL: serviceUrls(config, row.id).startURL };
}
