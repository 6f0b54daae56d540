import { resolveReturnTo } from '../../../src/features/sso/return-to.ts';

/**
 * Where sign-in leads (a `returnTo` the page was opened with), by the server's one rule: a page of this origin,
 * else the app's home. A page of the app is answered as its route (the router's base is /app); another page of
 * this server (a site, an SSO step) as its absolute URL, for the browser to load.
 */
export function safeReturnTo(value: string | null): { route: string } | { href: string } {
  const url = resolveReturnTo(location.origin, value);
  if (!url) return { route: '/' };
  const { pathname, search, hash } = new URL(url);
  if (pathname === '/app' || pathname.startsWith('/app/')) return { route: pathname.slice(4) + search + hash || '/' };
  return { href: url };
}
