import temml from 'temml';

/**
 * A TeX formula as MathML, which browsers lay out natively (no script, no web font), or null when the formula
 * does not parse (the caller shows the source). temml escapes text and, with `trust` off, refuses \href and
 * other commands that would emit links or HTML.
 */
export function formulaToMathMl(formula: string, display: boolean): string | null {
  if (formula.length > 10_000) return null;
  try {
    return temml.renderToString(formula, { displayMode: display, throwOnError: true, trust: false, maxSize: [50, 50], maxExpand: 1000 });
  } catch {
    return null;
  }
}
