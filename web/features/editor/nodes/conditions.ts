/*
 * The condition of GitBook's conditional content (`if`), as the editor shows and writes it. A condition is an
 * adaptive-content expression over the visitor's claims (src/features/adaptive/conditions.ts evaluates it); the
 * claims a site knows come from its adaptive schema. The common one, a claim compared with a value
 * (`visitor.claims.plan == "pro"`), is read and written as claim, operator and value; any other stays a raw
 * expression, shown and edited as it is.
 */

/** A claim of an adaptive schema: how a condition names it, and the values it takes. */
export interface Claim {
  /** `visitor.claims.plan`, `visitor.claims.unsigned.beta`. */
  path: string;
  type: 'boolean' | 'string' | 'number';
  /** The values a string claim takes, when its schema lists them. */
  options?: string[];
  description: string;
}

export type Operator = '==' | '!=';
export const OPERATORS: readonly { value: Operator; label: string }[] = [{ value: '==', label: 'is' }, { value: '!=', label: 'is not' }];

/** A claim compared with a value: the condition the claim picker writes. */
export interface Comparison {
  path: string;
  operator: Operator;
  value: boolean | string | number;
}

const ROOT = 'visitor.claims';
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The claims an adaptive schema describes (GitBook's shape: booleans, strings with or without a list of values,
 * numbers, nested objects such as `unsigned`), in the schema's order; arrays and anything else are left out
 * (a raw expression still reaches them).
 */
export function claimsOf(jsonSchema: unknown): Claim[] {
  const claims: Claim[] = [];
  const walk = (properties: unknown, path: string, depth: number) => {
    if (!isRecord(properties) || depth > 4) return;
    for (const [name, schema] of Object.entries(properties)) {
      if (!isRecord(schema) || !/^[A-Za-z_$][\w$]*$/.test(name)) continue;
      const description = typeof schema.description === 'string' ? schema.description : '';
      const at = `${path}.${name}`;
      if (schema.type === 'object') walk(schema.properties, at, depth + 1);
      else if (schema.type === 'boolean' || schema.type === 'number') claims.push({ path: at, type: schema.type, description });
      else if (schema.type === 'string') {
        const options = Array.isArray(schema.enum) ? schema.enum.filter((v): v is string => typeof v === 'string') : undefined;
        claims.push({ path: at, type: 'string', description, ...(options ? { options } : {}) });
      }
    }
  };
  if (isRecord(jsonSchema)) walk(jsonSchema.properties, ROOT, 0);
  return claims;
}

/** The claims of several sites' schemas, each path once (the first site's description wins). */
export function mergeClaims(lists: readonly Claim[][]): Claim[] {
  const byPath = new Map<string, Claim>();
  for (const claim of lists.flat()) if (!byPath.has(claim.path)) byPath.set(claim.path, claim);
  return [...byPath.values()];
}

const PATH = String.raw`visitor\.claims(?:\.[A-Za-z_$][\w$]*)+`;
const LITERAL = String.raw`true|false|-?\d+(?:\.\d+)?|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'`;
const COMPARED = new RegExp(String.raw`^\s*(${PATH})\s*(===?|!==?)\s*(${LITERAL})\s*$`);
const BARE = new RegExp(String.raw`^\s*(!?)\s*(${PATH})\s*$`);

function literal(text: string): boolean | string | number {
  if (text === 'true' || text === 'false') return text === 'true';
  if (text.startsWith("'")) return text.slice(1, -1).replace(/\\(.)/g, '$1');
  return JSON.parse(text) as string | number;
}

/** The comparison a condition is, if it is one (`a == 1`, `a !== "x"`, `a`, `!a`); null for anything else. */
export function comparisonOf(expression: string): Comparison | null {
  const compared = COMPARED.exec(expression);
  if (compared) return { path: compared[1]!, operator: compared[2]!.startsWith('!') ? '!=' : '==', value: literal(compared[3]!) };
  const bare = BARE.exec(expression);
  if (bare) return { path: bare[2]!, operator: '==', value: bare[1] !== '!' };
  return null;
}

/** A comparison as GitBook's templates write one: `visitor.claims.unsigned.beta == true`. */
export function writeComparison({ path, operator, value }: Comparison): string {
  return `${path} ${operator} ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`;
}

/** A value typed for a claim, as the claim's type holds it (a number claim's "3" is 3). */
export function valueFor(claim: Pick<Claim, 'type'> | undefined, text: string): boolean | string | number {
  if (claim?.type === 'boolean') return text === 'true';
  if (claim?.type === 'number' && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  return text;
}

/**
 * What a conditional block's header says after "Shown when:": the comparison in words (`plan is pro`,
 * `unsigned.beta is true`), the raw expression otherwise, or that there is none (every visitor sees it).
 */
export function describeCondition(expression: string): string {
  if (expression.trim() === '') return 'no condition (every visitor)';
  const comparison = comparisonOf(expression);
  if (!comparison) return expression.trim();
  const name = comparison.path.slice(ROOT.length + 1);
  return `${name} ${comparison.operator === '==' ? 'is' : 'is not'} ${String(comparison.value)}`;
}

/** The field of an `if` block's data that holds its condition: GitBook's `expression`, or an older export's `condition`. */
export function conditionField(data: Record<string, unknown> | undefined): 'expression' | 'condition' {
  return typeof data?.expression !== 'string' && typeof data?.condition === 'string' ? 'condition' : 'expression';
}
