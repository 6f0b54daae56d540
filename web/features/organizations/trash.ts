/*
 * The spaces deleted from this browser in the last 7 days, per organization: the API restores a space by its
 * id for 7 days (restoreSpace) but lists no deleted spaces, so the trash remembers what this person put there.
 */
export interface TrashedSpace { id: string; title: string; organization: string; deletedAt: string }

const KEY = 'quire-trash';
export const TRASH_DAYS = 7;

function read(): TrashedSpace[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(value) ? (value as TrashedSpace[]).filter((s) => typeof s?.id === 'string' && typeof s.deletedAt === 'string') : [];
  } catch {
    return [];
  }
}

/** What can still be restored, newest first; older entries are forgotten. */
export function trashOf(organization: string, now = Date.now()): TrashedSpace[] {
  const fresh = read().filter((s) => now - Date.parse(s.deletedAt) < TRASH_DAYS * 24 * 3600 * 1000);
  localStorage.setItem(KEY, JSON.stringify(fresh));
  return fresh.filter((s) => s.organization === organization).sort((a, b) => b.deletedAt.localeCompare(a.deletedAt));
}

export function putInTrash(space: Omit<TrashedSpace, 'deletedAt'>, now = new Date()): void {
  localStorage.setItem(KEY, JSON.stringify([{ ...space, deletedAt: now.toISOString() }, ...read().filter((s) => s.id !== space.id)]));
}

export function takeOutOfTrash(spaceId: string): void {
  localStorage.setItem(KEY, JSON.stringify(read().filter((s) => s.id !== spaceId)));
}
