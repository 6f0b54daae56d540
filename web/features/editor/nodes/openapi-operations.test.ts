import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildReference } from '../../../../src/features/openapi-specs/reference.ts';
import { parseSpecText } from '../../../../src/features/openapi-specs/document.ts';
import { petstoreYaml, webhooksJson } from '../../../../test/fixtures/openapi.ts';
import {
  blockDataPointingAt, blockPointerOf, dataPointingAt, filterOperations, newOperationBlock, newWebhookBlock, operationLabel, pointerOf, sourceKey, specSlugForUrl,
} from './openapi-operations.ts';

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

test('a swagger block points at its spec by address, a webhook block by slug and name; each keyed as the reader keys them', () => {
  const swagger = blockPointerOf('swagger', { ref: { kind: 'url', url: 'https://x/openapi.json' }, method: 'POST', path: '/pet', expanded: true });
  assert.deepEqual(swagger, { kind: 'operation', source: { url: 'https://x/openapi.json' }, method: 'post', path: '/pet' });
  assert.equal(sourceKey(swagger.source), 'url:https://x/openapi.json');
  const webhook = blockPointerOf('openapi-webhook', { ref: { kind: 'openapi', spec: 'events' }, name: 'newPet', method: 'post' });
  assert.deepEqual(webhook, { kind: 'webhook', source: { spec: 'events' }, method: 'post', path: 'newPet' });
  assert.equal(sourceKey(webhook.source), 'spec:events');
  const file = blockPointerOf('swagger', { ref: { kind: 'file', file: 'f1' }, method: 'get', path: '/a' });
  assert.deepEqual(file.source, { file: 'f1' });
  assert.equal(sourceKey(file.source), null, 'a spec file of the space is not read');
  assert.equal(blockPointerOf('swagger', {}).source, null);
});

test('pointing a swagger block at another operation keeps its address; a webhook block names the webhook', () => {
  const data = { ref: { kind: 'url', url: 'https://x' }, method: 'post', path: '/pet', expanded: true };
  assert.deepEqual(blockDataPointingAt('swagger', data, '', { method: 'get', path: '/pet/{id}' }), { ref: { kind: 'url', url: 'https://x' }, method: 'get', path: '/pet/{id}', expanded: true });
  assert.deepEqual(blockDataPointingAt('openapi-operation', {}, 'a', { method: 'get', path: '/x' }), { ref: { kind: 'openapi', spec: 'a' }, method: 'get', path: '/x' });
  assert.deepEqual(newWebhookBlock('events', { method: 'post', path: 'petAdopted' }), {
    object: 'block', type: 'openapi-webhook', isVoid: true, data: { ref: { kind: 'openapi', spec: 'events' }, name: 'petAdopted', method: 'post' },
  });
});

test('the webhook picker lists the spec\'s webhooks, found by name or summary', () => {
  const events = buildReference(parseSpecText(webhooksJson()));
  assert.deepEqual(filterOperations(events, '', 'webhook').map((op) => op.path), ['newPet', 'petAdopted']);
  assert.deepEqual(filterOperations(events, 'adopted', 'webhook').map((op) => op.path), ['petAdopted']);
  assert.deepEqual(filterOperations(reference, '', 'webhook'), [], 'a spec without webhooks has none to pick');
});

test('a spec added from a block\'s address is named by the address\'s host and path, as the API wants a slug', () => {
  assert.equal(specSlugForUrl('https://petstore3.swagger.io/api/v3/openapi.json'), 'petstore3-swagger-io-api-v3-openapi-json');
  assert.equal(specSlugForUrl('http://127.0.0.1:4000/Specs/API_v2.yaml?token=x'), '127-0-0-1-specs-api-v2-yaml');
  assert.match(specSlugForUrl(`https://example.com/${'a-'.repeat(80)}`), /^[a-z0-9]+(?:-[a-z0-9]+)*$/);
  assert.ok(specSlugForUrl(`https://example.com/${'a-'.repeat(80)}`).length <= 100);
  assert.equal(specSlugForUrl('!!!'), 'openapi');
});
