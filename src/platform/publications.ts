/*
 * News, in this process, that readers will soon ask for content they have not read yet: a site was published, or a
 * space's published content moved to a new revision (a merge, a live edit, an import). A service says it after its
 * transaction committed, so listeners read the new state; the reader highlights the new code ahead of its readers
 * (features/reader/highlight-ahead.ts). Listeners belong to one database handle, as read caches do, so the
 * applications of one process (tests) do not hear each other. A listener schedules its work and returns: it must
 * not hold the request that published.
 */

export type Publication =
  | { kind: 'site'; organizationId: string; siteId: string }
  | { kind: 'space'; organizationId: string; spaceId: string; revisionId: string };

export type PublicationListener = (publication: Publication) => void;

const listeners = new WeakMap<object, Set<PublicationListener>>();

/** Calls `listener` with every publication made through `db`; returns the unsubscribe. */
export function onPublication(db: object, listener: PublicationListener): () => void {
  let set = listeners.get(db);
  if (!set) listeners.set(db, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/** Tells the listeners of `db`; call it once the publishing transaction committed. */
export function announcePublication(db: object, publication: Publication): void {
  for (const listener of listeners.get(db) ?? []) {
    try {
      listener(publication);
    } catch {
      // What a listener does is a bonus (work done ahead of time); the publication stands whatever it does.
    }
  }
}
