import { test } from 'node:test';
import assert from 'node:assert/strict';
import { configurationProblem, isConfigurationComplete } from './configuration.ts';

const schema = {
  properties: {
    channel: { type: 'string' },
    retries: { type: 'integer' },
    notify: { type: 'boolean' },
    level: { type: 'string', enum: ['low', 'high'] },
    tags: { type: 'array' },
  },
  required: ['channel'],
};

test('a configuration that fits its schema has no problem', () => {
  assert.equal(configurationProblem(schema, { channel: '#docs', retries: 3, notify: true, level: 'high', tags: ['a'] }, 'body/configuration'), null);
});

test('a missing required key is named', () => {
  assert.equal(configurationProblem(schema, { retries: 1 }, 'body/configuration'), 'body/configuration/channel is required');
});

test('a value of the wrong type is named with the type', () => {
  assert.equal(configurationProblem(schema, { channel: 4 }, 'body/configuration'), 'body/configuration/channel must be a string');
  assert.equal(configurationProblem(schema, { channel: 'x', retries: 1.5 }, 'c'), 'c/retries must be an integer');
  assert.equal(configurationProblem(schema, { channel: 'x', notify: 'yes' }, 'c'), 'c/notify must be a boolean');
  assert.equal(configurationProblem(schema, { channel: 'x', tags: 'a' }, 'c'), 'c/tags must be an array');
});

test('a value outside its enum is refused with the allowed values', () => {
  assert.equal(configurationProblem(schema, { channel: 'x', level: 'mid' }, 'c'), 'c/level must be one of "low", "high"');
});

test('keys the schema does not name are kept, and a component configuration has no schema to check', () => {
  assert.equal(configurationProblem(schema, { channel: 'x', state: { any: 1 } }, 'c'), null);
  assert.equal(configurationProblem({ componentId: 'config' }, { anything: 1 }, 'c'), null);
  assert.equal(configurationProblem(undefined, { anything: 1 }, 'c'), null);
});

test('completeness follows the required keys', () => {
  assert.equal(isConfigurationComplete(schema, {}), false);
  assert.equal(isConfigurationComplete(schema, { channel: 'x' }), true);
  assert.equal(isConfigurationComplete(undefined, {}), true);
});
