// @sqlite-run-only: OpenAPI documents read into references; no database.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InvalidSpecError, parseSpecText, validateSpec } from './document.ts';
import { buildReference, exampleFor, findOperation, findWebhook, lookupOf } from './reference.ts';
import { petstoreYaml, swaggerJson, treeJson, webhooksJson } from '../../../test/fixtures/openapi.ts';

const openapi = (paths: Record<string, unknown>, components: Record<string, unknown> = {}) => ({ openapi: '3.0.3', info: { title: 'T', version: '1' }, paths, components });

async function problemsOf(text: string): Promise<string[]> {
  try {
    await validateSpec(parseSpecText(text));
    return [];
  } catch (error) {
    assert.ok(error instanceof InvalidSpecError, String(error));
    return error.problems.map((p) => p.message);
  }
}

describe('reading an OpenAPI document', () => {
  test('JSON and YAML of OpenAPI 3.0, 3.1 and Swagger 2.0 parse and validate', async () => {
    for (const text of [petstoreYaml(), swaggerJson(), treeJson(), `\n  ${treeJson()}`]) assert.deepEqual(await problemsOf(text), []);
  });

  test('what is not an OpenAPI document is refused with the reason', async () => {
    assert.match((await problemsOf('{ "openapi": '))[0]!, /neither valid JSON nor valid YAML/);
    assert.match((await problemsOf('- a\n- b\n'))[0]!, /not an object/);
    assert.match((await problemsOf('title: x\n'))[0]!, /neither an "openapi" nor a "swagger"/);
    assert.match((await problemsOf('openapi: 4.0.0\n'))[0]!, /"4.0.0" is not supported/);
    assert.match((await problemsOf('openapi: 3.0.0\ninfo: { title: x }\npaths: {}\n'))[0]!, /version/);
  });

  test('a YAML document made of nested aliases is refused instead of expanding', async () => {
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 0; i < 9; i += 1) lines.push(`${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)}]`);
    const started = Date.now();
    assert.match((await problemsOf(`openapi: 3.0.0\n${lines.join('\n')}\n`))[0]!, /neither valid JSON nor valid YAML|alias/i);
    assert.ok(Date.now() - started < 2000);
  });

  test('external references are never followed: no file is read, no host is asked', async () => {
    const text = JSON.stringify(
      openapi(
        { '/a': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/A' } } } } } } } },
        { schemas: { A: { type: 'object', properties: { secret: { $ref: '/etc/passwd' }, remote: { $ref: 'http://127.0.0.1:9/x.json#/X' } } } } },
      ),
    );
    assert.deepEqual(await problemsOf(text), []);
    const reference = buildReference(parseSpecText(text));
    assert.deepEqual(findOperation(reference, '/a', 'GET')!.responses[0]!.schema, { name: 'A', ref: 'A' });
    const schema = lookupOf(reference)('A')!;
    assert.deepEqual(schema.properties!.map((p) => [p.name, p.schema]), [
      ['secret', { name: 'passwd' }],
      ['remote', { name: 'X' }],
    ]);
  });

  test('many problems are cut to twenty, and the rest counted', async () => {
    const paths: Record<string, unknown> = {};
    for (let i = 0; i < 40; i += 1) paths[`/p${i}`] = { get: { operationId: 'same', responses: { '200': { description: 'ok' } } } };
    const problems = await problemsOf(JSON.stringify(openapi(paths)));
    assert.ok(problems.length >= 1 && problems.length <= 21, String(problems.length));
  });
});

describe('the reference of a spec', () => {
  test('operations in document order, methods in the usual order, path parameters merged with the operation’s', () => {
    const reference = buildReference(parseSpecText(petstoreYaml()));
    assert.equal(reference.title, 'Petstore');
    assert.deepEqual(reference.servers, ['https://eu.petstore.example.com/v1']);
    assert.deepEqual(
      reference.operations.map((o) => `${o.method} ${o.path}`),
      ['get /pets', 'post /pets', 'get /pets/{petId}', 'delete /pets/{petId}'],
    );
    const show = findOperation(reference, '/pets/{petId}', 'GET')!;
    assert.deepEqual(show.parameters.map((p) => [p.in, p.name, p.required]), [
      ['path', 'petId', true],
      ['header', 'X-Request-Id', false],
    ]);
    assert.deepEqual(show.security, [{ name: 'bearerAuth', kind: 'bearer' }]);
    assert.equal(findOperation(reference, '/pets/{petId}', 'delete')!.deprecated, true);
    assert.deepEqual(show.responses[0]!.example, { id: 7, name: 'Rex', tag: 'dog' });
  });

  test('allOf merges properties and their required lists; a reference back into itself is cut', () => {
    const reference = buildReference(parseSpecText(petstoreYaml()));
    const pet = reference.schemas.find((s) => s.name === 'Pet')!.schema;
    assert.deepEqual(pet.properties!.map((p) => [p.name, p.required]), [
      ['name', true],
      ['tag', false],
      ['parent', false],
      ['id', true],
    ]);
    assert.equal(pet.type, 'object');
    const tree = buildReference(parseSpecText(treeJson()));
    assert.deepEqual(findOperation(tree, '/trees/{id}', 'get')!.responses[0]!.schema, { name: 'Node', ref: 'Node' });
    const node = lookupOf(tree)('Node')!;
    assert.equal(node.name, 'Node');
    const children = node.properties!.find((p) => p.name === 'children')!.schema;
    assert.deepEqual(children, { type: 'array', items: { name: 'Node', ref: 'Node' } });
    assert.deepEqual(node.properties!.find((p) => p.name === 'label')!.schema, { type: 'string', nullable: true });
  });

  test('OpenAPI 3.1 webhooks are read as operations named by the webhook; a spec without them has none', async () => {
    const reference = buildReference(parseSpecText(webhooksJson()));
    assert.deepEqual(reference.operations.map((op) => `${op.method} ${op.path}`), ['post /subscriptions']);
    assert.deepEqual(reference.webhooks?.map((op) => `${op.method} ${op.path} ${op.summary}`), ['post newPet A pet was added', 'post petAdopted A pet was adopted']);
    const adopted = findWebhook(reference, 'petAdopted', 'POST');
    assert.equal(adopted?.requestBody?.description, 'The pet adopted');
    assert.equal(adopted?.requestBody?.schema?.ref, 'Pet');
    assert.equal(findWebhook(reference, 'petAdopted', 'get'), undefined);
    assert.equal(findOperation(reference, 'newPet', 'post'), undefined, 'a webhook is not an operation of the API');
    assert.equal('webhooks' in buildReference(parseSpecText(petstoreYaml())), false);
  });

  test('Swagger 2.0: the server from host and base path, body and form parameters as the request body', () => {
    const reference = buildReference(parseSpecText(swaggerJson()));
    assert.deepEqual(reference.servers, ['https://legacy.example.com/api']);
    const order = findOperation(reference, '/orders', 'post')!;
    assert.deepEqual(order.parameters, []);
    assert.equal(order.requestBody!.schema!.name, 'Order');
    assert.deepEqual(order.responses[0]!.example, { id: 1, quantity: 2 });
    assert.deepEqual(order.security, [{ name: 'key', kind: 'header', parameter: 'X-API-Key' }]);
    const upload = findOperation(reference, '/uploads', 'post')!;
    assert.equal(upload.requestBody!.contentType, 'multipart/form-data');
    assert.deepEqual(upload.requestBody!.schema!.properties!.map((p) => [p.name, p.schema.type, p.required]), [
      ['file', 'file', true],
      ['note', 'string', false],
    ]);
  });

  test('references that would expand exponentially are kept by name: the reference grows with the document', () => {
    // L0 -> two references to L1 -> two to L2 ... : 2^40 nodes if expanded in full.
    const schemas: Record<string, unknown> = {};
    for (let i = 0; i < 40; i += 1) schemas[`L${i}`] = { type: 'object', properties: { left: { $ref: `#/components/schemas/L${i + 1}` }, right: { $ref: `#/components/schemas/L${i + 1}` } } };
    schemas.L40 = { type: 'string' };
    // Inline (not components) the same shape is expanded up to the depth limit, then cut.
    let inline: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i += 1) inline = { type: 'object', properties: { left: inline, right: inline } };
    const started = Date.now();
    const reference = buildReference({
      ...openapi({ '/x': { post: { requestBody: { content: { 'application/json': { schema: inline } } }, responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/L0' } } } } } } } }, { schemas }),
    });
    assert.ok(Date.now() - started < 5000, `${Date.now() - started} ms`);
    assert.equal(reference.truncated, true, 'the inline one is cut');
    assert.ok(JSON.stringify(reference).length < 5_000_000, String(JSON.stringify(reference).length));
    assert.deepEqual(lookupOf(reference)('L0')!.properties!.map((p) => p.schema), [{ name: 'L1', ref: 'L1' }, { name: 'L1', ref: 'L1' }]);
    // Examples follow references within their own budget.
    const example = JSON.stringify(exampleFor({ ref: 'L0' }, lookupOf(reference)));
    assert.ok(example.length < 100_000, String(example.length));
  });

  test('a real spec (GitBook API 0.143.2, 1.2 MB) gives a reference of comparable size', async () => {
    const { readFileSync } = await import('node:fs');
    const text = readFileSync(new URL('../../../node_modules/@gitbook/api/spec/openapi.json', import.meta.url), 'utf8');
    const reference = buildReference(parseSpecText(text));
    assert.ok(reference.operations.length > 250);
    assert.equal(reference.truncated, false);
    const size = JSON.stringify(reference).length;
    assert.ok(size < text.length * 3, `${size} bytes of reference for ${text.length} of document`);
    const getSpace = findOperation(reference, '/spaces/{spaceId}', 'get')!;
    assert.deepEqual(getSpace.parameters.map((p) => p.name), ['spaceId', 'shareKey'].filter((n) => getSpace.parameters.some((p) => p.name === n)));
    assert.equal(getSpace.responses[0]!.schema!.ref, 'Space');
  });

  test('oneOf becomes variants; examples are made up from types when the spec gives none', () => {
    const reference = buildReference(
      openapi({
        '/pay': {
          post: {
            requestBody: {
              content: {
                'application/json': {
                  schema: {
                    oneOf: [
                      { type: 'object', properties: { card: { type: 'string', format: 'uuid' } } },
                      { type: 'object', properties: { iban: { type: 'string' }, at: { type: 'string', format: 'date-time' } } },
                    ],
                  },
                },
              },
            },
            responses: { '204': { description: 'Paid' } },
          },
        },
      }),
    );
    const body = findOperation(reference, '/pay', 'post')!.requestBody!;
    assert.equal(body.schema!.variants!.kind, 'oneOf');
    assert.deepEqual(exampleFor(body.schema), { card: '00000000-0000-0000-0000-000000000000' });
    assert.deepEqual(exampleFor(body.schema!.variants!.schemas[1]), { iban: 'string', at: '2024-01-01T00:00:00Z' });
  });
});
