/*
 * The emoji the `:` picker offers, by name: Unicode's list (unicode-emoji-json, MIT: each emoji's CLDR name and a
 * slug such as `thumbs_up`), in its own chunk, loaded the first time a person types `:` and a letter.
 */

export interface EmojiEntry {
  /** The emoji itself. */
  char: string;
  /** Its CLDR name ("thumbs up"). */
  name: string;
  /** Its short name, as typed after `:` ("thumbs_up"). */
  slug: string;
}

let loading: Promise<EmojiEntry[]> | undefined;

/** Every emoji, in Unicode's order (faces first): loaded once. */
export function loadEmoji(): Promise<EmojiEntry[]> {
  loading ??= import('unicode-emoji-json/data-by-emoji.json').then(
    (module) => Object.entries(module.default as Record<string, { name: string; slug: string }>).map(([char, entry]) => ({ char, name: entry.name, slug: entry.slug })),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/**
 * The emoji a query names, best first, at most `limit`: its short name exactly, then short names that start with it,
 * then names with a word that starts with it, then names that hold it; in Unicode's order within each. A query of
 * several words (`thumbs up`, `thumbs_up`) matches them in order.
 */
export function findEmoji(all: readonly EmojiEntry[], query: string, limit = 8): EmojiEntry[] {
  const q = query.trim().toLowerCase().replace(/[\s_-]+/g, '_');
  if (q === '') return [];
  const ranked: { entry: EmojiEntry; rank: number; order: number }[] = [];
  all.forEach((entry, order) => {
    const slug = entry.slug.toLowerCase();
    const rank = slug === q ? 0 : slug.startsWith(q) ? 1 : slug.split('_').some((_, i, words) => words.slice(i).join('_').startsWith(q)) ? 2 : slug.includes(q) ? 3 : -1;
    if (rank >= 0) ranked.push({ entry, rank, order });
  });
  return ranked
    .sort((a, b) => a.rank - b.rank || a.order - b.order)
    .slice(0, limit)
    .map((r) => r.entry);
}

/** An emoji as GitBook's `emoji` inline stores it: its code points in hex, joined by dashes ("1f44d"). */
export function emojiCode(char: string): string {
  return [...char].map((c) => c.codePointAt(0)!.toString(16)).join('-');
}
