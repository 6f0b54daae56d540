/// <reference lib="webworker" />
import { knownLanguages, tokenizeCode, type HighlightedLines, type LanguageInfo } from './shiki-tokens.ts';

/*
 * The highlighting worker: shiki tokenizes here, off the page's thread (highlight.ts sends the requests). Each
 * answer names the request it answers; a failure answers null, and the page keeps that code plain.
 */

export type HighlightRequest = { id: number; syntax: string; code: string } | { id: number; list: 'languages' };
export type HighlightAnswer = { id: number; lines: HighlightedLines | null } | { id: number; languages: LanguageInfo[] };

const scope = self as unknown as DedicatedWorkerGlobalScope;
scope.onmessage = async (event: MessageEvent<HighlightRequest>) => {
  if ('list' in event.data) {
    const { id } = event.data;
    scope.postMessage({ id, languages: await knownLanguages().catch(() => []) } satisfies HighlightAnswer);
    return;
  }
  const { id, syntax, code } = event.data;
  let lines: HighlightedLines | null = null;
  try {
    lines = await tokenizeCode(syntax, code);
  } catch {
    // A grammar that failed to load leaves the code plain.
  }
  scope.postMessage({ id, lines } satisfies HighlightAnswer);
};
