import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { JSDOM } from 'jsdom';
import type { Document } from '../content/document/types.ts';
import { parseSpecText } from '../openapi-specs/document.ts';
import { buildReference, lookupOf, type ApiReference } from '../openapi-specs/reference.ts';
import { renderDocument } from './render-document.tsx';
import { curlCommand, openapiRefsOf } from './render-openapi.tsx';
import { petstoreYaml, startFixtureServer, swaggerJson, webhooksJson, type FixtureServer } from '../../../test/fixtures/openapi.ts';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { buildOpenAPISpec, buildSpace, editLive } from '../../../test/factories.ts';
import { ok } from '../../../test/assertions.ts';

const noLinks = { page: () => null, file: () => null, anchor: () => null };
const block = (type: string, data: Record<string, unknown>) => ({ object: 'block', type, isVoid: true, data });
const operationBlock = (spec: string, method: string, path: string) => block('openapi-operation', { ref: { kind: 'openapi', spec }, method, path });
const doc = (...nodes: unknown[]) => ({ object: 'document', data: {}, nodes }) as unknown as Document;

async function render(document: Document, references: Record<string, ApiReference>) {
  const html = await renderDocument(document, noLinks, { openapi: new Map(Object.entries(references)) });
  return new JSDOM(`<main>${html}</main>`).window.document;
}

describe('OpenAPI blocks in the reader', () => {
  const petstore = buildReference(parseSpecText(petstoreYaml()));
  const legacy = buildReference(parseSpecText(swaggerJson()));

  test('an operation renders its method, path, parameters, body, responses and a curl command', async () => {
    const page = await render(doc(operationBlock('petstore', 'GET', '/pets/{petId}')), { 'spec:petstore': petstore });
    const section = page.querySelector('section.openapi-operation')!;
    assert.ok(section, page.body.innerHTML);
    assert.equal(section.querySelector('.http-method')!.textContent, 'GET');
    assert.equal(section.querySelector('.openapi-path')!.textContent, '/pets/{petId}');
    assert.equal(section.querySelector('.openapi-summary')!.textContent, 'Info for a specific pet');
    const text = section.textContent!;
    assert.match(text, /Path parameters/);
    assert.match(text, /petId/);
    assert.match(text, /The id of the pet/);
    assert.match(text, /X-Request-Id/);
    assert.match(text, /https:\/\/eu\.petstore\.example\.com\/v1/, 'the server URL with its variable defaults');
    // The 200 response shows the Pet model: allOf merged, inherited properties included.
    const ok200 = [...section.querySelectorAll('details.openapi-response')].find((d) => d.querySelector('.openapi-status')!.textContent === '200')!;
    assert.ok(ok200.hasAttribute('open'));
    const fields = [...ok200.querySelectorAll('.openapi-name')].map((n) => n.textContent);
    assert.deepEqual(fields.slice(0, 4), ['name', 'tag', 'parent', 'id']);
    assert.match(ok200.textContent!, /One of:\s*dog, cat, bird/);
    assert.match(ok200.textContent!, /"name": "Rex"/, 'the example of the response');
    const curl = [...section.querySelectorAll('figure.code-block')].at(-1)!;
    assert.equal(curl.querySelector('.code-title')!.textContent, 'curl');
    assert.ok(curl.querySelector('.copy-button[data-copy]'));
    assert.equal(curl.querySelector('pre')!.textContent, "curl -X GET 'https://eu.petstore.example.com/v1/pets/{petId}' \\\n  -H 'Authorization: Bearer YOUR_TOKEN'");
  });

  test('a request body shows its schema and goes into curl as JSON', async () => {
    const page = await render(doc(operationBlock('petstore', 'post', '/pets')), { 'spec:petstore': petstore });
    const section = page.querySelector('section.openapi-operation')!;
    assert.match(section.textContent!, /Request body\s*application\/json\s*required/);
    const curl = [...section.querySelectorAll('pre')].at(-1)!.textContent!;
    assert.match(curl, /^curl -X POST 'https:\/\/eu\.petstore\.example\.com\/v1\/pets'/);
    assert.match(curl, /-H 'Content-Type: application\/json'/);
    assert.match(curl, /-d '\{\n {2}"name": "Rex",\n {2}"tag": "dog"\n\}'/);
  });

  test('Swagger 2.0: body and form parameters, an API key header, the host and base path', () => {
    const order = legacy.operations.find((o) => o.operationId === 'placeOrder')!;
    assert.equal(order.requestBody!.contentType, 'application/json');
    assert.equal(
      curlCommand(legacy.servers[0]!, order, lookupOf(legacy)),
      `curl -X POST 'https://legacy.example.com/api/orders' \\\n  -H 'X-API-Key: YOUR_API_KEY' \\\n  -H 'Content-Type: application/json' \\\n  -d '{\n  "id": 0,\n  "quantity": 0\n}'`,
    );
    const upload = legacy.operations.find((o) => o.operationId === 'upload')!;
    assert.match(curlCommand(legacy.servers[0]!, upload), /-F 'file=@file' \\\n {2}-F 'note=string'$/);
  });

  test('a block whose spec or operation is missing says so, showing its method and path', async () => {
    const page = await render(doc(operationBlock('nope', 'get', '/x'), operationBlock('petstore', 'get', '/nowhere')), { 'spec:petstore': petstore });
    const [missingSpec, missingOperation] = [...page.querySelectorAll('section.openapi-operation.unavailable')];
    assert.match(missingSpec!.textContent!, /GET\s*\/x.*not available/);
    assert.match(missingOperation!.textContent!, /GET\s*\/nowhere.*not in the API specification/);
  });

  test('a swagger block by URL, and a schemas block, render from the spec they name', async () => {
    const page = await render(
      doc(
        block('swagger', { ref: { kind: 'url', url: 'https://example.com/legacy.json' }, method: 'post', path: '/orders' }),
        block('openapi-schemas', { ref: { kind: 'openapi', spec: 'petstore' }, schemas: ['Error'] }),
      ),
      { 'url:https://example.com/legacy.json': legacy, 'spec:petstore': petstore },
    );
    assert.equal(page.querySelector('.openapi-path')!.textContent, '/orders');
    const model = page.querySelector('.openapi-model')!;
    assert.equal(model.querySelector('summary code')!.textContent, 'Error');
    assert.deepEqual([...model.querySelectorAll('.openapi-name')].map((n) => n.textContent), ['code', 'message']);
  });

  test('a webhook block renders its payload and responses, without a server or a curl command', async () => {
    const events = buildReference(parseSpecText(webhooksJson()));
    const webhook = (name: string) => block('openapi-webhook', { ref: { kind: 'openapi', spec: 'events' }, name, method: 'post' });
    const page = await render(doc(webhook('petAdopted'), webhook('petLost')), { 'spec:events': events });
    const [found, missing] = [...page.querySelectorAll('section.openapi-operation')];
    assert.equal(found!.getAttribute('aria-label'), 'Webhook POST petAdopted');
    assert.equal(found!.querySelector('.openapi-summary')!.textContent, 'A pet was adopted');
    assert.match(found!.textContent!, /Payload\s*application\/json\s*required/);
    assert.match(found!.textContent!, /What the pet answers to/, 'the payload\'s model unfolded');
    assert.equal(found!.querySelector('.openapi-server'), null);
    assert.equal(found!.querySelector('figure.code-block .code-title'), null, 'no curl command');
    assert.match(missing!.textContent!, /Webhook\s*POST\s*petLost\s*This webhook is not in the API specification\./);
    assert.deepEqual(openapiRefsOf(doc(webhook('newPet'))), { slugs: ['events'], urls: [] });
  });

  test('the specs a document names are found however deep the blocks sit', () => {
    const nested = doc({ object: 'block', type: 'tabs', nodes: [{ object: 'block', type: 'tabs-item', nodes: [operationBlock('inner', 'get', '/a')] }] }, block('swagger', { ref: { kind: 'url', url: 'https://x.test/s.yaml' } }));
    assert.deepEqual(openapiRefsOf(nested), { slugs: ['inner'], urls: ['https://x.test/s.yaml'] });
  });

  test('spec text cannot inject markup: names and descriptions are escaped', async () => {
    const hostile = buildReference(
      parseSpecText(
        JSON.stringify({
          openapi: '3.0.0',
          info: { title: 't', version: '1' },
          paths: { '/x': { get: { summary: '<img src=x onerror=alert(1)>', description: '<script>alert(1)</script>', responses: { '200': { description: '<b>ok</b>' } } } } },
        }),
      ),
    );
    const page = await render(doc(operationBlock('h', 'get', '/x')), { 'spec:h': hostile });
    assert.equal(page.querySelectorAll('script, img, b').length, 0);
    assert.match(page.body.textContent!, /<script>alert\(1\)<\/script>/);
  });
});

describe('an OpenAPI spec fetched from a local server becomes an API reference page in the reader', () => {
  let t: TestServer;
  let fixtures: FixtureServer;

  before(async () => {
    t = await startServer({ env: { ALLOW_PRIVATE_FETCH: 'true' } });
    fixtures = await startFixtureServer();
  });
  after(async () => {
    await fixtures.close();
    await t.close();
  });

  test('the page renders the operation from the latest version, and again when a new version lands', async () => {
    fixtures.routes.set('/petstore.yaml', petstoreYaml('1.0.0'));
    await buildOpenAPISpec(t, 'petstore', { url: `${fixtures.base}/petstore.yaml` });
    const space = await buildSpace(t, { title: 'API' });
    await editLive(t, space.id, [
      { operation: 'insert_page', title: 'Pets', document: { document: doc(operationBlock('petstore', 'get', '/pets')) } },
    ]);
    const site = ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites`, { body: { title: 'API docs', visibility: 'public', spaces: [space.id] } }), 201);
    ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites/${site.id}/publish`));

    const first = await t.api('GET', `/sites/${site.id}/`, { token: null });
    assert.equal(first.status, 200);
    const html = new JSDOM(first.body).window.document;
    const section = html.querySelector('main section.openapi-operation')!;
    assert.ok(section, 'the operation is on the page');
    assert.equal(section.querySelector('.openapi-path')!.textContent, '/pets');
    assert.match(section.textContent!, /How many pets to return at most/);
    assert.equal(section.querySelectorAll('.openapi-parameter, .openapi-name')[0]!.textContent, 'limit');

    // The API changes: the fetch makes a version, and the page shows it (a new ETag, not the cached page).
    const changed = petstoreYaml('1.1.0').replace('How many pets to return at most', 'Page size');
    fixtures.routes.set('/petstore.yaml', changed);
    ok(await t.api('PUT', `/v1/orgs/${t.org.id}/openapi/petstore`, { body: { source: { url: `${fixtures.base}/petstore.yaml` } } }));
    await t.app.jobs.runDue();
    const second = await t.api('GET', `/sites/${site.id}/`, { token: null, headers: { 'if-none-match': String(first.headers.etag) } });
    assert.equal(second.status, 200);
    assert.notEqual(second.headers.etag, first.headers.etag);
    assert.match(second.body, /Page size/);
  });
});
