/**
 * What a person typed, as the words full-text search looks for. Only letters and digits survive, so no query
 * syntax of either engine (FTS5's `NEAR`, `*`, `"`, `:`; tsquery's `&`, `|`, `!`) ever reaches it from user text:
 * the engines' expressions are built from these words alone (search/store.ts).
 */
export interface SearchTerms {
  /** Whole words, every one required. */
  words: string[];
  /** The last word typed, matched as a prefix ("instal" finds "installation"). */
  prefix: string | undefined;
}

const MAX_TERMS = 16;

export function searchTerms(query: string): SearchTerms {
  const all = (query.normalize('NFC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_TERMS);
  // The last word is still being typed only when the query does not end with a separator.
  const typing = all.length > 0 && /[\p{L}\p{N}]$/u.test(query.trimEnd()) && !/\s$/.test(query);
  return typing ? { words: all.slice(0, -1), prefix: all[all.length - 1] } : { words: all, prefix: undefined };
}

export function isEmpty(terms: SearchTerms): boolean {
  return terms.words.length === 0 && terms.prefix === undefined;
}

/** The FTS5 MATCH expression: every word quoted (a string, never syntax), the last one a prefix. */
export function fts5Match(terms: SearchTerms): string {
  const quoted = terms.words.map((w) => `"${w}"`);
  if (terms.prefix !== undefined) quoted.push(`"${terms.prefix}"*`);
  return quoted.join(' ');
}

/** PostgreSQL: the whole words for websearch_to_tsquery, and the prefix as a to_tsquery operand (`word:*`). */
export function tsqueryParts(terms: SearchTerms): { words: string; prefix: string | null } {
  return { words: terms.words.join(' '), prefix: terms.prefix === undefined ? null : `${terms.prefix}:*` };
}
