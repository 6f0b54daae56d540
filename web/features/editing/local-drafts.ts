import type { PageEdit } from './save-queue.ts';

/*
 * Edits not yet on the server, kept in this browser (localStorage) so that a closed tab, a crash or a lost
 * connection loses nothing: the next time the page is opened for editing they are shown and sent again, based on
 * the revision they were made on (the server merges them with what changed since, or shows the conflict).
 */

export interface UnsavedDraft {
  base: string;
  edit: PageEdit;
  at: string;
  /** The editor (one per open page, per tab) that wrote it. */
  tab?: string;
  /** Written as that tab closed: nobody else will send these edits, the next editor of the page takes them in. */
  closed?: boolean;
}

/** Where a page's edits go: a change request, or the space's main line. */
export function draftKey(spaceId: string, target: string, pageId: string): string {
  return `quire:unsaved:${spaceId}:${target}:${pageId}`;
}

export function readDraft(storage: Pick<Storage, 'getItem'>, key: string): UnsavedDraft | null {
  try {
    return parseDraft(storage.getItem(key));
  } catch {
    return null;
  }
}

/** A stored draft (a `storage` event's newValue too), or null when it is none. */
export function parseDraft(stored: string | null): UnsavedDraft | null {
  try {
    const value = JSON.parse(stored ?? 'null') as UnsavedDraft | null;
    return value && typeof value.base === 'string' && value.edit && typeof value.edit === 'object' ? value : null;
  } catch {
    return null;
  }
}

/** Keeps the edits, or forgets them once saved (null). A full storage keeps the older copy rather than failing the edit. */
export function writeDraft(storage: Pick<Storage, 'setItem' | 'removeItem'>, key: string, draft: UnsavedDraft | null): void {
  try {
    if (draft) storage.setItem(key, JSON.stringify(draft));
    else storage.removeItem(key);
  } catch {
    // Quota exceeded or storage disabled: the edits are still in the page and in the save queue.
  }
}
