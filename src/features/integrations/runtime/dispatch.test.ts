import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { completeEnvironment, dispatcherRequest } from './dispatch.ts';

describe('dispatcher request', () => {
  test('an event JSON body becomes the multipart POST to /v1 that @gitbook/runtime reads', async () => {
    const event = { eventId: 'e1', type: 'installation_setup', installationId: 'i1' };
    const request = dispatcherRequest(
      { method: 'POST', url: 'https://quire.example/v1/integrations/hello/events', headers: { 'Content-Type': 'application/json', 'Content-Length': '10', 'X-Quire-Event': 'installation_setup' }, body: JSON.stringify(event) },
      { apiEndpoint: 'https://quire.example', integration: { name: 'hello' } },
    );
    assert.equal(request.method, 'POST');
    assert.equal(request.url, 'https://quire.example/v1');
    assert.equal(request.headers['x-quire-event'], 'installation_setup');
    assert.equal(request.headers['content-length'], undefined);
    // Read back with Node's own Web platform, as the sandbox's Request does.
    const form = await new Request(request.url, { method: 'POST', headers: request.headers, body: request.body }).formData();
    assert.deepEqual(JSON.parse(String(form.get('event'))), event);
    assert.deepEqual(JSON.parse(String(form.get('environment'))), {
      apiTokens: {}, secrets: {}, signingSecrets: {}, apiEndpoint: 'https://quire.example', integration: { name: 'hello' },
    });
  });

  test('a request already in the dispatcher form passes unchanged', () => {
    const original = { method: 'POST', url: 'https://quire.example/v1', headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: '--x--\r\n' };
    assert.equal(dispatcherRequest(original, {}), original);
  });

  test('the environment keeps what the caller gave over the defaults', () => {
    assert.deepEqual(completeEnvironment({ apiTokens: { installation: 't' }, secrets: { a: 'b' } }), { apiTokens: { installation: 't' }, secrets: { a: 'b' }, signingSecrets: {} });
  });
});
