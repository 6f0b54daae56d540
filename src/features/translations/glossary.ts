/**
 * The translation glossary's rules: which operations a batch may hold, and how a run keeps a term as the glossary
 * says. A LibreTranslate-compatible provider knows no glossary, so each source term is replaced by a numbered
 * marker the provider leaves alone, and the marker by the target language's term in the translated text.
 */

/** Language code → the term in that language. */
export type GlossaryTranslations = Record<string, string>;

export type GlossaryOperation =
  | { type: 'insert'; translations: GlossaryTranslations }
  | { type: 'update'; id: string; translations: GlossaryTranslations }
  | { type: 'delete'; id: string };

/** Entries an organization may keep, and operations one request may carry. */
export const MAX_GLOSSARY_ENTRIES = 5000;
export const MAX_GLOSSARY_OPERATIONS = 1000;

/**
 * What is wrong with a batch, naming the field, or null: languages must be known, each term one line, and an
 * entry may be named by one operation only (two updates of one entry would leave which one won to chance).
 */
export function glossaryBatchProblem(operations: readonly GlossaryOperation[], languages: ReadonlySet<string>): string | null {
  if (operations.length > MAX_GLOSSARY_OPERATIONS) return `body/operations must NOT have more than ${MAX_GLOSSARY_OPERATIONS} items`;
  const named = new Set<string>();
  for (const [index, operation] of operations.entries()) {
    const at = `body/operations/${index}`;
    if (operation.type !== 'insert') {
      if (named.has(operation.id)) return `${at}/id: entry ${operation.id} is named by another operation of this batch`;
      named.add(operation.id);
    }
    if (operation.type === 'delete') continue;
    const entries = Object.entries(operation.translations);
    if (entries.length === 0) return `${at}/translations must name the term in at least one language`;
    for (const [language, term] of entries) {
      if (!languages.has(language)) return `${at}/translations/${language} is not a language code of translations`;
      if (term.trim() === '') return `${at}/translations/${language} must not be blank`;
    }
  }
  return null;
}

interface Term {
  source: string;
  target: string;
}

/**
 * The terms a run from `source` to `target` keeps: entries naming the target language and the source (with an
 * `auto` source, every other language's term), longest first so that "pull request" wins over "pull".
 */
export function glossaryTerms(entries: readonly GlossaryTranslations[], source: string, target: string): Term[] {
  const terms: Term[] = [];
  for (const entry of entries) {
    const wanted = entry[target];
    if (!wanted) continue;
    const from = source === 'auto' ? Object.entries(entry).filter(([language]) => language !== target).map(([, term]) => term) : entry[source] ? [entry[source]] : [];
    for (const term of new Set(from)) if (term.trim() !== '') terms.push({ source: term.trim(), target: wanted });
  }
  return terms.sort((a, b) => b.source.length - a.source.length);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A marker providers copy through: digits between brackets that no language translates. */
const MARKER = /\[\[\s*(\d+)\s*\]\]/g;

/**
 * Texts with each glossary term (whole words, any case) replaced by a marker, and `restore`, which puts the
 * target's terms in place of the markers of the translated texts. A marker the provider dropped loses its term
 * and nothing else; a text with no term is sent unchanged.
 */
export function protectTerms(texts: readonly string[], terms: readonly Term[]): { texts: string[]; restore: (translated: readonly string[]) => string[] } {
  if (terms.length === 0) return { texts: [...texts], restore: (translated) => [...translated] };
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}_])(?:${terms.map((t) => escape(t.source)).join('|')})(?![\\p{L}\\p{N}_])`, 'giu');
  const bySource = new Map(terms.map((t) => [t.source.toLocaleLowerCase(), t.target]));
  const used: string[] = [];
  const protectedTexts = texts.map((text) =>
    text.replace(pattern, (match) => {
      used.push(bySource.get(match.toLocaleLowerCase()) ?? match);
      return `[[${used.length - 1}]]`;
    }),
  );
  return {
    texts: protectedTexts,
    restore: (translated) => translated.map((text) => text.replace(MARKER, (marker, n: string) => used[Number(n)] ?? marker)),
  };
}
