import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expressionText, expressionValue } from './expression-value.ts';

const variables = { space: { version: '2.1.0', count: 3, flag: true, nested: { a: 1 } }, page: { 'api-host': 'api.example.com' } };

test('a space variable named by its path shows its value', () => {
  assert.equal(expressionValue('space.vars.version', variables), '2.1.0');
  assert.equal(expressionValue(' space.vars.version ', variables), '2.1.0');
});

test('a page variable is read with brackets when its name is no identifier', () => {
  assert.equal(expressionValue('page.vars["api-host"]', variables), 'api.example.com');
  assert.equal(expressionValue("page.vars['api-host']", variables), 'api.example.com');
});

test('numbers and booleans show as text, objects have no value', () => {
  assert.equal(expressionValue('space.vars.count', variables), '3');
  assert.equal(expressionValue('space.vars.flag', variables), 'true');
  assert.equal(expressionValue('space.vars.nested', variables), null);
});

test('a missing variable, a missing scope or another expression has no value', () => {
  assert.equal(expressionValue('space.vars.missing', variables), null);
  assert.equal(expressionValue('page.vars.version', { space: variables.space }), null);
  assert.equal(expressionValue('space.vars.version + 1', variables), null);
  assert.equal(expressionValue('visitor.claims.name', variables), null);
  assert.equal(expressionValue(42, variables), null);
});

test('names of the machinery of objects are no variables', () => {
  assert.equal(expressionValue('space.vars.constructor', variables), null);
  assert.equal(expressionValue('space.vars.__proto__', variables), null);
  assert.equal(expressionValue('space.vars["toString"]', variables), null);
});

test('an expression without a value shows as written', () => {
  assert.equal(expressionText('space.vars.missing', variables), '{{space.vars.missing}}');
  assert.equal(expressionText('space.vars.version', variables), '2.1.0');
});
