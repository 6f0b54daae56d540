import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildReference } from '../../../../src/features/openapi-specs/reference.ts';
import { parseSpecText } from '../../../../src/features/openapi-specs/document.ts';
import { petstoreYaml } from '../../../../test/fixtures/openapi.ts';
import { dataPointingAt, filterOperations, newOperationBlock, operationLabel, pointerOf } from './openapi-operations.ts';

const reference = buildReference(parseSpecText(petstoreYaml()));

test('an operation block points at a spec by its slug, a method and a path, as GitBook writes it', () => {
  const block = newOperationBlock('petstore', { method: 'post', path: '/pets' });
  assert.deepEqual(block, { object: 'block', type: 'openapi-operation', isVoid: true, data: { ref: { kind: 'openapi', spec: 'petstore' }, method: 'post', path: '/pets' } });
  assert.deepEqual(pointerOf(block.data as Record<string, unknown>), { spec: 'petstore', method: 'post', path: '/pets' });
});

test('a block read in any case of method, or naming a URL instead of a spec, says what it points at', () => {
  assert.deepEqual(pointerOf({ ref: { kind: 'openapi', spec: 'a' }, method: 'GET', path: '/x' }), { spec: 'a', method: 'get', path: '/x' });
  assert.deepEqual(pointerOf({ ref: { kind: 'url', url: 'https://x' }, method: 'get', path: '/x' }), { spec: '', method: 'get', path: '/x' });
  assert.deepEqual(pointerOf(undefined), { spec: '', method: '', path: '' });
});

test('pointing a block at another operation keeps the rest of its data', () => {
  const data = { ref: { kind: 'openapi', spec: 'a' }, method: 'get', path: '/x', grouped: true };
  assert.deepEqual(dataPointingAt(data, 'b', { method: 'delete', path: '/y' }), { ref: { kind: 'openapi', spec: 'b' }, method: 'delete', path: '/y', grouped: true });
  assert.equal(data.path, '/x');
});

test('the picker lists every operation with its method, path and summary, and finds them by any of these', () => {
  const all = filterOperations(reference, '');
  assert.equal(all.length, reference.operations.length);
  assert.equal(operationLabel(all[0]!), 'GET /pets List pets');
  assert.deepEqual(filterOperations(reference, 'create pet').map((op) => `${op.method} ${op.path}`), ['post /pets']);
  assert.ok(filterOperations(reference, '/pets').every((op) => op.path.startsWith('/pets')));
  assert.equal(filterOperations(reference, 'post')[0]?.method, 'post');
  assert.deepEqual(filterOperations(reference, 'listPets').map((op) => op.operationId), ['listPets']);
  assert.deepEqual(filterOperations(reference, 'zzzz'), []);
});
