import { test } from 'node:test';
import assert from 'node:assert/strict';
import { configurationFields, valueOfField } from './schema-fields.ts';

test("a configuration schema's simple properties become fields, with choices and what is required", () => {
  const fields = configurationFields({
    properties: { channel: { type: 'string', title: 'Channel', enum: ['docs', 'dev'] }, retries: { type: 'integer' }, notify: { type: 'boolean' }, extra: { type: 'object' } },
    required: ['channel'],
  });
  assert.deepEqual(fields.map((f) => [f.name, f.title, f.type, f.required]), [['channel', 'Channel', 'string', true], ['retries', 'retries', 'integer', false], ['notify', 'notify', 'boolean', false]]);
  assert.deepEqual(fields[0]!.choices, ['docs', 'dev']);
});

test('entered text becomes the typed value; an empty field is left out', () => {
  const [channel, retries, notify] = configurationFields({ properties: { channel: { type: 'string' }, retries: { type: 'integer' }, notify: { type: 'boolean' } } });
  assert.equal(valueOfField(channel!, ' docs '), 'docs');
  assert.equal(valueOfField(channel!, ''), undefined);
  assert.equal(valueOfField(retries!, '3'), 3);
  assert.equal(valueOfField(retries!, 'three'), 'three', 'the server names the field that is not a number');
  assert.equal(valueOfField(notify!, true), true);
});
