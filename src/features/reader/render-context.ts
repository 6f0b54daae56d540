import type { Heading } from '../content/document/types.ts';
import type { LinkResolver } from './link-resolver.ts';
import type { ApiReference } from '../openapi-specs/reference.ts';
import type { HighlightBudget } from './highlight-budget.ts';
import type { ExpressionVariables } from './expression-value.ts';

export interface RenderOptions {
  /** `customization.externalLinks.target`: `blank` opens links to other hosts in a new tab. */
  externalLinks?: 'self' | 'blank';
  /**
   * Decides an adaptive `if` block's condition for this visitor. Without it, conditional content is left
   * out: content meant for some visitors must not leak to all.
   */
  evaluateCondition?: (condition: string) => boolean;
  /** Prefix of generated element ids (tabs), when several documents share one HTML page. */
  idPrefix?: string;
  /**
   * The API references of the OpenAPI specs the document's blocks name, by `spec:<slug>` or `url:<source URL>`
   * (render-openapi.tsx `openapiRefsOf`); blocks naming another render as unavailable.
   */
  openapi?: ReadonlyMap<string, ApiReference>;
  /**
   * Bounds the time spent tokenizing code not highlighted before (a served page); without it, all code is
   * highlighted whatever it costs.
   */
  highlighting?: HighlightBudget;
  /** The revision's and the page's variables, which `expression` inlines show; without them, expressions show nothing. */
  variables?: ExpressionVariables;
}

/** What every block and inline renderer needs, built once per document. */
export interface RenderContext {
  links: LinkResolver;
  options: RenderOptions;
  anchors: Map<Heading, string>;
  /** A fresh element id, unique in the document. */
  nextId(kind: string): string;
  /** Inside a link (a card that links somewhere): a link in it is invalid HTML, so links show their text only. */
  inLink?: boolean;
}

export function createContext(links: LinkResolver, options: RenderOptions, anchors: Map<Heading, string>): RenderContext {
  let counter = 0;
  const prefix = options.idPrefix ?? 'q';
  return { links, options, anchors, nextId: (kind) => `${prefix}-${kind}-${++counter}` };
}
