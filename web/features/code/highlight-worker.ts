/// <reference lib="webworker" />
import { tokenizeCode } from './shiki-tokens.ts';

/*
 * The highlighting worker: shiki tokenizes here, off the page's thread (highlight.ts sends the requests). Each
 * answer names the request it answers; a failure answers null, and the page keeps that code plain.
 */

export interface HighlightRequest { id: number; syntax: string; code: string }
export interface HighlightAnswer { id: number; lines: Awaited<ReturnType<typeof tokenizeCode>> }

const scope = self as unknown as DedicatedWorkerGlobalScope;
scope.onmessage = async (event: MessageEvent<HighlightRequest>) => {
  const { id, syntax, code } = event.data;
  let lines: HighlightAnswer['lines'] = null;
  try {
    lines = await tokenizeCode(syntax, code);
  } catch {
    // A grammar that failed to load leaves the code plain.
  }
  scope.postMessage({ id, lines } satisfies HighlightAnswer);
};
