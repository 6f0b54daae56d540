/*
 * The code block's language picker: the languages the highlighter knows, filtered by what is typed. A name typed
 * whole comes first (`js` finds JavaScript by its alias before JSON), then names that start with it, then names
 * that hold it; the picker's own "Plain text" (no language) is always there when nothing is typed.
 */

export interface Language { id: string; name: string; aliases: string[] }

export const PLAIN_TEXT: Language = { id: '', name: 'Plain text', aliases: [] };

export function filterLanguages(languages: readonly Language[], query: string): Language[] {
  const wanted = query.trim().toLowerCase();
  if (!wanted) return [PLAIN_TEXT, ...languages];
  const rank = (language: Language): number => {
    const names = [language.id, language.name.toLowerCase(), ...language.aliases.map((a) => a.toLowerCase())];
    if (names.includes(wanted)) return 0;
    if (names.some((n) => n.startsWith(wanted))) return 1;
    if (names.some((n) => n.includes(wanted))) return 2;
    return 3;
  };
  return [PLAIN_TEXT, ...languages]
    .map((language, order) => ({ language, order, rank: rank(language) }))
    .filter((found) => found.rank < 3)
    .sort((a, b) => a.rank - b.rank || a.order - b.order)
    .map((found) => found.language);
}

/** How a block's language is shown: its name when the highlighter knows it, else what the block holds. */
export function languageName(languages: readonly Language[], id: string): string {
  if (!id) return PLAIN_TEXT.name;
  const wanted = id.toLowerCase();
  return languages.find((l) => l.id === wanted || l.aliases.includes(wanted))?.name ?? id;
}
