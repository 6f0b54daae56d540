import type { Config } from '../../config.ts';

/** Where a signed-in person lands when the sign-in named no page: the members' web app. */
export function signedInHome(config: Config): string {
  return `${new URL(config.publicUrl).pathname.replace(/\/$/, '')}/app`;
}

/**
 * A path on this server to send the browser to after sign-in, or null. Only a path of our own origin: a
 * RelayState naming another site would make us an open redirect.
 */
export function safeNextPath(config: Config, next: string | undefined | null): string | null {
  // A backslash or a control character lets browsers read the path as another host ('/\evil.example').
  if (!next || !next.startsWith('/') || next.startsWith('//') || [...next].some((c) => c === '\\' || c.charCodeAt(0) < 0x20)) return null;
  const base = new URL(config.publicUrl);
  const url = new URL(next, base);
  if (url.origin !== base.origin) return null;
  return url.pathname + url.search + url.hash;
}
