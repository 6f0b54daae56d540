import type { Config } from '../../config.ts';

/**
 * Where a provider's sign-in happens on this server, under PUBLIC_URL: our entity ID for it (also its
 * metadata document), the ACS the identity provider posts to, and the start URL a person follows. One entity
 * ID per provider: identity providers that key applications by entity ID can hold several of ours.
 */
export function serviceUrls(config: Config, providerId: string) {
  const base = `${config.publicUrl}/sso/saml/${encodeURIComponent(providerId)}`;
  return { entityID: `${base}/metadata`, acsURL: `${base}/acs`, startURL: `${base}/start`, finishURL: `${base}/finish` };
}
