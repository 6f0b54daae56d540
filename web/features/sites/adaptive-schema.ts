/**
 * What is wrong with an adaptive content schema typed as JSON, before it is sent: a visitor's claims are an
 * object, so the schema must be a JSON object describing one (`type: "object"`). The server checks the rest.
 */
export function schemaProblem(text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `JSON schema: not valid JSON (${(error as Error).message})`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'JSON schema: must be a JSON object';
  const type = (value as { type?: unknown }).type;
  if (type !== undefined && type !== 'object') return 'JSON schema: its type must be "object" (the claims of a visitor)';
  return undefined;
}
