import { createContext, useContext } from 'react';
import type { Revision } from '../../api/types.ts';
import { expressionText, type ExpressionVariables } from '../../../src/features/reader/expression-value.ts';
import type { TreePage } from './page-tree.ts';

/*
 * The variables `expression` inlines show (the revision's `variables`, the page's): the screen that shows a page
 * (the page view, the editor) provides them; elsewhere an expression shows as written.
 */
export const VariablesContext = createContext<ExpressionVariables>({});

/** What an `expression` inline shows where it is drawn. */
export function useExpressionText(expression: unknown): string {
  return expressionText(expression, useContext(VariablesContext));
}

/**
 * The variables a page's expressions read in a revision: the revision's, and the page's own in that revision's tree
 * (a page as it was, a change request's version, each side of a diff shows the values of its own revision).
 */
export function revisionVariables(revision: Revision | undefined, pageId: string): ExpressionVariables {
  if (!revision) return {};
  const find = (pages: readonly TreePage[] | undefined): TreePage | undefined => {
    for (const page of pages ?? []) {
      if (page.id === pageId) return page;
      const inside = find(page.pages);
      if (inside) return inside;
    }
    return undefined;
  };
  const space = (revision as { variables?: Record<string, unknown> }).variables;
  return { space, page: find((revision as { pages?: unknown }).pages as TreePage[] | undefined)?.variables };
}
