/*
 * GitBook's `expression` inline shows a value of the space's or the page's variables where it stands
 * (`space.vars.version`, `page.vars["api-host"]`). GitBook evaluates any JavaScript expression there
 * (`@gitbook/expr`); what documents hold is a variable's path, and that is all this module reads: a path it
 * cannot follow has no value, and the caller shows the expression's own text instead.
 */

/** The variables an expression can name: the revision's (`space.vars`) and the page's (`page.vars`). */
export interface ExpressionVariables {
  space?: Readonly<Record<string, unknown>> | undefined;
  page?: Readonly<Record<string, unknown>> | undefined;
}

const PATH = /^\s*(space|page)\.vars(?:\.([A-Za-z_$][\w$]*)|\[\s*(?:"([^"\\]*)"|'([^'\\]*)')\s*\])\s*$/;

/** The variable's value as text, or null (not a path to a variable, no such variable, or a value that is not text). */
export function expressionValue(expression: unknown, variables: ExpressionVariables): string | null {
  if (typeof expression !== 'string' || expression.length > 1000) return null;
  const match = PATH.exec(expression);
  if (!match) return null;
  const scope = match[1] === 'space' ? variables.space : variables.page;
  const name = match[2] ?? match[3] ?? match[4] ?? '';
  // Own keys only: `space.vars.constructor` is no variable.
  if (!scope || !Object.prototype.hasOwnProperty.call(scope, name)) return null;
  const value = scope[name];
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : null;
}

/** What an expression shows: its variable's value, else the expression as written (GitBook's `{{…}}` on failure). */
export function expressionText(expression: unknown, variables: ExpressionVariables): string {
  return expressionValue(expression, variables) ?? `{{${typeof expression === 'string' ? expression.trim() : ''}}}`;
}
