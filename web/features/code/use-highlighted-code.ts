import { useEffect, useState } from 'react';
import { highlightCode, type HighlightedLines } from './highlight.ts';

/**
 * The tokens of a code block once its grammar has loaded; null until then, and for code that stays plain
 * (an unknown language, too long, or a grammar that failed to load): the block shows its text meanwhile.
 */
export function useHighlightedCode(syntax: string | undefined, code: string): HighlightedLines | null {
  const [result, setResult] = useState<{ syntax: string | undefined; code: string; lines: HighlightedLines | null } | null>(null);
  useEffect(() => {
    let current = true;
    highlightCode(syntax, code).then(
      (lines) => current && setResult({ syntax, code, lines }),
      () => current && setResult({ syntax, code, lines: null }),
    );
    return () => {
      current = false;
    };
  }, [syntax, code]);
  return result && result.syntax === syntax && result.code === code ? result.lines : null;
}
