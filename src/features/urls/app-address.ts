/*
 * Pure: what a URL of the members' web app names (the `urls.app` of collections, spaces, change requests and
 * pages, web/routes.tsx), for getContentByUrl.
 */

export type AppAddress =
  | { kind: 'collection'; collectionId: string }
  | { kind: 'space'; spaceId: string; changeRequest?: string; page?: { id: string } | { path: string } };

export function appAddressOf(url: URL, publicUrl: string): AppAddress | undefined {
  const base = new URL(publicUrl);
  const prefix = `${base.pathname.replace(/\/$/, '')}/app/`;
  if (url.origin !== base.origin || !url.pathname.startsWith(prefix)) return undefined;
  let segments: string[];
  try {
    segments = url.pathname.slice(prefix.length).split('/').map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
  const [first, second, third, fourth, ...rest] = segments;
  if (first === 'o' && second && (third === 'c' || third === 's') && fourth) {
    return third === 'c' ? { kind: 'collection', collectionId: fourth } : { kind: 'space', spaceId: fourth };
  }
  if (first !== 's' || !second) return undefined;
  const below = [third, fourth, ...rest].filter((segment): segment is string => segment !== undefined && segment !== '');
  if (below[0] !== '~') return { kind: 'space', spaceId: second, ...(below.length > 0 ? { page: { path: below.join('/') } } : {}) };
  // The app's own screens of a space: a change request, the editor at a page, its history, revisions, Git Sync.
  if (below[1] === 'changes' && below[2]) return { kind: 'space', spaceId: second, changeRequest: below[2] };
  if (below[1] === 'edit' && below[2]) return { kind: 'space', spaceId: second, page: { id: below[2] } };
  return { kind: 'space', spaceId: second };
}
