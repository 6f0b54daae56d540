import { useEffect, useState } from 'react';
import { api } from '../../api/client.ts';

/*
 * The names of what page link cards and mentions point to (a page's title, a person's name, a space's title),
 * as the page view shows them: asked of the API once per target while the editor is open. A target the API
 * does not show this person (deleted, or out of reach) has no name: undefined.
 */
/** A content reference as documents hold it (the fields a name is looked up by). */
type Ref = { kind?: string; page?: string; anchor?: string; url?: string; file?: string };

const names = new Map<string, Promise<string | undefined>>();

function named(path: string, field: 'title' | 'displayName'): Promise<string | undefined> {
  if (!names.has(path)) names.set(path, api<Record<string, unknown>>('GET', path).then((found) => (typeof found[field] === 'string' ? found[field] : undefined), () => undefined));
  return names.get(path)!;
}

/** The name of a reference's target, looked up in `spaceId` for a page of no other space; undefined for a URL or a file. */
export function refName(spaceId: string, ref: (Ref & { space?: string; user?: string }) | undefined): Promise<string | undefined> {
  const space = encodeURIComponent(ref?.space ?? spaceId);
  if ((ref?.kind === 'page' || ref?.kind === 'anchor') && ref.page) return named(`/spaces/${space}/content/page/${encodeURIComponent(ref.page)}`, 'title');
  if (ref?.kind === 'user' && ref.user) return named(`/users/${encodeURIComponent(ref.user)}`, 'displayName');
  if (ref?.kind === 'space' && ref.space) return named(`/spaces/${space}`, 'title');
  return Promise.resolve(undefined);
}

/** The target's name: undefined while it is asked, null when it has none. */
export function useRefName(spaceId: string, ref: (Ref & { space?: string; user?: string }) | undefined): string | null | undefined {
  const [found, setFound] = useState<{ key: string; name: string | null }>();
  const key = JSON.stringify([spaceId, ref?.kind, ref?.page, ref?.space, ref?.user]);
  useEffect(() => {
    let current = true;
    void refName(spaceId, ref).then((name) => current && setFound({ key, name: name ?? null }));
    return () => {
      current = false;
    };
    // The key names every field of `ref` the lookup reads.
  }, [key]);
  return found?.key === key ? found.name : undefined;
}
