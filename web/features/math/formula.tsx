import { useMathMl } from './use-math-ml.ts';

/*
 * Math as the reader renders it (src/features/reader/render-inline.tsx and render-opaque-blocks.tsx): temml's
 * MathML in `math` (a block) or `math-inline`, and the source where the formula does not parse. While temml
 * loads, the source shows in the same place.
 */

/** A `math` block's formula. */
export function BlockFormula({ formula }: { formula: string }) {
  const mathml = useMathMl(formula, true);
  // temml's output is escaped MathML; the only HTML the app does not build itself.
  return mathml ? <div className="math" dangerouslySetInnerHTML={{ __html: mathml }} /> : <pre className="math-source"><code>{formula}</code></pre>;
}

/** An `inline-math` formula. */
export function InlineFormula({ formula }: { formula: string }) {
  const mathml = useMathMl(formula, false);
  return mathml ? <span className="math-inline" dangerouslySetInnerHTML={{ __html: mathml }} /> : <code>{formula}</code>;
}
