/*
 * The fields of a configuration schema (GitBook's JSON-schema-like `configurations.account|space|site`): what the
 * form shows and how a typed value goes back. Pure; arrays and objects are left to the integration's own UI.
 */
export interface ConfigurationField {
  name: string;
  title: string;
  description?: string;
  type: 'string' | 'number' | 'integer' | 'boolean';
  choices?: string[];
  required: boolean;
}

export function configurationFields(schema: Record<string, unknown>): ConfigurationField[] {
  const properties = schema.properties && typeof schema.properties === 'object' ? (schema.properties as Record<string, Record<string, unknown>>) : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  const fields: ConfigurationField[] = [];
  for (const [name, property] of Object.entries(properties)) {
    const type = property?.type;
    if (type !== 'string' && type !== 'number' && type !== 'integer' && type !== 'boolean') continue;
    fields.push({
      name,
      title: typeof property.title === 'string' ? property.title : name,
      ...(typeof property.description === 'string' ? { description: property.description } : {}),
      type,
      ...(Array.isArray(property.enum) ? { choices: property.enum.map(String) } : {}),
      required: required.includes(name),
    });
  }
  return fields;
}

/** The typed value of what was entered; undefined for an empty field (the key is left out). */
export function valueOfField(field: ConfigurationField, entered: string | boolean): unknown {
  if (field.type === 'boolean') return entered === true;
  const text = String(entered).trim();
  if (text === '') return undefined;
  if (field.type === 'string') return text;
  const number = Number(text);
  return Number.isFinite(number) ? number : text;
}
