/*
 * How well a `/` query finds an item: every word of the query (spaces included, "/page link") must be found, and
 * the items found are ranked by how. A word that starts the title counts most, then one that starts a word of it,
 * then one inside it or starting one of the item's keywords, then its letters in order in the title ("hdg" finds
 * "Heading"), so that a typo-ish or shortened word still finds the block without burying the exact one.
 */

export interface Matchable {
  title: string;
  keywords: string;
  description: string;
}

const wordsOf = (text: string) => text.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);

function inOrder(word: string, text: string): boolean {
  let at = 0;
  for (const letter of word) {
    at = text.indexOf(letter, at) + 1;
    if (at === 0) return false;
  }
  return true;
}

/** The score of one word against an item; 0 when it is not found. */
function wordScore(word: string, item: Matchable): number {
  const title = item.title.toLowerCase();
  if (title.startsWith(word)) return 8;
  if (wordsOf(title).some((w) => w.startsWith(word))) return 6;
  if (title.includes(word)) return 4;
  if (wordsOf(item.keywords).some((w) => w.startsWith(word))) return 3;
  if (`${item.keywords} ${item.description}`.toLowerCase().includes(word)) return 2;
  // Letters in order: two or more, so that one stray letter does not find every block.
  return word.length >= 2 && inOrder(word, title) ? 1 : 0;
}

/** The score of a query against an item: 0 when a word of it is not found; an empty query finds everything. */
export function matchScore(query: string, item: Matchable): number {
  let total = 0;
  for (const word of query.toLowerCase().split(/\s+/).filter(Boolean)) {
    const score = wordScore(word, item);
    if (score === 0) return 0;
    total += score;
  }
  return total;
}

/** The items the query finds, best first (in their own order where they score alike). */
export function rankMatches<T extends Matchable>(items: readonly T[], query: string): T[] {
  if (!query.trim()) return [...items];
  return items
    .map((item, order) => ({ item, order, score: matchScore(query, item) }))
    .filter((m) => m.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map((m) => m.item);
}
