// @sqlite-run-only: the integration runtime's sandbox; no database.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import Ajv from 'ajv';
import { safeFetch } from '../../../platform/safe-fetch.ts';
import { openApiToJsonSchema } from '../../../../test/e2e/spec-validator.ts';
import { helloIntegrationScript } from './bundle.test-support.ts';
import { runIntegrationScript, ScriptError, type ScriptCall, type ScriptRequest, type ScriptResponse } from './run-script.ts';

/**
 * The runtime runs a real integration: fixtures/hello-integration.jsx, written against the official
 * @gitbook/runtime and bundled here with the options of GitBook's CLI (`gitbook publish`), unchanged. Its
 * outbound requests go through the SSRF-safe fetcher to a local server, as the event side routes them.
 */

/** The ContentKit output schema of the official spec, to hold the render answers to. */
function contentKitValidator() {
  const file = createRequire(import.meta.url).resolve('@gitbook/api/spec/openapi.json');
  const document = openApiToJsonSchema(JSON.parse(readFileSync(file, 'utf8'))) as Record<string, unknown>;
  const ajv = new Ajv.default({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ ...document, $id: 'gitbook' });
  return ajv.getSchema('gitbook#/components/schemas/ContentKitRenderOutput')!;
}

/** How the event side's transport calls the runtime: the event JSON as body, the environment beside it. */
function eventCall(script: string, event: Record<string, unknown>, overrides: Partial<ScriptCall> = {}): ScriptCall {
  return {
    script,
    request: {
      method: 'POST',
      url: 'http://quire.test/v1/integrations/hello/events',
      headers: { 'content-type': 'application/json', 'x-quire-event': String(event.type) },
      body: JSON.stringify(event),
    },
    environment: {
      apiEndpoint: 'http://quire.test',
      apiTokens: { integration: 'gb_int_token', installation: 'gb_inst_token' },
      integration: { name: 'hello', version: 3 },
      installation: { id: 'inst1', configuration: { greeting: 'Quire' } },
      secrets: { signing: 'shh' },
      signingSecrets: { integration: 'sig' },
    },
    fetch: async () => {
      throw new Error('this call makes no requests');
    },
    ...overrides,
  };
}

function rawScript(body: string): string {
  return `export default { async fetch(request, env) { ${body} } };`;
}

describe('integration script runtime', () => {
  let script: string;
  let server: Server;
  let base: string;
  const received: Array<{ url: string; headers: IncomingMessage['headers']; body: string }> = [];

  /** The callers' fetcher: every request of the script through safe-fetch (private addresses allowed for the test server). */
  const viaSafeFetch = async (request: ScriptRequest): Promise<ScriptResponse> => {
    const answer = await safeFetch({ allowPrivateFetch: true, fetchTimeoutMs: 2000 }, request.url, {
      maxBytes: 1024 * 1024,
      headers: request.headers,
      ...(request.method === 'POST' ? { post: Buffer.from(request.body) } : {}),
    });
    return { status: answer.status, headers: answer.contentType ? { 'content-type': answer.contentType } : {}, body: answer.body.toString('utf8') };
  };

  before(async () => {
    script = await helloIntegrationScript();
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        received.push({ url: req.url ?? '', headers: req.headers, body });
        res.writeHead(201, { 'content-type': 'text/plain' }).end('welcome');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('an official-runtime integration handles installation_setup and reaches an outside URL through call.fetch', async () => {
    const logs: string[] = [];
    const call = eventCall(script, { eventId: 'evt1', type: 'installation_setup', installationId: 'inst1', status: 'active', previous: undefined }, {
      fetch: viaSafeFetch,
      log: (level, message) => logs.push(`${level}: ${message}`),
    });
    (call.environment.installation as { configuration: Record<string, unknown> }).configuration.webhook = `${base}/hook?from=quire`;
    const response = await runIntegrationScript(call);
    assert.equal(response.status, 200, response.body);
    assert.equal(response.body, 'OK');

    assert.equal(received.length, 1);
    const hit = received[0]!;
    assert.equal(hit.url, '/hook?from=quire&installation=inst1');
    assert.equal(hit.headers['content-type'], 'application/json');
    // HMAC, digest and random UUIDs computed by crypto inside the isolate match Node's.
    assert.equal(hit.headers['x-signature'], createHmac('sha256', 'shh').update('inst1').digest('hex'));
    const sent = JSON.parse(hit.body) as { installation: string; greeting: string; digest: string; uuid: string };
    assert.equal(sent.installation, 'inst1');
    assert.equal(sent.greeting, 'Quire');
    assert.equal(sent.digest, createHash('sha256').update('quire').digest('hex'));
    assert.match(sent.uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.ok(logs.includes('info: installation inst1 set up; the webhook answered 201 welcome'), logs.join('\n'));
    assert.ok(logs.some((line) => line.includes('[integrations] [evt1] installation_setup')), 'the runtime logs through console');
  });

  test('a script cannot reach a private address when the fetcher refuses them', async () => {
    const logs: string[] = [];
    const call = eventCall(script, { eventId: 'evt2', type: 'installation_setup', installationId: 'inst1' }, {
      fetch: async (request) => {
        const answer = await safeFetch({ allowPrivateFetch: false, fetchTimeoutMs: 2000 }, request.url, { maxBytes: 1024, headers: request.headers, post: Buffer.from(request.body) });
        return { status: answer.status, headers: {}, body: answer.body.toString('utf8') };
      },
      log: (level, message) => logs.push(`${level}: ${message}`),
    });
    (call.environment.installation as { configuration: Record<string, unknown> }).configuration.webhook = `${base}/private`;
    const before = received.length;
    const response = await runIntegrationScript(call);
    // The official runtime turns the handler's failure into its 500 answer and logs the cause.
    assert.equal(response.status, 500);
    assert.equal(received.length, before, 'nothing reached the private server');
    assert.ok(logs.some((line) => line.startsWith('error:') && line.includes('fetch failed')), logs.join('\n'));
  });

  test('ui_render answers a ContentKit element that validates against the official spec, and actions update its state', async () => {
    const validate = contentKitValidator();
    const render = (extra: Record<string, unknown>) =>
      runIntegrationScript(
        eventCall(script, { eventId: 'evt3', type: 'ui_render', installationId: 'inst1', componentId: 'counter', props: {}, context: { type: 'document', theme: 'light' }, ...extra }),
      );
    const first = await render({});
    assert.equal(first.status, 200, first.body);
    assert.equal(first.headers['content-type'], 'application/json');
    const output = JSON.parse(first.body) as { type: string; state: { count: number }; element: { type: string; children: Array<{ type: string; children?: unknown[] }> } };
    assert.ok(validate(output), `${first.body} ${JSON.stringify(validate.errors)}`);
    assert.equal(output.type, 'element');
    assert.deepEqual(output.state, { count: 0 });
    assert.equal(output.element.type, 'block');
    assert.deepEqual(output.element.children[0], { type: 'text', children: ['Hello Quire: 0'] });
    assert.equal(output.element.children[1]!.type, 'button');

    const next = await render({ state: { count: 4 }, action: { action: 'increment' } });
    const updated = JSON.parse(next.body) as { state: { count: number }; element: { children: unknown[] } };
    assert.ok(validate(updated), JSON.stringify(validate.errors));
    assert.deepEqual(updated.state, { count: 5 });
    assert.deepEqual(updated.element.children[0], { type: 'text', children: ['Hello Quire: 5'] });

    const missing = await render({ componentId: 'nope' });
    assert.equal(missing.status, 404);
    assert.deepEqual(JSON.parse(missing.body), { error: 'Component nope not found' });
  });

  test('the official API client inside the script calls the API with the installation token, through call.fetch', async () => {
    const requests: ScriptRequest[] = [];
    const logs: string[] = [];
    const response = await runIntegrationScript(
      eventCall(script, { eventId: 'evt4', type: 'space_content_updated', spaceId: 'space1', revisionId: 'rev1' }, {
        fetch: async (request) => {
          requests.push(request);
          return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ object: 'space', id: 'space1', title: 'Handbook' }) };
        },
        log: (level, message) => logs.push(`${level}: ${message}`),
      }),
    );
    assert.equal(response.status, 200, response.body);
    assert.equal(requests.length, 1);
    assert.equal(requests[0]!.method, 'GET');
    assert.equal(requests[0]!.url, 'http://quire.test/v1/spaces/space1');
    assert.equal(requests[0]!.headers.authorization, 'Bearer gb_inst_token');
    assert.ok(logs.includes('info: space space1 is titled Handbook'), logs.join('\n'));
  });

  test('an event the integration does not handle gets the official runtime answer (406)', async () => {
    const response = await runIntegrationScript(eventCall(script, { eventId: 'evt5', type: 'space_view', spaceId: 'space1' }));
    assert.equal(response.status, 406);
    assert.deepEqual(JSON.parse(response.body), { error: 'Integration does not handle "space_view" events' });
  });

  test('a classic script (an IIFE bundle with the CLI global name) runs too', async () => {
    const classic = `var __gitbook_integration = (() => ({ default: { async fetch(request) { const form = await request.formData(); return new Response('classic ' + JSON.parse(form.get('event')).type); } } }))();`;
    const response = await runIntegrationScript(eventCall(classic, { type: 'installation_setup' }));
    assert.equal(response.body, 'classic installation_setup');
  });

  test('the host is out of reach: no process, require, module loading or host functions', async () => {
    const probe = rawScript(`
      const seen = { process: typeof process, require: typeof require, module: typeof module, Buffer: typeof Buffer,
        install: typeof __quireInstall, dispatch: typeof __quireDispatch, ivm: typeof _ivm, fn: (() => { try { return typeof Function('return this.process')(); } catch (e) { return 'error'; } })() };
      let dynamicImport = 'refused';
      try { await import('node:fs'); dynamicImport = 'loaded'; } catch (e) { dynamicImport = 'refused'; }
      return Response.json({ ...seen, dynamicImport });`);
    const response = await runIntegrationScript(eventCall(probe, { type: 'installation_setup' }));
    assert.deepEqual(JSON.parse(response.body), {
      process: 'undefined', require: 'undefined', module: 'undefined', Buffer: 'undefined',
      install: 'undefined', dispatch: 'undefined', ivm: 'undefined', fn: 'undefined', dynamicImport: 'refused',
    });
    await assert.rejects(runIntegrationScript(eventCall(`import fs from 'node:fs';\nexport default { fetch() { return new Response(String(fs)); } };`, { type: 'x' })), (error: Error) => {
      assert.ok(error instanceof ScriptError);
      assert.match(error.message, /cannot import modules \("node:fs"\)/);
      return true;
    });
  });

  test('each call gets a fresh context: nothing leaks from one installation to the next', async () => {
    const stateful = `let calls = 0; globalThis.seen = globalThis.seen || []; export default { async fetch(request, env) { calls += 1; globalThis.seen.push(calls); return new Response(String(globalThis.seen.length) + '/' + calls); } };`;
    const first = await runIntegrationScript(eventCall(stateful, { type: 'a' }));
    const second = await runIntegrationScript(eventCall(stateful, { type: 'a' }));
    assert.equal(first.body, '1/1');
    assert.equal(second.body, '1/1');
  });

  test('calls run side by side, each with its own environment', async () => {
    const echo = rawScript(`const form = await request.formData(); const sent = JSON.parse(form.get('environment')); await new Promise((r) => setTimeout(r, 20)); return new Response(sent.installation.id + (env.installation.id === sent.installation.id ? '' : ' differs'));`);
    const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
    const answers = await Promise.all(
      ids.map((id) => {
        const call = eventCall(echo, { type: 'a' });
        call.environment = { ...call.environment, installation: { id, configuration: {} } };
        return runIntegrationScript(call);
      }),
    );
    assert.deepEqual(answers.map((a) => a.body), ids);
  });

  test('an infinite loop is stopped by the CPU limit, at load and inside an async handler', async () => {
    const started = performance.now();
    await assert.rejects(runIntegrationScript({ ...eventCall(`while (true) {}\nexport default {};`, { type: 'a' }), limits: { cpuMs: 200, timeoutMs: 3000 } }), (error: Error) => {
      assert.ok(error instanceof ScriptError, String(error));
      assert.equal(error.limit, 'cpu');
      assert.match(error.message, /more than 200 ms of CPU/);
      return true;
    });
    const looping = rawScript(`await new Promise((resolve) => setTimeout(resolve, 5)); for (;;) {}`);
    await assert.rejects(runIntegrationScript({ ...eventCall(looping, { type: 'a' }), limits: { cpuMs: 200, timeoutMs: 3000 } }), (error: Error) => {
      assert.ok(error instanceof ScriptError, String(error));
      assert.equal(error.limit, 'cpu');
      return true;
    });
    assert.ok(performance.now() - started < 2500, 'both stopped well before the wall limit');
  });

  test('a script that never answers is stopped by the wall-time limit', async () => {
    const hanging = rawScript(`await new Promise(() => {});`);
    const started = performance.now();
    await assert.rejects(runIntegrationScript({ ...eventCall(hanging, { type: 'a' }), limits: { timeoutMs: 300 } }), (error: Error) => {
      assert.ok(error instanceof ScriptError, String(error));
      assert.equal(error.limit, 'timeout');
      assert.match(error.message, /did not answer within 300 ms/);
      return true;
    });
    assert.ok(performance.now() - started < 2000);
  });

  test('an allocation bomb fails on the memory limit without hurting the server', async () => {
    const bomb = rawScript(`const hoard = []; for (;;) hoard.push(new Array(100000).fill({ x: Math.random() }));`);
    await assert.rejects(runIntegrationScript({ ...eventCall(bomb, { type: 'a' }), limits: { memoryMb: 32, cpuMs: 5000, timeoutMs: 10000 } }), (error: Error) => {
      assert.ok(error instanceof ScriptError, String(error));
      assert.equal(error.limit, 'memory');
      assert.match(error.message, /ran out of memory \(limit 32 MB\)/);
      return true;
    });
    const buffers = rawScript(`const kept = []; for (;;) kept.push(new Uint8Array(16 * 1024 * 1024));`);
    await assert.rejects(runIntegrationScript({ ...eventCall(buffers, { type: 'a' }), limits: { memoryMb: 32, cpuMs: 5000, timeoutMs: 10000 } }), (error: Error) => {
      assert.ok(error instanceof ScriptError, String(error));
      assert.match(error.message, /out of memory|Array buffer allocation failed|failed/);
      return true;
    });
    // The process goes on serving scripts.
    const response = await runIntegrationScript(eventCall(rawScript(`return new Response('still here');`), { type: 'a' }));
    assert.equal(response.body, 'still here');
  });

  test('a thrown error is reported with its message, at load or in the handler', async () => {
    await assert.rejects(runIntegrationScript(eventCall(`throw new Error('broken at load');\nexport default {};`, { type: 'a' })), /the integration script failed: .*broken at load/);
    await assert.rejects(runIntegrationScript(eventCall(rawScript(`throw new RangeError('bad handler');`), { type: 'a' })), /the integration script failed: .*bad handler/);
    await assert.rejects(runIntegrationScript(eventCall(`export default { hello: 1 };`, { type: 'a' })), /exports no fetch\(request, env\) handler/);
    await assert.rejects(runIntegrationScript(eventCall(rawScript(`return 'not a response';`), { type: 'a' })), /did not return a Response/);
    await assert.rejects(runIntegrationScript(eventCall(`export default {`, { type: 'a' })), /the integration script failed: .*SyntaxError|Unexpected end of input/);
  });

  test('per-call overhead: cold compile against warm (code cache)', async (t) => {
    // A fresh copy of the bundle (a comment makes its hash new) is compiled cold once, then runs warm.
    const fresh = `${script}\n// ${Date.now()}`;
    const event = { eventId: 'evt6', type: 'ui_render', installationId: 'inst1', componentId: 'counter', props: {}, context: { type: 'document', theme: 'light' } };
    let started = performance.now();
    const cold = await runIntegrationScript(eventCall(fresh, event));
    const coldMs = performance.now() - started;
    assert.equal(cold.status, 200);
    const warm: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      started = performance.now();
      const response = await runIntegrationScript(eventCall(fresh, event));
      warm.push(performance.now() - started);
      assert.equal(response.status, 200);
    }
    warm.sort((a, b) => a - b);
    const median = warm[Math.floor(warm.length / 2)]!;
    t.diagnostic(`bundle ${(fresh.length / 1024).toFixed(0)} KB: cold ${coldMs.toFixed(1)} ms, warm median ${median.toFixed(1)} ms (min ${warm[0]!.toFixed(1)}, max ${warm.at(-1)!.toFixed(1)})`);
    assert.ok(median < 1000, `a warm call stays well under the default wall limit (${median} ms)`);
  });
});
