import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { openApiToJsonSchema } from '../../../test/e2e/spec-validator.ts';
import { checkAdaptiveSchema, defaultAdaptiveSchema, MAX_CLAIMS, templateConditions, type JsonSchemaObject } from './schema.ts';
import { checkCondition } from './conditions.ts';

/** The official 0.143.2 schema of an adaptive jsonSchema, as the e2e suite reads the spec. */
function officialValidator(name: string) {
  const file = createRequire(import.meta.url).resolve('@gitbook/api/spec/openapi.json');
  const document = openApiToJsonSchema(JSON.parse(readFileSync(file, 'utf8'))) as Record<string, unknown>;
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addSchema({ ...document, $id: 'spec' });
  return ajv.compile({ $ref: `spec#/components/schemas/${name}` });
}

const UNSIGNED = 'Unsigned claims of the site visitor.';

function schemaWith(properties: Record<string, unknown>, unsigned: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: { ...properties, unsigned: { type: 'object', description: UNSIGNED, properties: unsigned, additionalProperties: false } },
    additionalProperties: false,
  };
}

function refused(value: unknown): string {
  const result = checkAdaptiveSchema(value, 'body/jsonSchema');
  assert.equal(result.ok, false, `expected ${JSON.stringify(value)} to be refused`);
  return (result as { message: string }).message;
}

describe('checkAdaptiveSchema', () => {
  it('accepts boolean claims, signed and unsigned, and the default schema', () => {
    assert.deepEqual(checkAdaptiveSchema(defaultAdaptiveSchema()), { ok: true });
    const schema = schemaWith({ isAdmin: { type: 'boolean', description: 'Admins' } }, { isBetaUser: { type: 'boolean', description: 'Beta users' } });
    assert.deepEqual(checkAdaptiveSchema(schema), { ok: true });
    assert.deepEqual(checkAdaptiveSchema({ ...schema, $id: 'https://docs.example.com/visitor.json' }), { ok: true });
    const { unsigned: _unsigned, ...signedOnly } = schema.properties as Record<string, unknown>;
    assert.deepEqual(checkAdaptiveSchema({ type: 'object', properties: signedOnly, additionalProperties: false }), { ok: true });
  });

  it('is valid for the official spec whenever it accepts (without $id)', () => {
    const official = officialValidator('SiteAdaptiveJSONSchema');
    const schema = schemaWith({ isAdmin: { type: 'boolean', description: 'Admins' } }, { isBetaUser: { type: 'boolean', description: 'Beta users' } });
    assert.equal(official(defaultAdaptiveSchema()), true, JSON.stringify(official.errors));
    assert.equal(official(schema), true, JSON.stringify(official.errors));
  });

  it('names the claim that is not a boolean with a description', () => {
    assert.equal(
      refused(schemaWith({ x: { type: 'string', description: 'X' } })),
      'body/jsonSchema/properties/x: must be a boolean property with a description ({ type: "boolean", description })',
    );
    assert.match(refused(schemaWith({ x: { type: 'boolean' } })), /^body\/jsonSchema\/properties\/x: must be a boolean property/);
    assert.match(refused(schemaWith({ x: true })), /^body\/jsonSchema\/properties\/x: must be a boolean/);
    assert.match(refused(schemaWith({}, { y: { type: 'number', description: 'Y' } })), /^body\/jsonSchema\/properties\/unsigned\/properties\/y: must be a boolean/);
    assert.match(refused(schemaWith({ x: { type: 'boolean', description: 'X', default: true } })), /^body\/jsonSchema\/properties\/x: unknown keyword "default"/);
    assert.match(refused(schemaWith({ x: { type: 'boolean', description: ' ' } })), /properties\/x\/description: must be 1 to 256/);
  });

  it('refuses claim names a condition cannot write', () => {
    assert.match(refused(schemaWith({ 'is-admin': { type: 'boolean', description: 'A' } })), /properties\/is-admin: a claim name must be a JavaScript name/);
    assert.match(refused(schemaWith({ '1x': { type: 'boolean', description: 'A' } })), /JavaScript name/);
    assert.match(refused(JSON.parse(`{"type":"object","additionalProperties":false,"properties":{"__proto__":{"type":"boolean","description":"A"}}}`)), /properties\/__proto__/);
    assert.match(refused(schemaWith({ constructor: { type: 'boolean', description: 'A' } })), /properties\/constructor/);
  });

  it('requires the root shape of the seed', () => {
    assert.equal(refused('nope'), 'body/jsonSchema: must be a JSON Schema object');
    assert.equal(refused([]), 'body/jsonSchema: must be a JSON Schema object');
    assert.equal(refused({ ...schemaWith({}), type: 'array' }), 'body/jsonSchema/type: must be "object"');
    assert.equal(refused({ ...schemaWith({}), additionalProperties: true }), 'body/jsonSchema/additionalProperties: must be false');
    assert.equal(refused({ type: 'object', additionalProperties: false }), 'body/jsonSchema/properties: must be an object of claims');
    assert.match(refused({ ...schemaWith({}), $schema: 'https://json-schema.org/draft/2020-12/schema' }), /^body\/jsonSchema\/\$schema: must be "http:\/\/json-schema.org\/draft-07\/schema#"/);
    assert.match(refused({ ...schemaWith({}), required: ['x'] }), /^body\/jsonSchema: unknown keyword "required"/);
    assert.match(refused({ ...schemaWith({}), $id: 5 }), /^body\/jsonSchema\/\$id: must be a string/);
  });

  it('requires unsigned to be the object of unsigned claims', () => {
    const base = schemaWith({});
    const withUnsigned = (unsigned: unknown) => ({ ...base, properties: { unsigned } });
    assert.match(refused(withUnsigned({ type: 'boolean', description: 'U' })), /^body\/jsonSchema\/properties\/unsigned: unknown keyword|^body\/jsonSchema\/properties\/unsigned\/type: must be "object"/);
    assert.equal(
      refused(withUnsigned({ type: 'object', description: 'Other', properties: {}, additionalProperties: false })),
      'body/jsonSchema/properties/unsigned/description: must be "Unsigned claims of the site visitor."',
    );
    assert.equal(
      refused(withUnsigned({ type: 'object', description: UNSIGNED, properties: {}, additionalProperties: true })),
      'body/jsonSchema/properties/unsigned/additionalProperties: must be false',
    );
    assert.match(refused(withUnsigned({ type: 'object', description: UNSIGNED, additionalProperties: false })), /unsigned\/properties: must be an object/);
  });

  it('bounds the number of claims', () => {
    const many = Object.fromEntries(Array.from({ length: MAX_CLAIMS + 1 }, (_, i) => [`c${i}`, { type: 'boolean', description: `C${i}` }]));
    assert.match(refused(schemaWith(many)), /has 101 claims; at most 100/);
  });

  it('uses the field name it is given, jsonSchema by default', () => {
    assert.deepEqual(checkAdaptiveSchema(null), { ok: false, message: 'jsonSchema: must be a JSON Schema object' });
  });
});

describe('templateConditions', () => {
  it('suggests one condition per claim, signed then unsigned', () => {
    const schema = schemaWith(
      { isAdmin: { type: 'boolean', description: 'Admins' } },
      { isBetaUser: { type: 'boolean', description: 'Beta users' }, fromAds: { type: 'boolean', description: 'Came from an ad' } },
    ) as JsonSchemaObject;
    assert.deepEqual(templateConditions(schema), [
      { description: 'Admins', condition: 'visitor.claims.isAdmin == true' },
      { description: 'Beta users', condition: 'visitor.claims.unsigned.isBetaUser == true' },
      { description: 'Came from an ad', condition: 'visitor.claims.unsigned.fromAds == true' },
    ]);
  });

  it('suggests nothing for the default schema', () => {
    assert.deepEqual(templateConditions(defaultAdaptiveSchema()), []);
  });

  it('suggests conditions that pass checkCondition', () => {
    const schema = schemaWith({ a_1$: { type: 'boolean', description: 'A' } }, { B: { type: 'boolean', description: 'B' } }) as JsonSchemaObject;
    for (const { condition } of templateConditions(schema)) assert.deepEqual(checkCondition(condition), { ok: true }, condition);
  });
});
