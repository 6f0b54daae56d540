import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nextStep, retryDelayMs, RETRY_WINDOW_MS } from './retry-policy.ts';
import { planIntegrationEvent } from './event-types.ts';
import { checkRenderOutput } from './render-output.ts';
import { contentSecurityPolicyHeader } from './content-security-policy.ts';
import { signatureHeader, verifySignature } from './signing.ts';
import { targetOf } from './transport.ts';
import type { DeliveryIntegration } from '../integrations/queries.ts';

const created = new Date('2026-01-01T00:00:00Z');
const at = (ms: number) => new Date(created.getTime() + ms);

describe('retry policy', () => {
  test('a 2xx is delivered, whatever the attempt', () => {
    for (const status of [200, 201, 204, 299]) assert.deepEqual(nextStep({ kind: 'response', status }, 3, created, at(1000)), { kind: 'delivered' });
  });
  test('a 4xx other than 408 and 429 fails at once', () => {
    for (const status of [400, 401, 403, 404, 410, 422]) assert.equal(nextStep({ kind: 'response', status }, 1, created, at(0)).kind, 'failed');
  });
  test('5xx, 408, 429, redirects answered and network errors are retried', () => {
    for (const outcome of [{ kind: 'response', status: 500 }, { kind: 'response', status: 503 }, { kind: 'response', status: 408 }, { kind: 'response', status: 429 }, { kind: 'error' }] as const) {
      assert.equal(nextStep(outcome, 1, created, at(0), 0.5).kind, 'retry');
    }
  });
  test('delays grow from 30 seconds to at most an hour, with jitter of up to half', () => {
    assert.equal(retryDelayMs(1, 1), 30_000);
    assert.equal(retryDelayMs(1, 0), 15_000);
    assert.equal(retryDelayMs(2, 1), 60_000);
    assert.equal(retryDelayMs(4, 1), 240_000);
    assert.equal(retryDelayMs(30, 1), 3_600_000);
    assert.equal(retryDelayMs(30, 0), 1_800_000);
  });
  test('retries go on until the event is 24 hours old, then it fails', () => {
    assert.equal(nextStep({ kind: 'error' }, 20, created, at(RETRY_WINDOW_MS - 1)).kind, 'retry');
    assert.equal(nextStep({ kind: 'error' }, 21, created, at(RETRY_WINDOW_MS)).kind, 'failed');
  });
});

describe('which outbox rows become integration events', () => {
  test('a content change and a merge are space_content_updated', () => {
    assert.deepEqual(planIntegrationEvent('space_content_updated', { spaceId: 's', revisionId: 'r', importedFrom: 'x' }), {
      type: 'space_content_updated',
      scope: { kind: 'space', spaceId: 's' },
      body: { spaceId: 's', revisionId: 'r' },
    });
    assert.equal(planIntegrationEvent('change_request_merged', { spaceId: 's', changeRequestId: 'c', revisionId: 'r' })?.type, 'space_content_updated');
  });
  test('a Git Sync completion carries state, revision and commit', () => {
    assert.deepEqual(planIntegrationEvent('space_gitsync_completed', { spaceId: 's', state: 'success', revisionId: 'r', commit: 'abc' })?.body, {
      spaceId: 's',
      state: 'success',
      revisionId: 'r',
      commitId: 'abc',
    });
    assert.equal(planIntegrationEvent('space_gitsync_completed', { spaceId: 's', state: 'timeout' })?.body.state, 'failure');
  });
  test('types without an official counterpart are not delivered', () => {
    for (const type of ['comment_created', 'change_request_created', 'site_published', 'member_joined', 'space_gitsync_started', 'team_created']) {
      assert.equal(planIntegrationEvent(type, { spaceId: 's', siteId: 'x' }), null, type);
    }
  });
  test('installation events need their installation and integration', () => {
    assert.equal(planIntegrationEvent('installation_setup', { installationId: 'i' }), null);
    assert.deepEqual(planIntegrationEvent('site_installation_deleted', { installationId: 'i', integrationId: 'n', siteId: 'x', previous: { status: 'active', configuration: { a: 1 } } }), {
      type: 'site_installation_deleted',
      scope: { kind: 'installation', installationId: 'i', integrationId: 'n' },
      body: { siteId: 'x', previous: { configuration: { a: 1 } } },
    });
  });
});

describe('render output check', () => {
  test('accepts element and complete outputs', () => {
    assert.equal(checkRenderOutput({ type: 'element', element: { type: 'configuration', children: [] }, state: {}, props: {} }).ok, true);
    assert.equal(checkRenderOutput({ type: 'complete' }).ok, true);
  });
  test('refuses the rest with a reason', () => {
    assert.deepEqual(checkRenderOutput({ type: 'element', element: { type: 'block', children: [] }, state: 'x' }), { ok: false, reason: 'state must be an object' });
    assert.deepEqual(checkRenderOutput({ type: 'complete', returnValue: 3 }), { ok: false, reason: 'returnValue of a "complete" output must be an object' });
    assert.equal(checkRenderOutput(null).ok, false);
  });
});

describe('signatures', () => {
  test('a signature verifies with its secret and body only, within the tolerance', () => {
    const header = signatureHeader('s3cret', 1_700_000_000, '{"a":1}');
    assert.match(header, /^t=1700000000,v1=[0-9a-f]{64}$/);
    assert.deepEqual(verifySignature('s3cret', header, '{"a":1}', 1_700_000_100), { valid: true, timestamp: 1_700_000_000 });
    assert.equal(verifySignature('s3cret', header, '{"a":2}', 1_700_000_100).valid, false);
    assert.equal(verifySignature('s3cret', header, '{"a":1}', 1_700_000_400).valid, false);
    assert.equal(verifySignature('s3cret', undefined, '{"a":1}', 1_700_000_000).valid, false);
    assert.equal(verifySignature('s3cret', 'v1=abc', '{"a":1}', 1_700_000_000).valid, false);
    // During a rotation two signatures may be sent: one valid is enough.
    const [, valid] = header.split(',v1=');
    assert.equal(verifySignature('s3cret', `t=1700000000,v1=${'0'.repeat(64)},v1=${valid}`, '{"a":1}', 1_700_000_000).valid, true);
  });
});

describe('delivery target', () => {
  const base: DeliveryIntegration = {
    id: 'i',
    name: 'n',
    organization_id: 'owner',
    script: null,
    secrets: null,
    endpoint: null,
    dev_tunnel_url: null,
    dev_all: 0,
    signing_secret: '',
    content_security_policy: null,
  };
  test('tunnel, then script, then endpoint, else none', () => {
    assert.deepEqual(targetOf(base, 'owner'), { kind: 'none' });
    assert.deepEqual(targetOf({ ...base, endpoint: 'https://e' }, 'owner'), { kind: 'endpoint', url: 'https://e' });
    assert.deepEqual(targetOf({ ...base, endpoint: 'https://e', script: 'code' }, 'owner'), { kind: 'script', script: 'code' });
    assert.deepEqual(targetOf({ ...base, endpoint: 'https://e', script: 'code', dev_tunnel_url: 'https://t' }, 'owner'), { kind: 'tunnel', url: 'https://t' });
  });
  test('the tunnel serves other organizations only with `all`', () => {
    const dev = { ...base, endpoint: 'https://e', dev_tunnel_url: 'https://t' };
    assert.deepEqual(targetOf(dev, 'customer'), { kind: 'endpoint', url: 'https://e' });
    assert.deepEqual(targetOf({ ...dev, dev_all: 1 }, 'customer'), { kind: 'tunnel', url: 'https://t' });
  });
});

describe('the content security policy header of an integration', () => {
  test('a policy string is sent as it is; directives by name are joined; nothing stored sends nothing', () => {
    assert.equal(contentSecurityPolicyHeader(JSON.stringify("script-src 'self'")), "script-src 'self'");
    assert.equal(contentSecurityPolicyHeader(JSON.stringify({ 'default-src': "'self'", 'img-src': '*', 'upgrade-insecure-requests': '' })), "default-src 'self'; img-src *; upgrade-insecure-requests");
    assert.equal(contentSecurityPolicyHeader(null), null);
    assert.equal(contentSecurityPolicyHeader('not json'), null);
  });
});
