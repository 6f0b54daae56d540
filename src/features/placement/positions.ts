import { generateKeyBetween } from 'fractional-indexing';

/**
 * Order among siblings is a fractional key: moving one item writes one row, whatever the number of siblings.
 * `ordered` is the sibling keys in order, without the item being placed. Two concurrent inserts can produce
 * equal keys (ties are ordered by id), so neighbours are searched for a strictly different key.
 */
export function positionAtEnd(ordered: readonly string[]): string {
  return generateKeyBetween(ordered[ordered.length - 1] ?? null, null);
}

export function positionBefore(ordered: readonly string[], index: number): string {
  const key = ordered[index]!;
  let lower = index - 1;
  while (lower >= 0 && ordered[lower]! >= key) lower--;
  return generateKeyBetween(lower >= 0 ? ordered[lower]! : null, key);
}

export function positionAfter(ordered: readonly string[], index: number): string {
  const key = ordered[index]!;
  let upper = index + 1;
  while (upper < ordered.length && ordered[upper]! <= key) upper++;
  return generateKeyBetween(key, upper < ordered.length ? ordered[upper]! : null);
}
