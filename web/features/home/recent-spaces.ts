/*
 * The spaces this browser opened last, newest first (the home screen's "recently opened"): kept in the browser,
 * since it is this person's habit on this device, not a fact the API holds.
 */
export interface RecentSpace { id: string; title: string; emoji?: string; organization: string; openedAt: string }

const KEY = 'quire-recent-spaces';
const MAX = 8;

export function recentSpaces(): RecentSpace[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(value) ? (value as RecentSpace[]).filter((s) => typeof s?.id === 'string' && typeof s.title === 'string') : [];
  } catch {
    return [];
  }
}

export function rememberSpace(space: Omit<RecentSpace, 'openedAt'>): void {
  const rest = recentSpaces().filter((s) => s.id !== space.id);
  localStorage.setItem(KEY, JSON.stringify([{ ...space, openedAt: new Date().toISOString() }, ...rest].slice(0, MAX)));
}

export function forgetSpace(spaceId: string): void {
  localStorage.setItem(KEY, JSON.stringify(recentSpaces().filter((s) => s.id !== spaceId)));
}
