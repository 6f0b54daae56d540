import type { HighlighterCore } from 'shiki/core';

/*
 * Syntax highlighting in the browser, as the reader does it on the server (src/features/reader/highlight.ts):
 * shiki, one theme made of CSS variables, tokens rendered as `c-token-*` classes that reader.css colours for
 * light and dark. Here shiki's fine-grained core runs with its JavaScript regex engine (no WASM), in the
 * highlighting worker (highlight-worker.ts; the page asks it through highlight.ts): compiling a grammar and
 * tokenizing a page's code blocks takes hundreds of milliseconds, which on the page's thread held the screen
 * just drawn. The core, the list of languages and each grammar are imported when code in that language first
 * comes, each grammar its own small chunk.
 */

/** `kind` names the theme variable of the token's colour (`token-keyword` for `--code-token-keyword`). */
export interface CodeToken { text: string; kind?: string; italic?: boolean; bold?: boolean }
export type HighlightedLines = CodeToken[][];

// Longer code is shown plain: tokenizing it would hold the page for a long time (the reader's limit).
export const MAX_HIGHLIGHT_CHARS = 100_000;
// A longer line (minified code, data) is left plain, as the reader leaves it.
const MAX_LINE_CHARS = 2_000;
// shiki gives up on a line after this long and leaves the rest of it one token. Its default (500 ms) is reached
// by the first line a grammar ever tokenizes on a busy machine (its rules compile then), and that wrong result
// would stay in the cache: the reader's limit.
const TOKENIZE_LINE_LIMIT_MS = 5000;

interface Shiki {
  core: HighlighterCore;
  /** The grammar's id for a name or an alias, with what imports it. */
  languages: Map<string, { id: string; load: () => Promise<unknown> }>;
}

let shiki: Promise<Shiki> | undefined;
const loaded = new Map<string, Promise<void>>();

function loadShiki(): Promise<Shiki> {
  shiki ??= (async () => {
    const [{ createHighlighterCore, createCssVariablesTheme }, { createJavaScriptRegexEngine }, { bundledLanguagesInfo }] = await Promise.all([
      import('shiki/core'),
      import('shiki/engine/javascript'),
      import('shiki/langs'),
    ]);
    const theme = createCssVariablesTheme({ name: 'quire', variablePrefix: '--code-', fontStyle: true });
    // forgiving: a grammar rule the JavaScript engine cannot run leaves its text plain instead of failing the block.
    const core = await createHighlighterCore({ engine: createJavaScriptRegexEngine({ forgiving: true }), themes: [theme], langs: [] });
    const languages = new Map<string, { id: string; load: () => Promise<unknown> }>();
    for (const info of bundledLanguagesInfo) {
      for (const name of [info.id, ...(info.aliases ?? [])]) languages.set(name, { id: info.id, load: info.import });
    }
    return { core, languages };
  })();
  shiki.catch(() => (shiki = undefined));
  return shiki;
}

/** A language shiki knows: its id (what a code block's `syntax` holds), its name, and the other names it answers to. */
export interface LanguageInfo { id: string; name: string; aliases: string[] }

/** Every language the highlighter knows, as the language picker lists them (no grammar is loaded). */
export async function knownLanguages(): Promise<LanguageInfo[]> {
  const { bundledLanguagesInfo } = await import('shiki/langs');
  return bundledLanguagesInfo.map((info) => ({ id: info.id, name: info.name, aliases: info.aliases ?? [] }));
}

/** The theme variable a token's colour names, or undefined for the default colour. */
export function kindOfColor(color: string | undefined): string | undefined {
  const kind = color && /^var\(--code-([a-z-]+)\)$/.exec(color)?.[1];
  return kind && kind !== 'foreground' ? kind : undefined;
}

/**
 * The code's lines as coloured tokens, or null when shiki knows no such language or the code is too long (the
 * caller keeps it plain). The first call for a language loads its grammar.
 */
export async function tokenizeCode(syntax: string | undefined, code: string): Promise<HighlightedLines | null> {
  const name = syntax?.trim().toLowerCase();
  if (!name || code.length > MAX_HIGHLIGHT_CHARS) return null;
  const { core, languages } = await loadShiki();
  const language = languages.get(name);
  if (!language) return null;
  let grammar = loaded.get(language.id);
  if (!grammar) {
    grammar = language.load().then((module) => core.loadLanguage((module as { default: Parameters<HighlighterCore['loadLanguage']>[0] }).default));
    grammar.catch(() => loaded.delete(language.id));
    loaded.set(language.id, grammar);
  }
  await grammar;
  const lines = code.split(/\r?\n/);
  const themed = core.codeToTokensBase(code, { lang: language.id, theme: 'quire', tokenizeMaxLineLength: MAX_LINE_CHARS, tokenizeTimeLimit: TOKENIZE_LINE_LIMIT_MS });
  const out: HighlightedLines = lines.map((line, index) => {
    // A line too long to tokenize comes back as one token: keep it as typed.
    const tokens = themed[index];
    if (!tokens || line.length >= MAX_LINE_CHARS) return line ? [{ text: line }] : [];
    return tokens.map((token) => {
      const result: CodeToken = { text: token.content };
      const kind = kindOfColor(token.color);
      if (kind) result.kind = kind;
      if (token.fontStyle && token.fontStyle & 1) result.italic = true;
      if (token.fontStyle && token.fontStyle & 2) result.bold = true;
      return result;
    });
  });
  return out;
}
