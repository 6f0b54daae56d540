import { positionAfter, positionAtEnd, positionBefore } from '../placement/positions.ts';

/**
 * Pure rules of a site's structure: URL paths, the one default among siblings, and order. No I/O; the services
 * load the siblings, ask here, and write what comes out.
 */

/** A path segment of a published URL: letters, digits, `-`, `_`, `.`; not `.` or `..`; 1 to 100 characters. */
const URL_SAFE = /^[A-Za-z0-9._-]{1,100}$/;

export function checkPath(path: string): string | null {
  if (!URL_SAFE.test(path) || path === '.' || path === '..') {
    return 'must be 1 to 100 URL-safe characters (letters, digits, "-", "_", ".")';
  }
  return null;
}

/** A path from a title: lowercase ASCII words joined by "-"; "section" when nothing is left. */
export function pathFromTitle(title: string, fallback = 'section'): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 90)
    .replace(/-+$/, '');
  return slug || fallback;
}

/** `wanted`, or `wanted-2`, `wanted-3`… : the first that no sibling has (compared without case). */
export function uniquePath(wanted: string, taken: Iterable<string>): string {
  const used = new Set([...taken].map((p) => p.toLowerCase()));
  if (!used.has(wanted.toLowerCase())) return wanted;
  for (let n = 2; ; n++) {
    const candidate = `${wanted.slice(0, 95)}-${n}`;
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
}

export function pathTaken(path: string, siblings: Iterable<{ id: string; path: string }>, selfId?: string): boolean {
  for (const s of siblings) if (s.id !== selfId && s.path.toLowerCase() === path.toLowerCase()) return true;
  return false;
}

/**
 * The default among siblings (in order): the one flagged, or else the first. A flagged one can be out of
 * sight (its space is in the trash); then the first visible sibling stands in without any write, and the
 * flagged one is the default again once its space is restored.
 */
export function effectiveDefault<T extends { id: string; is_default: number }>(ordered: readonly T[]): string | undefined {
  return (ordered.find((item) => item.is_default === 1) ?? ordered[0])?.id;
}

export interface Positioned {
  id: string;
  position: string;
}

/** Siblings in their order: by key, ties by id (two concurrent inserts may pick the same key). */
export function inOrder<T extends Positioned>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * The key that puts an item before or after a sibling, or last. `siblings` excludes the item itself.
 * Answers an error message when the reference is not among the siblings.
 */
export function positionAmong(
  siblings: readonly Positioned[],
  target: { before?: string | undefined; after?: string | undefined },
): { position: string } | { error: string } {
  const ordered = inOrder(siblings);
  const keys = ordered.map((s) => s.position);
  if (target.before && target.after) return { error: 'must name either before or after, not both' };
  const ref = target.before ?? target.after;
  if (ref === undefined) return { position: positionAtEnd(keys) };
  const index = ordered.findIndex((s) => s.id === ref);
  if (index < 0) return { error: `${ref} is not a sibling of the item moved` };
  return { position: target.before ? positionBefore(keys, index) : positionAfter(keys, index) };
}
