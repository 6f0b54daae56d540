import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readWebhook, webhookProvider } from './webhooks.ts';
import { bitbucketCloudPush, bitbucketServerPush, giteaPush, githubPush, gitlabPush } from './webhook-payloads.test-support.ts';

const SECRET = 'the-secret';
const hmac = (body: string, secret = SECRET) => createHmac('sha256', secret).update(body).digest('hex');

describe('push webhooks of Git servers', () => {
  test('each server is recognised by its headers; Gitea and Forgejo before the GitHub headers they also send', () => {
    assert.equal(webhookProvider({ 'x-github-event': 'push' }), 'github');
    assert.equal(webhookProvider({ 'x-gitlab-event': 'Push Hook' }), 'gitlab');
    assert.equal(webhookProvider({ 'x-gitea-event': 'push', 'x-github-event': 'push' }), 'gitea');
    assert.equal(webhookProvider({ 'x-forgejo-event': 'push', 'x-github-event': 'push' }), 'gitea');
    assert.equal(webhookProvider({ 'x-event-key': 'repo:push' }), 'bitbucket');
    assert.equal(webhookProvider({ 'content-type': 'application/json' }), undefined);
  });

  test('a signed push of each server is verified and gives its branch', () => {
    const cases = [
      { headers: (body: string) => ({ 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${hmac(body)}` }), payload: githubPush('main') },
      { headers: () => ({ 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': SECRET }), payload: gitlabPush('main') },
      { headers: (body: string) => ({ 'x-gitea-event': 'push', 'x-gitea-signature': hmac(body) }), payload: giteaPush('main') },
      { headers: (body: string) => ({ 'x-forgejo-event': 'push', 'x-forgejo-signature': hmac(body) }), payload: giteaPush('main') },
      { headers: (body: string) => ({ 'x-event-key': 'repo:push', 'x-hub-signature': `sha256=${hmac(body)}` }), payload: bitbucketCloudPush('main') },
      { headers: (body: string) => ({ 'x-event-key': 'repo:refs_changed', 'x-hub-signature': `sha256=${hmac(body)}` }), payload: bitbucketServerPush('main') },
    ];
    for (const { headers, payload } of cases) {
      const body = JSON.stringify(payload);
      const delivery = readWebhook({ 'content-type': 'application/json', ...headers(body) }, Buffer.from(body), SECRET);
      assert.equal(delivery?.verified, true, JSON.stringify(headers(body)));
      assert.deepEqual(delivery?.refs, ['refs/heads/main'], JSON.stringify(headers(body)));
    }
  });

  test('a wrong or missing signature, or a body changed after signing, is not verified', () => {
    const body = JSON.stringify(githubPush('main'));
    for (const headers of [
      { 'x-github-event': 'push' },
      { 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${hmac(body, 'other')}` },
      { 'x-github-event': 'push', 'x-hub-signature-256': hmac(body) },
      { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': 'other' },
      { 'x-gitea-event': 'push', 'x-gitea-signature': `sha256=${hmac(body)}` },
    ]) {
      assert.equal(readWebhook(headers, Buffer.from(body), SECRET)?.verified, false, JSON.stringify(headers));
    }
    const signed = { 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${hmac(body)}` };
    assert.equal(readWebhook(signed, Buffer.from(body.replace('main', 'prod')), SECRET)?.verified, false);
  });

  test("GitHub's form-encoded delivery is read; other events have no branches; a tag push moves no branch", () => {
    const form = `payload=${encodeURIComponent(JSON.stringify(githubPush('docs')))}`;
    const delivery = readWebhook({ 'content-type': 'application/x-www-form-urlencoded', 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${hmac(form)}` }, Buffer.from(form), SECRET);
    assert.deepEqual(delivery?.refs, ['refs/heads/docs']);
    const ping = JSON.stringify({ zen: 'Keep it logically awesome.', hook_id: 1 });
    assert.equal(readWebhook({ 'x-github-event': 'ping', 'x-hub-signature-256': `sha256=${hmac(ping)}` }, Buffer.from(ping), SECRET)?.refs, undefined);
    const tag = JSON.stringify({ ...githubPush('main'), ref: 'refs/tags/v1.0' });
    assert.deepEqual(readWebhook({ 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${hmac(tag)}` }, Buffer.from(tag), SECRET)?.refs, ['refs/tags/v1.0']);
    const broken = '{not json';
    assert.deepEqual(readWebhook({ 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${hmac(broken)}` }, Buffer.from(broken), SECRET)?.refs, []);
  });
});
