import type { HighlightAnswer, HighlightRequest } from './highlight-worker.ts';
// Types only: shiki and its grammars are the worker's, never in the page's JavaScript.
import type { CodeToken, HighlightedLines, LanguageInfo } from './shiki-tokens.ts';

/*
 * Code highlighting for the page's components (code blocks of a rendered page, the editor's decorations): the
 * tokens come from the highlighting worker (highlight-worker.ts, shiki), so a page with many code blocks is drawn
 * and stays responsive while they are tokenized; each block shows its text plain until its tokens come. One
 * worker serves the page, started on first use; answers are kept per language and code.
 */

export type { CodeToken, HighlightedLines, LanguageInfo };

const CACHE_LIMIT = 500;
// Answers by language and code, kept as promises: two blocks with the same code (both sides of a diff) ask the
// worker once, even while the first answer is on its way.
const cache = new Map<string, Promise<HighlightedLines | null>>();
// The same answers once they came, read without waiting: the editor, opened on a page the page view highlighted,
// draws its code blocks coloured from the start instead of drawing the page again when the answers come.
const answered = new Map<string, HighlightedLines | null>();
const waiting = new Map<number, (answer: HighlightAnswer | null) => void>();
let worker: Worker | undefined;
let nextId = 1;

function highlighter(): Worker {
  if (!worker) {
    worker = new Worker(new URL('./highlight-worker.ts', import.meta.url), { type: 'module', name: 'highlight' });
    worker.onmessage = (event: MessageEvent<HighlightAnswer>) => {
      waiting.get(event.data.id)?.(event.data);
      waiting.delete(event.data.id);
    };
    // A worker that cannot start (or died) leaves every waiting block plain; the next request starts another.
    worker.onerror = () => {
      for (const resolve of waiting.values()) resolve(null);
      waiting.clear();
      worker?.terminate();
      worker = undefined;
    };
  }
  return worker;
}

/**
 * The code's lines as coloured tokens, or null when shiki knows no such language or the code is too long (the
 * caller keeps it plain).
 */
export async function highlightCode(syntax: string | undefined, code: string): Promise<HighlightedLines | null> {
  const name = syntax?.trim().toLowerCase();
  // Code too long to tokenize comes back null from the worker (shiki-tokens.ts) and is kept plain like the rest.
  if (!name) return null;
  const key = `${name}\u0000${code}`;
  const kept = cache.get(key);
  if (kept) return kept;
  const lines = new Promise<HighlightedLines | null>((resolve) => {
    const id = nextId++;
    waiting.set(id, (answer) => {
      const result = answer && 'lines' in answer ? answer.lines : null;
      if (cache.has(key)) answered.set(key, result);
      resolve(result);
    });
    highlighter().postMessage({ id, syntax: name, code } satisfies HighlightRequest);
  });
  cache.set(key, lines);
  // Map order is insertion order: the oldest entry goes first.
  if (cache.size > CACHE_LIMIT) {
    const oldest = cache.keys().next().value!;
    cache.delete(oldest);
    answered.delete(oldest);
  }
  return lines;
}

/** The answer highlightCode already has for this code, or undefined while none has come (it does not ask). */
export function highlightedNow(syntax: string | undefined, code: string): HighlightedLines | null | undefined {
  const name = syntax?.trim().toLowerCase();
  if (!name) return null;
  return answered.get(`${name}\u0000${code}`);
}

let languages: Promise<LanguageInfo[]> | undefined;

/** The languages the highlighter knows (the code block's language picker), asked of the worker once. */
export function highlighterLanguages(): Promise<LanguageInfo[]> {
  languages ??= new Promise<LanguageInfo[]>((resolve) => {
    const id = nextId++;
    waiting.set(id, (answer) => resolve(answer && 'languages' in answer ? answer.languages : []));
    highlighter().postMessage({ id, list: 'languages' } satisfies HighlightRequest);
  }).then((found) => {
    // A worker that failed answers none: the next picker asks again.
    if (found.length === 0) languages = undefined;
    return found;
  });
  return languages;
}

/** The class names of a token, as the reader writes them (`c-token-keyword c-italic`), or '' for plain text. */
export function tokenClasses(token: CodeToken): string {
  return [token.kind ? `c-${token.kind}` : '', token.italic ? 'c-italic' : '', token.bold ? 'c-bold' : ''].filter(Boolean).join(' ');
}
