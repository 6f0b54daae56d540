import * as client from 'openid-client';
import type { AppContext, RequestOrigin } from '../../platform/context.ts';
import { isoNow } from '../../platform/clock.ts';
import { openSecret } from '../../platform/secret-box.ts';
import { safeFetch } from '../../platform/safe-fetch.ts';
import { normalizeEmail } from '../users/email.ts';
import { safeNextPath, signedInHome } from '../sso/landing.ts';
import { bindBrowser, isSameBrowser } from '../sso/browser-binding.ts';
import { signInThroughProvider, SsoSignInRefused } from '../sso/provider-sign-in.ts';
import { findOpenRequest, findProviderById, insertRequest, useRequest, type OidcProviderRow } from './store.ts';
import { serviceUrls } from './urls.ts';

/** Longest time a person may spend at the provider between our redirect and its callback. */
export const REQUEST_LIFETIME_MS = 10 * 60_000;
/** Discovery documents are kept this long per provider (a provider rotates keys; openid-client fetches JWKS itself). */
const DISCOVERY_TTL_MS = 10 * 60_000;
/** Discovery documents, keys and token answers are small: a provider sending more is refused. */
const MAX_PROVIDER_ANSWER = 1024 * 1024;

/** A refusal shown to the browser as an error page. */
export class OidcSignInRefused extends SsoSignInRefused {
  constructor(status: 400 | 403 | 404 | 502, message: string) {
    super(status, message);
  }
}

/**
 * openid-client's requests go through safeFetch: the configured time limit, a size limit, and no private
 * addresses unless ALLOW_PRIVATE_FETCH (an issuer is a URL an organization admin typed).
 */
function fetchThroughGuard(ctx: AppContext): client.CustomFetch {
  return async (url, options) => {
    const body = options.body === undefined || options.body === null ? undefined : Buffer.from(String(options.body));
    const answer = await safeFetch(ctx.config, url, {
      maxBytes: MAX_PROVIDER_ANSWER,
      maxRedirects: 0,
      headers: Object.fromEntries(Object.entries(options.headers).filter(([name]) => name.toLowerCase() !== 'accept')),
      ...(options.headers.accept ? { accept: options.headers.accept } : {}),
      ...(body ? { post: body } : {}),
    });
    return new Response(answer.status === 204 ? null : new Uint8Array(answer.body), {
      status: answer.status,
      headers: answer.contentType ? { 'content-type': answer.contentType } : {},
    });
  };
}

const discovered = new Map<string, { key: string; at: number; config: Promise<client.Configuration> }>();

async function configurationOf(ctx: AppContext, provider: OidcProviderRow): Promise<client.Configuration> {
  const key = `${provider.issuer} ${provider.client_id} ${provider.updated_at}`;
  const now = Date.now();
  const kept = discovered.get(provider.id);
  if (kept && kept.key === key && now - kept.at < DISCOVERY_TTL_MS) return kept.config;
  const secret = await openSecret(ctx, provider.client_secret);
  const customFetch = fetchThroughGuard(ctx);
  const config = client
    .discovery(new URL(provider.issuer), provider.client_id, { client_secret: secret, redirect_uris: [serviceUrls(ctx.config, provider.id).redirectURL] }, undefined, {
      [client.customFetch]: customFetch,
      // An http issuer is refused by openid-client unless allowed; safeFetch already decides which addresses
      // may be reached, and an admin who registers an http issuer on a private network means it.
      ...(provider.issuer.startsWith('http:') ? { execute: [client.allowInsecureRequests] } : {}),
    })
    .then((configuration) => {
      configuration[client.customFetch] = customFetch;
      return configuration;
    });
  discovered.set(provider.id, { key, at: now, config });
  // A failed discovery is not kept: the next sign-in tries again.
  config.catch(() => discovered.delete(provider.id));
  return config;
}

async function providerOf(ctx: AppContext, providerId: string): Promise<OidcProviderRow> {
  const provider = await findProviderById(ctx.db, providerId);
  if (!provider) throw new OidcSignInRefused(404, 'There is no such sign-in provider.');
  return provider;
}

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
}

/**
 * The provider's authorization URL for a new sign-in (authorization code flow with PKCE, a state and a
 * nonce, kept in the database so any process can take the callback).
 */
export async function startOidcSignIn(
  ctx: AppContext,
  providerId: string,
  returnTo: string | undefined,
  browser: { cookieHeader: string | undefined; linkUserId: string | null },
): Promise<{ url: string; setCookie: string }> {
  const provider = await providerOf(ctx, providerId);
  let config: client.Configuration;
  try {
    config = await configurationOf(ctx, provider);
  } catch (error) {
    throw new OidcSignInRefused(502, `The identity provider could not be reached or described itself wrongly: ${describe(error)}.`);
  }
  const state = client.randomState();
  const nonce = client.randomNonce();
  const codeVerifier = client.randomPKCECodeVerifier();
  const binding = bindBrowser(ctx.config, browser.cookieHeader);
  const now = ctx.clock.now();
  await insertRequest(
    ctx.db,
    {
      state,
      provider_id: provider.id,
      nonce,
      code_verifier: codeVerifier,
      return_to: safeNextPath(ctx.config, returnTo),
      expires_at: new Date(now.getTime() + REQUEST_LIFETIME_MS).toISOString(),
      used_at: null,
      browser_hash: binding.hash,
      link_user_id: browser.linkUserId,
    },
    now.toISOString(),
  );
  const url = client
    .buildAuthorizationUrl(config, {
      redirect_uri: serviceUrls(ctx.config, provider.id).redirectURL,
      scope: 'openid email profile',
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    })
    .toString();
  return { url, setCookie: binding.setCookie };
}

/**
 * The provider's callback: the state must name an open sign-in of ours (used once), the code is exchanged
 * with our PKCE verifier, and openid-client verifies the ID token (signature by the provider's keys, issuer,
 * audience, expiry, nonce). The person, by their verified e-mail, is signed in and admitted like SAML's:
 * a newcomer joins with the provider's default role, and is marked an SSO member.
 */
export async function completeOidcSignIn(
  ctx: AppContext,
  providerId: string,
  query: string,
  cookieHeader: string | undefined,
  origin: RequestOrigin,
): Promise<{ setCookies: string[]; location: string }> {
  const provider = await providerOf(ctx, providerId);
  const params = new URLSearchParams(query);
  const error = params.get('error');
  if (error) throw new OidcSignInRefused(403, `The identity provider refused the sign-in: ${params.get('error_description') ?? error}.`);
  const state = params.get('state');
  const now = isoNow(ctx.clock);
  const request = state ? await findOpenRequest(ctx.db, provider.id, state, now) : undefined;
  if (!state || !request) throw new OidcSignInRefused(403, 'This answer of the identity provider matches no open sign-in of ours (unknown, expired or already used).');
  // The callback is a top-level GET: it carries the SameSite=Lax state cookie of the browser that started it.
  if (!isSameBrowser(request.browser_hash, cookieHeader)) {
    throw new OidcSignInRefused(403, 'This sign-in was started in another browser: a sign-in opens a session only in the browser that started it. Sign in again from here.');
  }
  if (!(await useRequest(ctx.db, state, now))) throw new OidcSignInRefused(403, 'This answer of the identity provider matches no open sign-in of ours (unknown, expired or already used).');
  let claims: Record<string, unknown>;
  try {
    const config = await configurationOf(ctx, provider);
    const currentUrl = new URL(`${serviceUrls(ctx.config, provider.id).redirectURL}?${query}`);
    const tokens = await client.authorizationCodeGrant(config, currentUrl, { pkceCodeVerifier: request.code_verifier, expectedState: state, expectedNonce: request.nonce, idTokenExpected: true });
    const idToken = tokens.claims();
    if (!idToken) throw new Error('no ID token');
    // Many providers put the profile claims in the UserInfo answer only (OpenID Connect Core 5.4); its `sub`
    // must be the ID token's, which openid-client checks.
    claims = typeof idToken.email === 'string' ? idToken : { ...(await client.fetchUserInfo(config, tokens.access_token, idToken.sub)), sub: idToken.sub };
  } catch (cause) {
    throw new OidcSignInRefused(403, `The identity provider's answer was refused: ${describe(cause)}.`);
  }
  if (typeof claims.email !== 'string' || claims.email_verified === false) {
    throw new OidcSignInRefused(403, 'The identity provider gave no verified e-mail address (the `email` scope and claim, with email_verified).');
  }
  let email: string;
  try {
    email = normalizeEmail(claims.email);
  } catch {
    throw new OidcSignInRefused(400, 'The e-mail address the identity provider gave is not valid.');
  }
  const name = typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim() : undefined;
  if (typeof claims.sub !== 'string' || !claims.sub) throw new OidcSignInRefused(403, 'The identity provider gave no subject (`sub`).');
  const result = await signInThroughProvider(
    ctx,
    {
      kind: 'oidc',
      id: provider.id,
      label: provider.label,
      organizationId: provider.organization_id,
      defaultRole: provider.default_role,
      defaultTeamId: provider.default_team_id,
      startUrl: serviceUrls(ctx.config, provider.id).startURL,
    },
    { subject: claims.sub, email, ...(name ? { displayName: name } : {}) },
    { linkUserId: request.link_user_id, origin },
  );
  return { setCookies: result.setCookies, location: request.return_to ?? signedInHome(ctx.config) };
}
