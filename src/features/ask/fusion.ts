/**
 * Reciprocal rank fusion (Cormack, Clarke and Büttcher, 2009): each ranking gives an item 1 / (k + its rank), and
 * items are ordered by their sum. It needs no common scale between a full-text score and a cosine, rewards what
 * both rankings found, and k = 60 keeps one ranking's first places from deciding alone. Ties keep the order of
 * the best rank, then of the first ranking.
 */
export function fuseRankings<T>(rankings: readonly (readonly T[])[], k = 60): T[] {
  const fused = new Map<T, { score: number; best: number; order: number }>();
  let order = 0;
  for (const ranking of rankings) {
    ranking.forEach((item, rank) => {
      const entry = fused.get(item) ?? { score: 0, best: Number.POSITIVE_INFINITY, order: order++ };
      entry.score += 1 / (k + rank + 1);
      entry.best = Math.min(entry.best, rank);
      fused.set(item, entry);
    });
  }
  return [...fused.entries()].sort(([, a], [, b]) => b.score - a.score || a.best - b.best || a.order - b.order).map(([item]) => item);
}
