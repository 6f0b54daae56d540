import { createContext, useContext } from 'react';
import { expressionText, type ExpressionVariables } from '../../../src/features/reader/expression-value.ts';

/*
 * The variables `expression` inlines show (the revision's `variables`, the page's): the screen that shows a page
 * (the page view, the editor) provides them; elsewhere an expression shows as written.
 */
export const VariablesContext = createContext<ExpressionVariables>({});

/** What an `expression` inline shows where it is drawn. */
export function useExpressionText(expression: unknown): string {
  return expressionText(expression, useContext(VariablesContext));
}
