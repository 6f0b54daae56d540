import { Ajv } from 'ajv';

/**
 * A site's adaptive schema: the JSON Schema (draft-07) of the claims its visitors carry, which decides what
 * conditions can test. The seed narrows GitBook's shape (which also allows strings, numbers, enums, arrays
 * and nested objects) to booleans: every claim is `{ type: 'boolean', description }`, and the property
 * `unsigned` holds the claims that come unsigned from the URL (`visitor.*` query parameters), themselves
 * booleans. Claim names must be JavaScript names, so that each one can be written in a condition as
 * `visitor.claims.<name>`.
 */
export interface BooleanClaim {
  type: 'boolean';
  description: string;
}

export interface UnsignedClaims {
  type: 'object';
  description: typeof UNSIGNED_DESCRIPTION;
  properties: Record<string, BooleanClaim>;
  additionalProperties: false;
}

export type JsonSchemaObject = {
  $schema?: typeof DRAFT_07;
  /** Named by the seed; the official 0.143.2 response schema has no `$id`, so the default leaves it out. */
  $id?: string;
  type: 'object';
  properties: Record<string, BooleanClaim | UnsignedClaims> & { unsigned?: UnsignedClaims };
  additionalProperties: false;
};

export type SchemaCheck = { ok: true } | { ok: false; message: string };

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
/** The official spec allows exactly this text (an enum of one). */
const UNSIGNED_DESCRIPTION = 'Unsigned claims of the site visitor.';
/** Bounds that keep a schema (and its template conditions) a sensible size. */
export const MAX_CLAIMS = 100;
export const MAX_DESCRIPTION_LENGTH = 256;
const CLAIM_NAME = /^[A-Za-z_$][A-Za-z0-9_$]{0,63}$/;
const RESERVED_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

// Draft-07 is Ajv's default meta-schema; the seed's rules below are stricter, Ajv is the backstop that the
// result is a JSON Schema any tool can read.
const ajv = new Ajv({ strict: false });

class SchemaError extends Error {}

/**
 * Whether `jsonSchema` is an adaptive schema the server accepts. `field` names the input in the message
 * (`body/jsonSchema/properties/x: must be a boolean property with a description`).
 */
export function checkAdaptiveSchema(jsonSchema: unknown, field = 'jsonSchema'): SchemaCheck {
  try {
    checkRoot(jsonSchema, field);
    if (!ajv.validateSchema(jsonSchema as object)) {
      const first = ajv.errors?.[0];
      throw new SchemaError(`${field}${first?.instancePath ?? ''}: ${first?.message ?? 'is not a draft-07 JSON Schema'}`);
    }
    return { ok: true };
  } catch (error) {
    if (error instanceof SchemaError) return { ok: false, message: error.message };
    throw error;
  }
}

/** What a site starts with: no signed claims, an empty set of unsigned ones. */
export function defaultAdaptiveSchema(): JsonSchemaObject {
  return {
    $schema: DRAFT_07,
    type: 'object',
    properties: {
      unsigned: { type: 'object', description: UNSIGNED_DESCRIPTION, properties: {}, additionalProperties: false },
    },
    additionalProperties: false,
  };
}

/**
 * One suggested condition per claim, in the schema's order: signed claims read `visitor.claims.<name>`,
 * unsigned ones `visitor.claims.unsigned.<name>`; each is described by its claim's description.
 */
export function templateConditions(jsonSchema: JsonSchemaObject): { description: string; condition: string }[] {
  const templates: { description: string; condition: string }[] = [];
  for (const [name, claim] of Object.entries(jsonSchema.properties)) {
    if (name === 'unsigned' || claim.type !== 'boolean') continue;
    templates.push({ description: claim.description, condition: `visitor.claims.${name} == true` });
  }
  for (const [name, claim] of Object.entries(jsonSchema.properties.unsigned?.properties ?? {})) {
    if (claim.type !== 'boolean') continue;
    templates.push({ description: claim.description, condition: `visitor.claims.unsigned.${name} == true` });
  }
  return templates;
}

function checkRoot(value: unknown, field: string): void {
  if (!isRecord(value)) throw new SchemaError(`${field}: must be a JSON Schema object`);
  onlyKeys(value, ['$schema', '$id', 'type', 'properties', 'additionalProperties'], field);
  if (value.$schema !== undefined && value.$schema !== DRAFT_07) throw new SchemaError(`${field}/$schema: must be "${DRAFT_07}"`);
  if (value.$id !== undefined && (typeof value.$id !== 'string' || value.$id.length > 2048)) {
    throw new SchemaError(`${field}/$id: must be a string (a URI of at most 2048 characters)`);
  }
  if (value.type !== 'object') throw new SchemaError(`${field}/type: must be "object"`);
  if (value.additionalProperties !== false) throw new SchemaError(`${field}/additionalProperties: must be false`);
  const properties = value.properties;
  if (!isRecord(properties)) throw new SchemaError(`${field}/properties: must be an object of claims`);
  let count = 0;
  for (const [name, claim] of Object.entries(properties)) {
    const path = `${field}/properties/${name}`;
    if (name === 'unsigned') {
      count += checkUnsigned(claim, path);
      continue;
    }
    checkBooleanClaim(name, claim, path);
    count += 1;
  }
  if (count > MAX_CLAIMS) throw new SchemaError(`${field}/properties: has ${count} claims; at most ${MAX_CLAIMS} are allowed`);
}

function checkUnsigned(value: unknown, path: string): number {
  const shape = `must be { type: "object", description: "${UNSIGNED_DESCRIPTION}", properties, additionalProperties: false }`;
  if (!isRecord(value)) throw new SchemaError(`${path}: ${shape}`);
  onlyKeys(value, ['type', 'description', 'properties', 'additionalProperties'], path);
  if (value.type !== 'object') throw new SchemaError(`${path}/type: must be "object"`);
  if (value.description !== UNSIGNED_DESCRIPTION) throw new SchemaError(`${path}/description: must be "${UNSIGNED_DESCRIPTION}"`);
  if (value.additionalProperties !== false) throw new SchemaError(`${path}/additionalProperties: must be false`);
  if (!isRecord(value.properties)) throw new SchemaError(`${path}/properties: must be an object of boolean claims`);
  const entries = Object.entries(value.properties);
  for (const [name, claim] of entries) checkBooleanClaim(name, claim, `${path}/properties/${name}`);
  return entries.length;
}

function checkBooleanClaim(name: string, claim: unknown, path: string): void {
  if (!CLAIM_NAME.test(name) || RESERVED_NAMES.has(name)) {
    throw new SchemaError(`${path}: a claim name must be a JavaScript name of at most 64 characters (letters, digits, _ and $), usable as visitor.claims.${name}`);
  }
  const shape = `must be a boolean property with a description ({ type: "boolean", description })`;
  if (!isRecord(claim) || claim.type !== 'boolean' || typeof claim.description !== 'string') throw new SchemaError(`${path}: ${shape}`);
  onlyKeys(claim, ['type', 'description'], path);
  if (claim.description.trim() === '' || claim.description.length > MAX_DESCRIPTION_LENGTH) {
    throw new SchemaError(`${path}/description: must be 1 to ${MAX_DESCRIPTION_LENGTH} characters`);
  }
}

function onlyKeys(value: Record<string, unknown>, allowed: string[], path: string): void {
  const extra = Object.keys(value).find((key) => !allowed.includes(key));
  if (extra !== undefined) throw new SchemaError(`${path}: unknown keyword "${extra}"; allowed: ${allowed.join(', ')}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
