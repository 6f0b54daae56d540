import assert from 'node:assert/strict';
import { test } from 'node:test';
import { schemaProblem } from './adaptive-schema.ts';

test('an adaptive schema must be a JSON object schema', () => {
  assert.equal(schemaProblem('{"type":"object","properties":{"plan":{"type":"string"}}}'), undefined);
  assert.match(schemaProblem('{"type":') ?? '', /^JSON schema: not valid JSON/);
  assert.equal(schemaProblem('[1]'), 'JSON schema: must be a JSON object');
  assert.equal(schemaProblem('{"type":"string"}'), 'JSON schema: its type must be "object" (the claims of a visitor)');
});
