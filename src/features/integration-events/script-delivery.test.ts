import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { listenOnRandomPort, startServer, type TestServer } from '../../../test/helpers.ts';
import { ok } from '../../../test/assertions.ts';
import { buildSpace, editLive } from '../../../test/factories.ts';
import { helloIntegrationScript } from '../integrations/runtime/bundle.test-support.ts';
import { startReceiver, type Receiver } from './receiver.test-support.ts';

/**
 * Issue 17 end to end with a published script instead of an endpoint: an integration written against the
 * official @gitbook/runtime is published, installed and configured through the API; its events run in the
 * isolate, and its `context.api` calls reach Quire with the installation's token.
 */
describe('Events delivered to a published integration script', { timeout: 180_000 }, () => {
  let t: TestServer;
  let webhook: Receiver;
  let script: string;

  before(async () => {
    t = await startServer({ env: { ALLOW_PRIVATE_FETCH: 'true' } });
    // The script's API client calls PUBLIC_URL: the server must answer there.
    await listenOnRandomPort(t);
    webhook = await startReceiver();
    script = await helloIntegrationScript();
  });
  after(async () => {
    await webhook.close();
    await t.close();
  }, { timeout: 30_000 });

  const eventsOf = async (name: string) => ok(await t.api('GET', `/v1/integrations/${name}/events?limit=100`)).items as { id: string; status: string; payload: { type: string } }[];

  test('installation_setup and space_content_updated run in the script, which calls our API as the installation', async () => {
    const name = 'hello-script';
    ok(await t.api('POST', `/v1/integrations/${name}`, { body: { organization: t.org.id, title: 'Hello', description: 'A script', script, scopes: ['space:content:read'] } }));
    const installation = ok(await t.api('POST', `/v1/integrations/${name}/installations`, { body: { organization: t.org.id } }), 201);
    ok(await t.api('PATCH', `/v1/integrations/${name}/installations/${installation.id}`, { body: { configuration: { webhook: webhook.url, greeting: 'docs' } } }));
    const space = await buildSpace(t, { title: 'Scripted' });
    ok(await t.api('POST', `/v1/integrations/${name}/installations/${installation.id}/spaces`, { body: { space: space.id } }), 201);
    await t.app.jobs.runDue();

    // The script's installation_setup handler posted to the webhook of its configuration, from inside the isolate.
    const setup = webhook.received.find((r) => JSON.parse(r.body).installation === installation.id);
    assert.ok(setup, `the webhook got the script's call: ${JSON.stringify(webhook.received.map((r) => r.body))}`);
    assert.equal(JSON.parse(setup.body).greeting, 'docs');

    await editLive(t, space.id, [{ operation: 'insert_page', title: 'News', document: { markdown: 'Fresh.' } }]);
    await t.app.jobs.runDue();
    const update = (await eventsOf(name)).find((e) => e.payload.type === 'space_content_updated');
    assert.ok(update);
    // Its handler read the space through context.api, with the installation token the server gave the script.
    const detail = ok(await t.api('GET', `/v1/integrations/${name}/events/${update.id}`));
    const messages = (detail.trace.logs as { message: string }[]).map((l) => l.message).join('\n');
    assert.equal(update.status, 'success', messages);
    assert.match(messages, new RegExp(`space ${space.id} is titled Scripted`));
  });
});
