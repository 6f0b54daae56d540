/**
 * Pure rules of site redirect sources (0.202.0's SiteRedirectSourcePath): a source is a path, or a path ending
 * in a wildcard (`/old/*`, `/old*`) that stands for whatever follows it. No I/O.
 */

/** Sources are compared normalised, as the reader compares paths: `/a/b/`, `/a//b` are `/a/b`. */
export function normaliseSource(source: string): string {
  return `/${source.split('/').filter(Boolean).join('/')}`;
}

export function isWildcard(source: string): boolean {
  return source.endsWith('*');
}

/**
 * The wildcard sources that could match `path` (normalised), most specific first: a `*` after each of its
 * prefixes, and `<path>/*` (a folder's wildcard matches the folder itself, with nothing after it). Bounded by
 * the length a source may have.
 */
export function wildcardCandidates(path: string, maxLength = 512): string[] {
  const candidates = [`${path}/*`];
  for (let end = path.length; end >= 1; end--) candidates.push(`${path.slice(0, end)}*`);
  return candidates.filter((candidate) => candidate.length <= maxLength);
}

/** What the wildcard of `source` matched in `path`, or undefined when the source does not match it. */
export function wildcardSuffix(source: string, path: string): string | undefined {
  if (!isWildcard(source)) return source === path ? '' : undefined;
  const prefix = source.slice(0, -1);
  if (path.startsWith(prefix)) return path.slice(prefix.length);
  // `/a/*` matches `/a` itself.
  return prefix.endsWith('/') && path === prefix.slice(0, -1) ? '' : undefined;
}

/** `url` with `suffix` appended to its path, one `/` between them, its query and fragment kept. */
export function appendSuffix(url: string, suffix: string): string {
  const tail = suffix.replace(/^\/+/, '');
  if (tail === '') return url;
  const cut = url.search(/[?#]/);
  const [base, rest] = cut === -1 ? [url, ''] : [url.slice(0, cut), url.slice(cut)];
  return `${base.replace(/\/+$/, '')}/${tail}${rest}`;
}

/**
 * The HTTP status of a redirect: a permanent one is 308 for public live traffic (the spec's SiteRedirect) and
 * 307 elsewhere (a private site, a share link, a preview), which browsers do not keep; any other 302, since the
 * API may change it at any time.
 */
export function redirectStatus(permanent: boolean, publicTraffic: boolean): 302 | 307 | 308 {
  if (!permanent) return 302;
  return publicTraffic ? 308 : 307;
}
