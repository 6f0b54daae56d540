import type { Config } from '../../config.ts';

/** Where a provider's sign-in happens on this server: the start URL a person follows and the redirect URI. */
export function serviceUrls(config: Config, providerId: string) {
  const base = `${config.publicUrl}/sso/oidc/${encodeURIComponent(providerId)}`;
  return { startURL: `${base}/start`, redirectURL: `${base}/callback` };
}
