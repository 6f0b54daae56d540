import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startServer, type TestServer } from '../../test/helpers.ts';
import { assertError } from '../../test/assertions.ts';

const OPERATIONS_TSV = fileURLToPath(new URL('../../../shared/spec/operations.tsv', import.meta.url));
const GITBOOK_SPEC = fileURLToPath(new URL('../../node_modules/@gitbook/api/spec/openapi.json', import.meta.url));
// Operations only the newest client has are official too (test/e2e/spec-validator.ts checks them against it).
const GITBOOK_LATEST_SPEC = fileURLToPath(new URL('../../node_modules/@gitbook/api-latest/spec/openapi.json', import.meta.url));

const json = (text: string) => ({ body: text, headers: { 'content-type': 'application/json' } });

describe('HTTP platform', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  describe('routing', () => {
    test('an unknown route is 404 with the error shape, with or without a token', async () => {
      assertError(await t.api('GET', '/v1/no-such-thing'), 404, '/v1/no-such-thing');
      assertError(await t.api('GET', '/v1/no-such-thing', { token: null }), 404);
      assertError(await t.api('POST', '/elsewhere', { token: null, body: {} }), 404);
      assertError(await t.api('GET', '/v1//orgs'), 404);
    });

    test('a known path with the wrong method is 405 and names the allowed methods', async () => {
      const res = await t.api('DELETE', '/v1/orgs');
      assertError(res, 405, /GET, POST/);
      assert.equal(res.headers.allow, 'GET, POST');

      const onOrg = await t.api('PUT', `/v1/orgs/${t.org.id}`, { body: {} });
      assertError(onOrg, 405);
      assert.deepEqual(String(onOrg.headers.allow).split(', ').sort(), ['GET', 'PATCH']);

      const onUser = await t.api('POST', '/v1/user', { token: null });
      assertError(onUser, 405);
      assert.equal(onUser.headers.allow, 'GET');
    });

    test('a trailing slash is ignored', async () => {
      assert.equal((await t.api('GET', '/v1/orgs/')).status, 200);
      assert.equal((await t.api('GET', `/v1/orgs/${t.org.id}/`)).status, 200);
    });
  });

  describe('request bodies', () => {
    test('malformed JSON is 400', async () => {
      assertError(await t.api('POST', '/v1/orgs', json('{"title": "Broken"')), 400, /not valid JSON/);
      assertError(await t.api('POST', '/v1/orgs', json("{'title': 'single quotes'}")), 400, /not valid JSON/);
      assertError(await t.api('PATCH', `/v1/orgs/${t.org.id}`, json('{"title": "x",}')), 400, /not valid JSON/);
    });

    test('an empty body declared as JSON is 400', async () => {
      assertError(await t.api('POST', '/v1/orgs', json('')), 400, /empty/);
    });

    test('a content type other than JSON is 415', async () => {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x']) {
        const res = await t.api('POST', '/v1/orgs', { body: 'title=Plain', headers: { 'content-type': type } });
        assertError(res, 415, /application\/json/);
      }
    });

    test('JSON with a charset parameter is accepted', async () => {
      const res = await t.api('POST', '/v1/orgs', { body: '{"title":"Charset Org"}', headers: { 'content-type': 'application/json; charset=utf-8' } });
      assert.equal(res.status, 201);
    });

    test('a body over BODY_LIMIT is 413', async () => {
      const small = await startServer({ env: { BODY_LIMIT: '1000' } });
      try {
        const res = await small.api('POST', '/v1/orgs', { body: { title: 'x'.repeat(2000) } });
        assertError(res, 413, /BODY_LIMIT/);
        const fits = await small.api('POST', '/v1/orgs', { body: { title: 'Small enough' } });
        assert.equal(fits.status, 201);
      } finally {
        await small.close();
      }
    });

    test('a body that is not an object is 400', async () => {
      for (const body of ['[]', 'null', '"title"', '42', 'true']) {
        assertError(await t.api('POST', '/v1/orgs', json(body)), 400, /^body/);
      }
    });
  });

  describe('validation messages name the field and the rule', () => {
    test('missing, too short, too long and wrongly typed fields', async () => {
      assertError(await t.api('POST', '/v1/orgs', { body: {} }), 400, "body must have required property 'title'");
      assertError(await t.api('POST', '/v1/orgs', { body: { title: 'a' } }), 400, 'body/title must NOT have fewer than 2 characters');
      assertError(await t.api('POST', '/v1/orgs', { body: { title: 'a'.repeat(256) } }), 400, 'body/title must NOT have more than 255 characters');
      assertError(await t.api('GET', '/v1/orgs?limit=1001'), 400, 'querystring/limit must be <= 1000');
      assertError(await t.api('GET', '/v1/orgs?limit=0'), 400, 'querystring/limit must be >= 1');
      assertError(await t.api('PATCH', `/v1/orgs/${t.org.id}`, { body: { hostname: 'NOT_VALID' } }), 400, /body\/hostname must match pattern/);
    });

    test('JSON bodies are not coerced: a number, a one-element array or a string is not what the schema asks for', async () => {
      assertError(await t.api('POST', '/v1/orgs', { body: { title: 42 } }), 400, 'body/title must be string');
      assertError(await t.api('POST', '/v1/orgs', { body: { title: ['A list'] } }), 400, 'body/title must be string');
      assertError(await t.api('POST', '/v1/orgs', { body: { title: 'Domains', emailDomains: 'example.com' } }), 400, 'body/emailDomains must be array');
      assertError(await t.api('PATCH', `/v1/orgs/${t.org.id}`, { body: { sso: 'true' } }), 400, 'body/sso');
      assertError(await t.api('PATCH', `/v1/orgs/${t.org.id}`, { body: { defaultRole: '' } }), 400, 'body/defaultRole');
    });

    test('query strings are still read as the types they name', async () => {
      const res = await t.api('GET', '/v1/orgs?limit=5');
      assert.equal(res.status, 200);
    });
  });

  describe('public endpoints', () => {
    test('GET /v1/ tells the version without a token', async () => {
      const res = await t.api('GET', '/v1/', { token: null });
      assert.equal(res.status, 200);
      assert.equal(typeof res.body.version, 'string');
      assert.equal(typeof res.body.build, 'string');
      assert.equal((await t.api('GET', '/v1', { token: null })).status, 200);
    });

    test('GET /v1/openapi.json is an OpenAPI 3.1 document, served without a token', async () => {
      const res = await t.api('GET', '/v1/openapi.json', { token: null });
      assert.equal(res.status, 200);
      assert.match(res.body.openapi, /^3\.1\./);
      assert.equal(typeof res.body.info.title, 'string');
      assert.ok(res.body.servers[0].url.endsWith('/v1'));
      assert.ok(res.body.paths['/orgs/{organizationId}'], 'paths are relative to the server URL');
      assert.deepEqual(res.body.paths['/'].get.security, [], 'getApiInformation needs no token');
    });

    test('every operation of the OpenAPI document is an official one at its official place, or a marked extension', async (ctx) => {
      if (!existsSync(OPERATIONS_TSV)) return ctx.skip(`${OPERATIONS_TSV} is not there (shared/ must sit beside the repository)`);
      // Where each official operation lives, as "METHOD /path" relative to /v1 with parameter names blanked:
      // the project's list first, then GitBook's own document for official operations the list leaves out.
      const place = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`;
      const official = new Map<string, string>();
      // Operations first served as extensions that a later client made official (createOrganization, say) may stay
      // marked: their shapes are ours. Only an operation of the pinned client marked so would hide a mistake.
      const pinned = new Set<string>();
      for (const spec of [GITBOOK_LATEST_SPEC, GITBOOK_SPEC]) {
        const gitbook = JSON.parse(readFileSync(spec, 'utf8')) as { paths: Record<string, Record<string, { operationId?: string }>> };
        for (const [path, item] of Object.entries(gitbook.paths)) {
          for (const [method, operation] of Object.entries(item)) {
            if (!operation.operationId) continue;
            official.set(operation.operationId, place(method, path));
            if (spec === GITBOOK_SPEC) pinned.add(operation.operationId);
          }
        }
      }
      for (const line of readFileSync(OPERATIONS_TSV, 'utf8').split('\n').slice(1)) {
        const [method, path, id] = line.split('\t');
        if (method && path && id) official.set(id, place(method, path.replace(/^\/v1/, '')));
      }
      assert.ok(official.size > 100);

      const res = await t.api('GET', '/v1/openapi.json', { token: null });
      const declared: string[] = [];
      const extensions: string[] = [];
      for (const [path, item] of Object.entries(res.body.paths as Record<string, Record<string, { operationId?: string; 'x-quire-extension'?: boolean }>>)) {
        for (const [method, operation] of Object.entries(item)) {
          const id = operation.operationId;
          assert.ok(id, `${method.toUpperCase()} ${path} has no operationId`);
          declared.push(id);
          if (operation['x-quire-extension'] === true) {
            // An official id marked as an extension would hide a mistake.
            assert.ok(!pinned.has(id), `${id} is official but marked x-quire-extension`);
            extensions.push(id);
          } else {
            assert.ok(official.has(id), `${id} is not an official operation and not marked x-quire-extension`);
            assert.equal(place(method, path), official.get(id), `${id} is not at its official place`);
          }
        }
      }
      assert.ok(declared.length >= 7);
      assert.ok(extensions.includes('createOrganization'));
      assert.equal(new Set(declared).size, declared.length, 'an operationId is declared twice');
    });

    test('our OpenAPI document describes each content change shape, told apart by operation', async () => {
      const document = (await t.api('GET', '/v1/openapi.json', { token: null })).body;
      const body = document.paths['/spaces/{spaceId}/change-requests/{changeRequestId}/content'].post.requestBody.content['application/json'].schema;
      const items = body.properties.changes.items;
      assert.deepEqual(items.discriminator, { propertyName: 'operation' });
      assert.deepEqual(
        items.oneOf.map((shape: { properties: { operation: { enum?: string[]; const?: string } } }) => shape.properties.operation.enum?.[0] ?? shape.properties.operation.const),
        ['insert_page', 'update_page', 'delete_page', 'revert_page', 'insert_files', 'insert_reusable_content', 'update_reusable_content', 'delete_reusable_content'],
      );
      const insertPage = items.oneOf[0];
      assert.ok(insertPage.required.includes('document'));
      assert.equal(insertPage.properties.document.anyOf[0].properties.markdown.maxLength, 1_000_000);
    });

    test('/v1/docs serves the API reference as HTML without a token, its script and document from here', async () => {
      const bare = await t.api('GET', '/v1/docs', { token: null });
      assert.equal(bare.status, 301);
      assert.equal(bare.headers.location, '/v1/docs/');
      const res = await t.api('GET', '/v1/docs/', { token: null });
      assert.equal(res.status, 200);
      assert.match(String(res.headers['content-type']), /^text\/html/);
      assert.match(String(res.body), /<html/i);
      assert.doesNotMatch(String(res.body), /https?:\/\//, 'the page names no other host');
      const script = await t.app.inject({ method: 'GET', url: '/v1/docs/js/scalar.js' });
      assert.equal(script.statusCode, 200);
      assert.match(String(script.headers['content-type']), /javascript/);
      const document = await t.api('GET', '/v1/docs/openapi.json', { token: null });
      assert.equal(document.status, 200);
      assert.equal(document.body.info.title, 'Quire API');
    });
  });

  describe('hostile input never produces a 500', () => {
    test('odd path parameters are answered with the error shape', async () => {
      assertError(await t.api('GET', `/v1/orgs/${'a'.repeat(5000)}`), 414);
      assertError(await t.api('GET', `/v1/orgs/${'a'.repeat(400)}`), 404);
      assertError(await t.api('GET', '/v1/orgs/%ZZ'), 400, /percent-encoding/);
      assertError(await t.api('GET', '/v1/orgs/%'), 400);
      assertError(await t.api('GET', '/v1/orgs/%ED%A0%80'), 400);
      assertError(await t.api('GET', '/v1/orgs/%F0%9F%98%80'), 404);
      assertError(await t.api('GET', '/v1/orgs/%C3%A9t%C3%A9'), 404);
      assertError(await t.api('GET', '/v1/users/..%2F..%2Fetc%2Fpasswd'), 404);
    });

    test('a NUL character is refused wherever it appears, naming where', async () => {
      assertError(await t.api('GET', '/v1/orgs/%00'), 400, 'params/organizationId');
      assertError(await t.api('GET', '/v1/users/a%00b'), 400, 'params/userId');
      assertError(await t.api('GET', '/v1/orgs?page=%00'), 400, 'querystring/page');
      assertError(await t.api('POST', '/v1/orgs', { body: { title: 'Nul\u0000Org' } }), 400, 'body/title');
      assertError(await t.api('PATCH', `/v1/orgs/${t.org.id}`, { body: { emailDomains: ['ok.com', 'bad\u0000.com'] } }), 400, 'body/emailDomains/1');
    });

    test('odd query strings are 400, not 500', async () => {
      for (const query of [
        'limit=abc',
        'limit=',
        'limit=1e400',
        'limit=Infinity',
        'limit=-Infinity',
        'limit=NaN',
        'limit=99999999999999999999999999',
        'limit=1&limit=2',
        'page=a&page=b',
        `page=${'x'.repeat(10_000)}`,
        'page=%E2%9C%93.%E2%9C%93',
      ]) {
        const res = await t.api('GET', `/v1/orgs?${query}`);
        assertError(res, 400);
      }
      assertError(await t.api('GET', '/v1/orgs?limit=-Infinity'), 400, 'querystring/limit must be a finite number');
      // Unknown parameters are ignored.
      assert.equal((await t.api('GET', '/v1/orgs?limit[]=1&unknown=x')).status, 200);
    });

    test('every operation survives hostile ids, queries and bodies', async () => {
      const doc = (await t.api('GET', '/v1/openapi.json', { token: null })).body;
      const ids = ['a'.repeat(499), '%00', '%E2%9C%93', '0', '-1', '__proto__', 'constructor', '%20', t.org.id];
      const bodies: unknown[] = [
        undefined,
        [],
        { title: ['a', 'b'], parent: { $ne: null }, organization: 12, position: 'x', defaultLevel: 7 },
        { __proto__: { admin: true }, constructor: { prototype: {} } },
        { title: 'x'.repeat(100_000) },
        { parent: null, position: { before: { type: 'space', space: 'nope' } } },
      ];
      const queries = ['', '?limit=1e400', '?page=garbage', '?limit=1001&nested=maybe'];
      const failures: string[] = [];
      for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
        for (const method of Object.keys(item)) {
          for (const id of ids) {
            const url = `/v1${path === '/' ? '/' : path.replace(/\{[^}]+\}/g, id)}`;
            // Each odd query with no body, and each odd body with no query: the parts are read apart (the
            // query by its schema, the body by its own), so their every pairing added only requests.
            const tries = method === 'get' || method === 'delete' ? queries.map((query) => [query, undefined] as const) : [...queries.map((query) => [query, undefined] as const), ...bodies.slice(1).map((body) => ['', body] as const)];
            for (const [query, body] of tries) {
              const res = await t.api(method.toUpperCase() as 'GET', url + query, { body });
              if (res.status >= 500) failures.push(`${method.toUpperCase()} ${url.slice(0, 60)}${query} ${JSON.stringify(body)?.slice(0, 60)} -> ${res.status}`);
              else if (res.status >= 400) assertError(res, res.status);
            }
          }
        }
      }
      assert.deepEqual(failures, []);
    });
  });
});
