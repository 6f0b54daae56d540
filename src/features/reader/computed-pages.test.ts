import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok } from '../../../test/assertions.ts';
import { buildOpenAPISpec, buildSpace, editLive, buildChangeRequest } from '../../../test/factories.ts';
import { OfficialSpec } from '../../../test/e2e/spec-validator.ts';
import type { PageNode } from '../content/tree.ts';
import type { PageRecord } from '../content/pages.ts';
import type { ApiReference } from '../openapi-specs/reference.ts';
import { computedSpecSlugs, expandComputedPages } from './computed-pages.ts';

const STORE_SPEC = `openapi: 3.0.3
info:
  title: Store API
  version: 2.1.0
  description: Sell things.
servers:
  - url: https://api.store.test/v2
paths:
  /orders:
    get:
      operationId: listOrders
      summary: List orders
      tags: [Orders]
      responses:
        '200': { description: The orders, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Order' } } } } }
    post:
      operationId: createOrder
      summary: Create an order
      tags: [Orders]
      responses:
        '201': { description: Created }
  /customers/{id}:
    get:
      operationId: getCustomer
      summary: Get a customer
      tags: [Customers]
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: The customer }
  /health:
    get:
      operationId: health
      summary: Health check
      responses:
        '200': { description: OK }
components:
  schemas:
    Order:
      type: object
      properties:
        id: { type: string }
        total: { type: number }
`;

const computedSource = (spec: string, models: boolean) => ({ type: 'builtin:openapi', props: { models }, dependencies: { spec: { ref: { kind: 'openapi', spec } } } });

describe('computed pages from an OpenAPI specification (pure expansion)', () => {
  const page = (id: string, kind: PageRecord['kind'], extra: Partial<PageRecord> = {}): PageRecord => ({
    id, parentId: null, position: 'a', kind, title: id, slug: id, documentId: null, attributes: {}, createdAt: '', updatedAt: '', ...extra,
  });
  const reference: ApiReference = {
    title: 'Store API', version: '1', servers: ['https://x.test'], truncated: false,
    operations: [
      { method: 'get', path: '/a', tags: ['Alpha'], deprecated: false, parameters: [], responses: [], security: [] },
      { method: 'get', path: '/b', tags: ['Beta'], deprecated: false, parameters: [], responses: [], security: [] },
      { method: 'post', path: '/a', tags: ['Alpha'], deprecated: false, parameters: [], responses: [], security: [] },
      { method: 'get', path: '/c', tags: [], deprecated: false, parameters: [], responses: [], security: [] },
    ],
    schemas: [{ name: 'Thing', schema: { type: 'object' } }],
  };

  test('a computed page becomes a document with a page per tag, one for untagged operations and one for models', () => {
    const tree: PageNode[] = [
      { page: page('intro', 'document'), path: 'intro', children: [] },
      { page: page('api', 'computed', { attributes: { computed: computedSource('store', true) as never } }), path: 'api', children: [] },
    ];
    assert.deepEqual(computedSpecSlugs(tree), ['store']);
    const { tree: expanded, documents } = expandComputedPages(tree, new Map([['spec:store', reference]]));
    const api = expanded[1]!;
    assert.equal(api.page.kind, 'document');
    assert.deepEqual(api.children.map((c) => [c.page.title, c.path]), [['Alpha', 'api/alpha'], ['Beta', 'api/beta'], ['Other operations', 'api/other-operations'], ['Models', 'api/models']]);
    const alpha = documents.get(api.children[0]!.page.id) as unknown as { nodes: { type: string; data: { method: string; path: string } }[] };
    assert.deepEqual(alpha.nodes.map((n) => [n.type, n.data.method, n.data.path]), [['openapi-operation', 'get', '/a'], ['openapi-operation', 'post', '/a']]);
    assert.ok(documents.has('api'), 'the computed page has an introduction');
    assert.equal(expanded[0]!.page, tree[0]!.page, 'other pages are left as they are');
  });

  test('without the spec, the computed page says so and has no sub-pages', () => {
    const tree: PageNode[] = [{ page: page('api', 'computed', { attributes: { computed: computedSource('gone', false) as never } }), path: 'api', children: [] }];
    const { tree: expanded, documents } = expandComputedPages(tree, new Map());
    assert.deepEqual(expanded[0]!.children, []);
    assert.match(JSON.stringify(documents.get('api')), /not available yet/);
  });
});

describe('computed pages from an OpenAPI specification (API and reader)', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  async function get(url: string) {
    const res = await t.app.inject({ method: 'GET', url });
    return { status: res.statusCode, body: res.body };
  }

  test('a computed page is stored with its source, read as RevisionPageComputed, and read in the reader as an API reference', async () => {
    await buildOpenAPISpec(t, 'store', { text: STORE_SPEC });
    const space = await buildSpace(t, { title: 'Store docs' });
    const [, api] = await editLive(t, space.id, [
      { operation: 'insert_page', title: 'Welcome', document: { markdown: 'Hello.' } },
      { operation: 'insert_page', title: 'API reference', document: {}, computed: computedSource('store', true) },
    ]);

    const res = await t.api('GET', `/v1/spaces/${space.id}/content`);
    const content = ok(res);
    const page = content.pages.find((p: { id: string }) => p.id === api);
    assert.equal(page.type, 'computed');
    assert.deepEqual(page.computed, computedSource('store', true));
    const checked = OfficialSpec.load().check({ method: 'GET', path: `/spaces/${space.id}/content`, status: res.status, headers: new Headers({ 'content-type': 'application/json' }), text: JSON.stringify(content) });
    assert.deepEqual(checked.problems, [], 'the content answer matches the official spec');

    const site = ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites`, { body: { title: 'Store', visibility: 'public', spaces: [space.id] } }), 201);
    ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites/${site.id}/publish`));
    const url = `/sites/${site.id}/`;

    const intro = await get(`${url}api-reference`);
    assert.equal(intro.status, 200);
    assert.match(intro.body, /Store API, version 2\.1\.0\./);
    assert.match(intro.body, /Base URL: https:\/\/api\.store\.test\/v2/);
    for (const [title, path] of [['Orders', 'orders'], ['Customers', 'customers'], ['Other operations', 'other-operations'], ['Models', 'models']]) {
      assert.match(intro.body, new RegExp(`href="${url}api-reference/${path}"[^>]*>[^<]*${title}`), `the sidebar lists ${title}`);
    }

    const orders = await get(`${url}api-reference/orders`);
    assert.equal(orders.status, 200);
    assert.match(orders.body, /<h1[^>]*>[\s\S]*Orders<\/h1>/);
    const methods = [...orders.body.matchAll(/class="http-method method-(\w+)">\w+<\/span>\s*<code class="openapi-path">([^<]+)<\/code>/g)].map((m) => `${m[1]} ${m[2]}`);
    assert.deepEqual(methods, ['get /orders', 'post /orders']);
    assert.match(orders.body, /curl/);
    assert.match((await get(`${url}api-reference/customers`)).body, /\/customers\/\{id\}[\s\S]*Path parameters/);
    assert.match((await get(`${url}api-reference/other-operations`)).body, /\/health/);
    const models = await get(`${url}api-reference/models`);
    assert.match(models.body, /<code>Order<\/code>/);
    assert.match(models.body, /total/);

    // The generated pages are pages of the site for machines too.
    assert.match((await get(`${url}sitemap.xml`)).body, /api-reference\/orders/);
    assert.match((await get(`${url}api-reference/orders.md`)).body, /Orders/);
  });

  test('a computed page takes no document and no sub-pages of its own; its source is validated', async () => {
    const space = await buildSpace(t, { title: 'Bad computed' });
    const cr = await buildChangeRequest(t, space.id);
    const write = (changes: unknown[]) => t.api('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, { body: { changes } });
    assertError(await write([{ operation: 'insert_page', title: 'API', document: { markdown: 'Text' }, computed: computedSource('store', false) }]), 400, /computed page has no document/);
    assertError(await write([{ operation: 'insert_page', title: 'API', document: {}, computed: { type: 'builtin:nothing', props: {}, dependencies: {} } }]), 400, /computed/);
    ok(await write([{ operation: 'insert_page', title: 'API', ref: 'api', document: {}, computed: computedSource('store', false) }]));
    const content = ok(await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`));
    const api = content.pages[0].id;
    assertError(await write([{ operation: 'insert_page', title: 'Inside', into: api, document: {} }]), 400, /computed page/);
  });
});
