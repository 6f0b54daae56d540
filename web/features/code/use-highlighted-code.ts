import { useEffect, useState } from 'react';

/** A token as a code block renders it: its text and the reader's classes (`c-token-keyword`), '' when plain. */
export interface ClassedToken { text: string; className: string }

/**
 * The tokens of a code block once its grammar has loaded; null until then, and for code that stays plain (an
 * unknown language, too long, or a grammar that failed to load): the block shows its text meanwhile. The
 * highlighter itself (./highlight.ts) is imported on first use, so pages without code never load it.
 */
export function useHighlightedCode(syntax: string | undefined, code: string): ClassedToken[][] | null {
  const [result, setResult] = useState<{ syntax: string | undefined; code: string; lines: ClassedToken[][] | null } | null>(null);
  useEffect(() => {
    if (!syntax) return;
    let current = true;
    import('./highlight.ts')
      .then(async ({ highlightCode, tokenClasses }) => (await highlightCode(syntax, code))?.map((line) => line.map((token) => ({ text: token.text, className: tokenClasses(token) }))) ?? null)
      .then(
        (lines) => current && setResult({ syntax, code, lines }),
        () => current && setResult({ syntax, code, lines: null }),
      );
    return () => {
      current = false;
    };
  }, [syntax, code]);
  return result && result.syntax === syntax && result.code === code ? result.lines : null;
}
