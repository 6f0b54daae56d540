import { createHash } from 'node:crypto';
import { bundledLanguages, bundledLanguagesAlias, createCssVariablesTheme } from 'shiki';
import type { BundledLanguage, HighlighterCore } from 'shiki';
import { createHighlighterCore } from 'shiki/core';
import { createOnigurumaEngine } from 'shiki/engine/oniguruma';
import { EncodedTokenMetadata, INITIAL, type IGrammar, type StateStack } from 'shiki/textmate';
import { HIGHLIGHT_SAMPLES } from './highlight-samples.ts';

/*
 * Syntax highlighting with shiki, offline: grammars and the WASM regex engine come from the package. One
 * theme made of CSS variables (`--code-token-keyword`, …) gives light and dark colours from the stylesheet
 * with a single tokenization, where shiki's dual themes tokenize twice and cost about five times as much.
 * Grammars load on first use (all 300 would take seconds); tokens are cached by (language, code hash).
 *
 * Lines go to the grammar's tokenizer directly, as shiki's codeToTokens does (same tokens, same rules for empty
 * and over-long lines) without its per-call work, and in steps: a job tokenizes lines until a deadline and
 * resumes later, so a render can stop at its budget and the rest finish in the background
 * (background-highlighting.ts).
 */

/** `kind` names the theme variable of the token's colour (`token-keyword` for `--code-token-keyword`). */
export interface CodeToken { text: string; kind?: string; italic?: boolean; bold?: boolean }
export type HighlightedLines = CodeToken[][];

const THEME = createCssVariablesTheme({ name: 'quire', variablePrefix: '--code-', fontStyle: true });
// Bounded by entries and by the code they hold, so a few huge blocks cannot fill the memory.
const CACHE_LIMIT = 2000;
const CACHE_CHAR_LIMIT = 8_000_000;
// shiki gives up on a line after this long and leaves the rest of it one token. Its default (500 ms) is
// reached by the first line a grammar ever tokenizes on a busy machine (its regular expressions compile
// then), and that wrong result would stay in the cache.
const TOKENIZE_LINE_LIMIT_MS = 5000;
// Longer code is shown plain: tokenizing it would hold the event loop for a long time.
const MAX_HIGHLIGHT_CHARS = 100_000;
// A longer line (minified code, data) is left plain: tokenizing it can take very long.
const MAX_LINE_CHARS = 2_000;

let highlighter: Promise<HighlighterCore> | undefined;
const loading = new Map<string, Promise<void>>();
const cache = new Map<string, { lines: HighlightedLines; chars: number }>();
let cachedChars = 0;

function getHighlighter(): Promise<HighlighterCore> {
  highlighter ??= createHighlighterCore({ engine: createOnigurumaEngine(import('shiki/wasm')), themes: [THEME], langs: [] }).then((core) => {
    // The only theme, set once: grammars then encode its colours in their tokens' metadata.
    const { theme, colorMap } = core.setTheme(THEME.name!);
    // shiki stands a placeholder colour in for each CSS variable in the grammar's colour map, and replaces it back.
    kindOfColor = colorMap.map((color) => {
      const value = (color && theme.colorReplacements?.[color.toLowerCase()]) || color;
      const kind = value && /^var\(--code-([a-z-]+)\)$/.exec(value)?.[1];
      return kind && kind !== 'foreground' ? kind : undefined;
    });
    return core;
  });
  return highlighter;
}

/** The shiki language for a code block's `syntax` (a name or an alias, any case), or null if there is none. */
export function languageOf(syntax: string | undefined): BundledLanguage | null {
  if (!syntax) return null;
  const name = syntax.trim().toLowerCase();
  if (Object.hasOwn(bundledLanguages, name)) return name as BundledLanguage;
  if (Object.hasOwn(bundledLanguagesAlias, name)) return name as BundledLanguage;
  return null;
}

async function loadLanguages(languages: Iterable<BundledLanguage>): Promise<void> {
  const core = await getHighlighter();
  const pending: Promise<void>[] = [];
  for (const language of new Set(languages)) {
    let load = loading.get(language);
    if (!load) {
      const grammar = bundledLanguages[language] ?? bundledLanguagesAlias[language as keyof typeof bundledLanguagesAlias];
      load = grammar ? core.loadLanguage(grammar) : Promise.resolve();
      loading.set(language, load);
    }
    pending.push(load);
  }
  await Promise.all(pending);
}

/** Tokenizes a block's lines in steps; its tokens go to the cache when the last line is done. */
export interface HighlightJob {
  /** The cache key: language and code. */
  readonly key: string | null;
  readonly chars: number;
  /** Tokenizes lines while `timeLeft` says so (asked before each line): the tokens once all are done. */
  advance(timeLeft: () => boolean): HighlightedLines | undefined;
}

/**
 * The code's lines as coloured tokens, or null when the language is not loaded or the code is too long (the
 * caller shows it plain). Call prepareHighlighter first.
 */
export function highlight(language: BundledLanguage, code: string): HighlightedLines | null {
  const found = highlightOrJob(language, code);
  return found === null || Array.isArray(found) ? found : found.advance(always)!;
}

/**
 * The cached tokens of the code, else a job that tokenizes it; null when it is not to be highlighted (the
 * language is not loaded, or the code is too long).
 */
export function highlightOrJob(language: BundledLanguage, code: string): HighlightedLines | HighlightJob | null {
  const core = loadedHighlighter;
  if (!core || code.length > MAX_HIGHLIGHT_CHARS || !core.getLoadedLanguages().includes(language)) return null;
  const key = `${language}\u0000${createHash('sha256').update(code).digest('base64url')}`;
  const cached = cache.get(key);
  if (cached) {
    // Map order is insertion order: moving the entry to the end makes eviction least-recently-used.
    cache.delete(key);
    cache.set(key, cached);
    return cached.lines;
  }
  return new Tokenizing(key, core.getLanguage(language), code);
}

const always = () => true;

// As shiki's splitLines: a CRLF ends a line too.
const NEWLINE = /\r?\n/;

class Tokenizing implements HighlightJob {
  readonly chars: number;
  private readonly lines: string[];
  private readonly out: HighlightedLines = [];
  private state: StateStack = INITIAL;

  constructor(
    /** null: not to be cached (the warm-up's samples). */
    readonly key: string | null,
    private readonly grammar: IGrammar,
    code: string,
  ) {
    this.chars = code.length;
    this.lines = code.split(NEWLINE);
  }

  advance(timeLeft: () => boolean): HighlightedLines | undefined {
    const { lines, out } = this;
    while (out.length < lines.length) {
      if (!timeLeft()) return undefined;
      out.push(this.tokenizeLine(lines[out.length]!));
    }
    if (this.key !== null) remember(this.key, out, this.chars);
    return out;
  }

  /** One line's tokens, the way shiki's tokenizeWithTheme makes them. */
  private tokenizeLine(line: string): CodeToken[] {
    // Neither an empty line nor one left plain moves the grammar's state.
    if (line === '') return [];
    if (line.length >= MAX_LINE_CHARS) return [{ text: line }];
    const result = this.grammar.tokenizeLine2(line, this.state, TOKENIZE_LINE_LIMIT_MS);
    this.state = result.ruleStack;
    const tokens: CodeToken[] = [];
    const count = result.tokens.length / 2;
    for (let j = 0; j < count; j++) {
      const start = result.tokens[2 * j]!;
      const end = j + 1 < count ? result.tokens[2 * j + 2]! : line.length;
      if (start === end) continue;
      const metadata = result.tokens[2 * j + 1]!;
      const token: CodeToken = { text: line.substring(start, end) };
      const kind = kindOfColor[EncodedTokenMetadata.getForeground(metadata)];
      if (kind) token.kind = kind;
      const fontStyle = EncodedTokenMetadata.getFontStyle(metadata);
      if (fontStyle & 1) token.italic = true;
      if (fontStyle & 2) token.bold = true;
      tokens.push(token);
    }
    return tokens;
  }
}

function remember(key: string, lines: HighlightedLines, chars: number): void {
  if (cache.has(key)) return;
  cache.set(key, { lines, chars });
  cachedChars += chars;
  while (cache.size > CACHE_LIMIT || cachedChars > CACHE_CHAR_LIMIT) {
    const [oldest, entry] = cache.entries().next().value!;
    cache.delete(oldest);
    cachedChars -= entry.chars;
  }
}

/** The theme variable of each colour of the theme's colour map (`token-keyword` for `var(--code-token-keyword)`). */
let kindOfColor: (string | undefined)[] = [];

let loadedHighlighter: HighlighterCore | undefined;
/** Creates the highlighter and loads these languages' grammars (once each), so that highlight() runs synchronously. */
export async function prepareHighlighter(languages: Iterable<BundledLanguage>): Promise<void> {
  loadedHighlighter = await getHighlighter();
  await loadLanguages(languages);
}

/** Languages most documentation shows: their grammars load, and warm up, when the server starts listening. */
const COMMON_LANGUAGES = Object.keys(HIGHLIGHT_SAMPLES) as BundledLanguage[];
// Rounds over the samples: the first compiles the rules (most of the ~2 s of CPU this takes), the next let V8
// optimize the tokenizer (about 0.1 s each).
const WARM_UP_ROUNDS = 3;

/**
 * Loads the highlighter and the common grammars, then tokenizes a realistic sample of each several times: a
 * grammar's regular expressions compile when a line first reaches their rule, and the tokenizer only runs at
 * full speed once V8 has optimized it. Without this, the first few pages with code after a start cost 50 to 60
 * ms of CPU more than later ones. One sample at a time, yielding between them, so requests that arrive during
 * the warm-up wait for a few milliseconds at most. The samples bypass the cache. Runs once per process; later
 * calls return the same promise.
 */
export function preloadHighlighter(): Promise<void> {
  warmUp ??= warmUpHighlighter();
  return warmUp;
}
let warmUp: Promise<void> | undefined;

async function warmUpHighlighter(): Promise<void> {
  await prepareHighlighter(COMMON_LANGUAGES);
  const core = loadedHighlighter!;
  for (let round = 0; round < WARM_UP_ROUNDS; round++) {
    for (const language of COMMON_LANGUAGES) {
      await new Promise((resolve) => setImmediate(resolve));
      new Tokenizing(null, core.getLanguage(language), HIGHLIGHT_SAMPLES[language]!).advance(always);
    }
  }
}

/** How many highlighted blocks are cached (for tests). */
export function highlightCacheSize(): number {
  return cache.size;
}

/** Empties the token cache: the bench measures renders of code never highlighted, after publishing warmed it. */
export function forgetHighlightedCode(): void {
  cache.clear();
  cachedChars = 0;
}
