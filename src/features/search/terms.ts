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
  /** Also match the prefix's shorter prefixes as stems (see prefixStems): the retry when the prefix found nothing. */
  stems?: boolean;
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

/**
 * Both engines index stems ("notifications" is `notif`), so a half-typed word may be longer than the stem of the
 * word it starts ("notificat"): no prefix of the index matches it. A stem is (nearly always) a prefix of its
 * word, stemming strips at most a few letters, and the word starts with what was typed; so the stem is either
 * longer than the typed prefix (the prefix query finds it) or one of the typed prefix's own shorter prefixes,
 * which are matched as whole words alongside. Only as a retry when the prefix alone found nothing: these short
 * stems also match unrelated words ("quickstart" would find "quick").
 */
export function prefixStems(prefix: string): string[] {
  const stems: string[] = [];
  for (let length = prefix.length - 1; length >= Math.max(4, prefix.length - 5); length--) stems.push(prefix.slice(0, length));
  return stems;
}

/** The FTS5 MATCH expression: every word quoted (a string, never syntax), the last one a prefix. */
export function fts5Match(terms: SearchTerms): string {
  const quoted = terms.words.map((w) => `"${w}"`);
  if (terms.prefix !== undefined) {
    const alternatives = [`"${terms.prefix}"*`, ...(terms.stems ? prefixStems(terms.prefix).map((s) => `"${s}"`) : [])];
    quoted.push(alternatives.length === 1 ? alternatives[0]! : `(${alternatives.join(' OR ')})`);
  }
  return quoted.join(' AND ');
}

/** PostgreSQL: the whole words for websearch_to_tsquery, and the prefix as a to_tsquery expression (`word:* | wor`). */
export function tsqueryParts(terms: SearchTerms): { words: string; prefix: string | null } {
  const prefix = terms.prefix === undefined ? null : [`${terms.prefix}:*`, ...(terms.stems ? prefixStems(terms.prefix) : [])].join(' | ');
  return { words: terms.words.join(' '), prefix };
}

/** The retry of a search whose half-typed last word found nothing, or undefined when there is none to make. */
export function withPrefixStems(terms: SearchTerms): SearchTerms | undefined {
  return terms.prefix !== undefined && !terms.stems && prefixStems(terms.prefix).length > 0 ? { ...terms, stems: true } : undefined;
}
