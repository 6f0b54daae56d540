import { resolveReturnTo } from '../../../src/features/sso/return-to.ts';

/**
 * Where sign-in leads (a `returnTo` the page was opened with), by the server's one rule: a page of this origin,
 * else the app's home. The app's own screens pass a route ('/o/…', under the router's /app); any other value is
 * an URL of this server. A page of the app is answered as its route; another page of this server (a site, an
 * SSO step) as its absolute URL, for the browser to load.
 */
export function safeReturnTo(value: string | null): { route: string } | { href: string } {
  if (!value) return { route: '/' };
  const isRoute = value.startsWith('/') && !value.startsWith('//') && !/^\/app(?:[/?#]|$)/.test(value);
  const url = resolveReturnTo(location.origin, isRoute ? `/app${value}` : value);
  if (!url) return { route: '/' };
  const { pathname, search, hash } = new URL(url);
  if (pathname === '/app' || pathname.startsWith('/app/')) return { route: pathname.slice(4) + search + hash || '/' };
  return { href: url };
}
