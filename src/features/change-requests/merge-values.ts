/**
 * The smallest piece of a three-way merge: one value, as it was in the common ancestor and as each side left it.
 * `undefined` stands for "absent" (an attribute not set, a variable not defined).
 */

/** Equality of JSON-like values whatever the order of object keys; a key holding `undefined` counts as absent. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of keys) if (!sameValue(left[key], right[key])) return false;
  return true;
}

/** Which side a merged value came from: both sides agree, or only one of them changed it. */
export type Origin = 'both' | 'ours' | 'theirs';

export type ValueMerge<T> = { conflict: false; value: T; from: Origin } | { conflict: true };

/**
 * A change made on one side only is taken; the same change made on both sides is taken once; two different
 * changes of the same value are a conflict, which only the caller can describe.
 */
export function mergeValue<T>(base: T, ours: T, theirs: T): ValueMerge<T> {
  if (sameValue(ours, theirs)) return { conflict: false, value: ours, from: 'both' };
  if (sameValue(ours, base)) return { conflict: false, value: theirs, from: 'theirs' };
  if (sameValue(theirs, base)) return { conflict: false, value: ours, from: 'ours' };
  return { conflict: true };
}

/** Who did what, named in conflict messages: `ours` is the side merged into, `theirs` the side merged in. */
export interface SideLabels {
  ours: string;
  theirs: string;
}

export const DEFAULT_LABELS: SideLabels = { ours: 'main', theirs: 'the change request' };

/** A message starts with a capital even when it starts with a label ("main deleted…" reads "Main deleted…"). */
export function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A name as messages quote it. */
export function quoted(name: string): string {
  return `"${name}"`;
}
