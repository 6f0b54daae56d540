/*
 * News, in this process, that pages' documents were written where edits go (a space's live content or a change
 * request's): editing together (features/collaboration) brings the write into the editors open on those pages,
 * instead of overwriting it with their next save. A service says it after its transaction committed. Listeners
 * belong to one database handle, as publications do (publications.ts); a listener schedules its work and returns.
 */

export interface ContentWrite {
  spaceId: string;
  /** null: the space's live content. */
  changeRequestId: string | null;
  revisionId: string;
  /** Pages whose document or place the write changed. */
  pageIds: readonly string[];
}

export type ContentWriteListener = (write: ContentWrite) => void;

const listeners = new WeakMap<object, Set<ContentWriteListener>>();

/** Calls `listener` with every content write made through `db`; returns the unsubscribe. */
export function onContentWrite(db: object, listener: ContentWriteListener): () => void {
  let set = listeners.get(db);
  if (!set) listeners.set(db, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/** Tells the listeners of `db`; call it once the writing transaction committed. */
export function announceContentWrite(db: object, write: ContentWrite): void {
  for (const listener of listeners.get(db) ?? []) {
    try {
      listener(write);
    } catch {
      // The write stands whatever a listener does.
    }
  }
}
