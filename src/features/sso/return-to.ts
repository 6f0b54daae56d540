/**
 * Where a browser goes after signing in, when the sign-in named a page (`returnTo`, `next`, a RelayState): the
 * one rule for password, OpenID Connect and SAML sign-in, on the server and in the web app. The value is
 * resolved against `home` (PUBLIC_URL) with the URL parser's own normalisation first ('/./', '/../', percent
 * forms), then judged: its origin must be home's. The answer is the absolute URL, so that nothing read after us
 * can take a path for a host ('//evil.example' is a path to this check and a host to a browser's Location).
 * Anything else is null: the caller lands on its home page.
 */
export function resolveReturnTo(home: string, value: string | null | undefined): string | null {
  // A backslash or a control character is read as a slash, or dropped, by browsers and not by every parser.
  if (!value || [...value].some((c) => c === '\\' || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return null;
  let base: URL;
  let url: URL;
  try {
    base = new URL(home);
    url = new URL(value, base);
  } catch {
    return null;
  }
  if (url.origin !== base.origin || url.username || url.password) return null;
  // After normalisation a path may begin with '//' ('/.//evil.example/x'): refused, whatever reads it next.
  if (url.pathname.startsWith('//')) return null;
  return url.href;
}
