import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { parse, serialize } from 'cookie';
import type { Config } from '../../config.ts';

/**
 * The cookie that binds a single sign-on to the browser that started it: a sign-in request remembers its hash,
 * and the answer of the identity provider opens a session only where the cookie is. Without it, a response an
 * attacker obtained for their own account and auto-posted from another site would sign the victim's browser in
 * as the attacker (login CSRF). SameSite=Lax: a browser sends it on a top-level GET from anywhere (the OIDC
 * callback, the SAML step after the ACS) and never on another site's POST.
 */
export const SSO_STATE_COOKIE = 'quire_sso_state';
/** As long as a sign-in request lives. */
const STATE_LIFETIME_S = 10 * 60;

const digest = (value: string) => hash('sha256', value, 'hex');

/**
 * The browser's binding for a new sign-in: its cookie's value kept when it has one (two tabs signing in at once
 * both stay valid), a new one otherwise. `hash` goes into the request; `setCookie` to the browser.
 */
export function bindBrowser(config: Config, cookieHeader: string | undefined): { hash: string; setCookie: string } {
  const held = cookieHeader ? parse(cookieHeader)[SSO_STATE_COOKIE] : undefined;
  const value = held && /^[A-Za-z0-9_-]{43}$/.test(held) ? held : randomBytes(32).toString('base64url');
  return {
    hash: digest(value),
    setCookie: serialize(SSO_STATE_COOKIE, value, { path: '/sso', httpOnly: true, sameSite: 'lax', secure: config.publicUrl.startsWith('https:'), maxAge: STATE_LIFETIME_S }),
  };
}

/** Whether the request comes from the browser whose binding the sign-in request holds. */
export function isSameBrowser(expectedHash: string | null, cookieHeader: string | undefined): boolean {
  const held = cookieHeader ? parse(cookieHeader)[SSO_STATE_COOKIE] : undefined;
  if (!expectedHash || !held) return false;
  const given = Buffer.from(digest(held));
  const expected = Buffer.from(expectedHash);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
