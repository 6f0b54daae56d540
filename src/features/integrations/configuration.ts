/**
 * A configuration checked against the manifest's schema for it (`configurations.account`, `.space`, `.site`):
 * the JSON-schema-like object GitBook's manifests use — `properties` with a `type` (string, number, integer,
 * boolean, array, object) and optional `enum`, and `required`. A ContentKit component (`componentId`) renders
 * its own form and has no schema to check against. Pure: answers the first problem, worded with the field.
 */
export function configurationProblem(schema: unknown, configuration: Record<string, unknown>, field: string): string | null {
  if (!isObject(schema) || !isObject(schema.properties)) return null;
  const properties = schema.properties;
  const required = Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : [];
  for (const name of required) {
    if (configuration[name] === undefined || configuration[name] === null) return `${field}/${name} is required`;
  }
  for (const [name, value] of Object.entries(configuration)) {
    const property = properties[name];
    // Keys the schema does not name are kept: integrations store their own state (tokens, ids) there too.
    if (!isObject(property) || value === undefined || value === null) continue;
    const problem = valueProblem(property, value);
    if (problem) return `${field}/${name} ${problem}`;
  }
  return null;
}

/** Whether every required key of the schema has a value (an installation without one is `pending`). */
export function isConfigurationComplete(schema: unknown, configuration: Record<string, unknown>): boolean {
  if (!isObject(schema) || !Array.isArray(schema.required)) return true;
  return schema.required.every((name) => typeof name !== 'string' || (configuration[name] !== undefined && configuration[name] !== null));
}

function valueProblem(property: Record<string, unknown>, value: unknown): string | null {
  const type = property.type;
  if (typeof type === 'string' && !hasType(type, value)) return `must be ${type === 'array' || type === 'object' || type === 'integer' ? `an ${type}` : `a ${type}`}`;
  if (Array.isArray(property.enum) && !property.enum.some((allowed) => allowed === value)) {
    return `must be one of ${property.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  return null;
}

function hasType(type: string, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    default:
      return true;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
