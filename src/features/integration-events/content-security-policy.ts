/**
 * The manifest's `contentSecurityPolicy` (stored as its JSON: a policy string, or directives by name, as the
 * official IntegrationContentSecurityPolicy allows) as a header value.
 */
export function contentSecurityPolicyHeader(stored: string | null): string | null {
  if (!stored) return null;
  let policy: unknown;
  try {
    policy = JSON.parse(stored);
  } catch {
    return null;
  }
  if (typeof policy === 'string') return policy || null;
  if (!policy || typeof policy !== 'object') return null;
  const directives = Object.entries(policy).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  return directives.length ? directives.map(([name, value]) => (value ? `${name} ${value}` : name)).join('; ') : null;
}
