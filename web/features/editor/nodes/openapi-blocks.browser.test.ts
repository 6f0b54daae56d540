// @sqlite-run-only: OpenAPI operation and integration blocks authored in the editor; the server stores one page, whose documents the content tests store on both databases.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { eventually } from '../../../../src/features/collaboration/clients.test-support.ts';
import { startReceiver, type Receiver } from '../../../../src/features/integration-events/receiver.test-support.ts';
import { ok } from '../../../../test/assertions.ts';
import { screenshot, withoutChromium } from '../../../../test/browser.ts';
import { webAppSuite } from '../../../../test/browser-suite.ts';
import { caretIn } from '../../../../test/editor/caret.ts';
import { OfficialSpec } from '../../../../test/e2e/spec-validator.ts';
import { buildInstallation, buildIntegration, buildOpenAPISpec, buildSpace } from '../../../../test/factories.ts';
import { petstoreYaml, startFixtureServer, webhooksJson, type FixtureServer } from '../../../../test/fixtures/openapi.ts';

/*
 * Issue 42's API blocks, written in the editor: an operation of the organization's OpenAPI spec inserted from the
 * `/` menu (spec, then operation, searched), drawn as readers see it, changed from its settings toolbar, and saved
 * in GitBook's shape; a block declared by an installed integration inserted from `/` and drawn by the integration's
 * ContentKit render, its props stored when its component asks, and a failed render shown with its reason while the
 * block is kept as it is. GitBook's older `swagger` blocks (a spec by its address) and webhook blocks are drawn and
 * changed the same way; a selected integration block has its own toolbar (refresh, its settings, delete). The app's
 * page view draws the OpenAPI blocks as the editor does.
 */

/** A one-pixel PNG, base64: an integration's icon. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe('OpenAPI and integration blocks in the editor, in Chromium', { skip: withoutChromium, timeout: 300_000 }, () => {
  // The integration's endpoint (a local receiver) is on 127.0.0.1: private fetches allowed.
  const suite = webAppSuite({ env: { ALLOW_PRIVATE_FETCH: 'true' } });
  const spec = OfficialSpec.loadLatest();
  const content = (page: Page) => page.getByRole('textbox', { name: 'Page content' });
  let receiver: Receiver;
  let specs: FixtureServer;

  before(async () => {
    receiver = await startReceiver();
    specs = await startFixtureServer();
  });
  after(async () => {
    await receiver?.close();
    await specs?.close();
  });

  /** A new block after the paragraph saying `paragraph`, from the `/` menu. */
  async function insertAfter(page: Page, paragraph: string, item: string): Promise<void> {
    const target: Locator = content(page).locator('p', { hasText: paragraph });
    await eventually(async () => {
      if ((await caretIn(target)) === 'outside') await target.click();
      await page.keyboard.press('End');
      return (await caretIn(target)) === 'end';
    }, 20_000, `the caret at the end of "${paragraph}"`);
    await page.keyboard.press('Enter');
    await page.keyboard.type(`/${item}`);
    const menu = page.getByRole('listbox', { name: 'Insert a block' });
    await menu.getByRole('option', { name: new RegExp(`^${item}`, 'i') }).first().waitFor();
    await page.keyboard.press('Enter');
    await menu.waitFor({ state: 'hidden' });
  }

  test('an operation of the organization\'s spec and an integration\'s block are inserted from `/`, drawn as readers see them, changed, and saved in GitBook\'s shape', async () => {
    const { t, origin } = suite;
    await buildOpenAPISpec(t, 'petstore', { text: petstoreYaml() });
    // The block's component: a greeting with a button that stores `waved` in the block's props (GitBook's
    // `@editor.node.updateProps`), and drawn otherwise once it is stored.
    receiver.answer((request) => {
      const props = (JSON.parse(request.body) as Json).props ?? {};
      const children = props.waved
        ? [{ type: 'text', children: ['The greeter waved'] }]
        : [{ type: 'text', children: ['Hello from the greeter'] }, { type: 'button', label: 'Wave', onPress: { action: '@editor.node.updateProps', props: { waved: true } } }];
      return { status: 200, body: { type: 'element', element: { type: 'block', children }, state: {}, props } };
    });
    const integration = await buildIntegration(t, {
      title: 'Greeter',
      endpoint: receiver.url,
      blocks: [{ id: 'greeting', title: 'Greeting card', description: 'A greeting drawn by the Greeter integration' }],
    });
    const space = await buildSpace(t, { title: 'API blocks' });
    await buildInstallation(t, integration.name, { spaces: [space.id] });
    const batch = ok(await t.api('POST', `/v1/spaces/${space.id}/content`, { body: { changes: [{ operation: 'insert_page', title: 'API', document: { markdown: 'Operation goes here.\n\nGreeting goes here.\n' } }] } }));
    const pageId = batch.changes[0].page.id;
    const saved = async () => ok(await t.api('GET', `/v1/spaces/${space.id}/content/page/${pageId}?format=document`)).document;

    const page = await suite.signedIn();
    await page.goto(`${origin}/app/s/${space.id}/~/edit/${pageId}`);
    await content(page).waitFor();

    // `/OpenAPI operation`: the spec is the organization's one; the operation is found by what is typed.
    await insertAfter(page, 'Operation goes here.', 'OpenAPI operation');
    const picker = page.getByRole('dialog', { name: 'OpenAPI operation', exact: true });
    await picker.getByRole('combobox', { name: 'API specification' }).filter({ hasText: 'petstore' }).waitFor();
    await picker.getByRole('option', { name: /GET \/pets List pets/ }).waitFor();
    await picker.getByRole('combobox', { name: 'Search operations' }).fill('create');
    assert.equal(await picker.getByRole('option').count(), 1, 'only "Create a pet" matches "create"');
    await screenshot(page, 'editor-openapi-picker');
    await suite.assertAccessible(page, 'the operation picker of the `/` menu');
    await page.keyboard.press('Enter');
    await picker.waitFor({ state: 'hidden' });
    const created = content(page).getByRole('region', { name: 'POST /pets' });
    await created.getByText('Create a pet', { exact: true }).waitFor();
    await created.getByText('Request body').waitFor();
    await created.getByText('Authorization').waitFor();

    // Its settings toolbar points it at another operation.
    const settings = page.getByRole('group', { name: 'OpenAPI operation settings' });
    await settings.getByRole('button', { name: 'Operation: POST /pets' }).click();
    const change = page.getByRole('dialog', { name: 'Operation', exact: true });
    await change.getByRole('combobox', { name: 'Search operations' }).fill('delete');
    await change.getByRole('option', { name: /DELETE \/pets\/\{petId\} Delete a pet/ }).click();
    const deleting = content(page).getByRole('region', { name: 'DELETE /pets/{petId}' });
    await deleting.getByText('Path parameters').waitFor();
    await deleting.getByText('petId', { exact: true }).waitFor();
    assert.equal(await content(page).getByRole('region', { name: 'POST /pets' }).count(), 0);

    // `/Greeting card`: the integration's declared block, drawn by its own render in the space's context.
    await insertAfter(page, 'Greeting goes here.', 'Greeting card');
    const block = content(page).getByRole('group', { name: `Integration block ${integration.name}: greeting` });
    await block.getByText('Hello from the greeter').waitFor();
    const render = receiver.received.map((r) => JSON.parse(r.body.toString()) as Json).find((body) => body.type === 'ui_render');
    assert.equal(render?.componentId, 'greeting');
    assert.deepEqual({ type: render?.context.type, spaceId: render?.context.spaceId, editable: render?.context.editable }, { type: 'document', spaceId: space.id, editable: true });
    await block.getByRole('button', { name: 'Wave' }).click();
    await block.getByText('The greeter waved').waitFor();

    await page.keyboard.press('ArrowDown');
    await screenshot(page, 'editor-openapi-blocks', { fullPage: true });
    await suite.assertAccessible(page, 'the editor with an OpenAPI operation and an integration block');

    await eventually(async () => JSON.stringify(await saved()).includes('"waved":true'), 30_000, 'the integration block saved with its props');
    await eventually(async () => JSON.stringify(await saved()).includes('/pets/{petId}'), 30_000, 'the operation changed saved');
    const document = await saved();
    assert.deepEqual(spec.schemaProblems('Document', document), [], 'GitBook\'s spec takes the saved document');
    const operation = document.nodes.find((b: Json) => b.type === 'openapi-operation');
    assert.deepEqual(operation.data, { ref: { kind: 'openapi', spec: 'petstore' }, method: 'delete', path: '/pets/{petId}' });
    assert.equal(operation.isVoid, true);
    const integrationBlock = document.nodes.find((b: Json) => b.type === 'integration');
    assert.deepEqual(integrationBlock.data, { integration: integration.name, block: 'greeting', props: { waved: true } });

    // An integration that cannot render: the reason shows in the block, which is kept as it is.
    receiver.answer({ status: 500, body: { error: 'boom' } });
    await page.reload();
    await content(page).waitFor();
    const failed = content(page).getByRole('group', { name: `Integration block ${integration.name}: greeting` });
    await failed.getByRole('alert').filter({ hasText: /HTTP 500/ }).waitFor();
    await content(page).getByRole('region', { name: 'DELETE /pets/{petId}' }).waitFor();
    await screenshot(page, 'editor-openapi-blocks-failed-render', { fullPage: true });
    await suite.assertAccessible(page, 'an integration block whose render failed');
    assert.deepEqual((await saved()).nodes.find((b: Json) => b.type === 'integration'), integrationBlock);
  });

  test('a swagger block by address and a webhook block are drawn as readers see them, changed from their toolbar, and saved', async () => {
    const { t, origin } = suite;
    specs.routes.set('/petstore.yaml', petstoreYaml());
    const known = `${specs.base}/petstore.yaml`;
    const unknown = `${specs.base}/nobody-added.json`;
    // The server fetched the first address (through its fetch guard) when the organization added it as a spec.
    await buildOpenAPISpec(t, 'petstore-by-url', { url: known });
    await buildOpenAPISpec(t, 'events', { text: webhooksJson() });
    const space = await buildSpace(t, { title: 'Legacy API blocks' });
    const swagger = (url: string, method: string, path: string) => `{% openapi src="${url}" path="${path}" method="${method}" %}\n[${url}](${url})\n{% endopenapi %}\n`;
    const markdown = `Known address.\n\n${swagger(known, 'post', '/pets')}\nUnknown address.\n\n${swagger(unknown, 'get', '/pets')}\nWebhook goes here.\n`;
    const batch = ok(await t.api('POST', `/v1/spaces/${space.id}/content`, { body: { changes: [{ operation: 'insert_page', title: 'Legacy', document: { markdown } }] } }));
    const pageId = batch.changes[0].page.id;
    const saved = async () => ok(await t.api('GET', `/v1/spaces/${space.id}/content/page/${pageId}?format=document`)).document;

    const page = await suite.signedIn();
    await page.goto(`${origin}/app/s/${space.id}/~/edit/${pageId}`);
    await content(page).waitFor();

    // The block by address shows the operation of the organization's spec fetched from there, as the reader does.
    const byUrl = content(page).getByRole('region', { name: 'POST /pets', exact: true });
    await byUrl.getByText('Create a pet', { exact: true }).waitFor();
    await byUrl.getByText('Request body').waitFor();
    // No spec of the organization comes from the other address: the block says so, and why.
    const missing = content(page).getByRole('region', { name: 'GET /pets', exact: true });
    await missing.getByText(`The API specification at ${unknown} is not available: no API specification of the organization is fetched from ${unknown}`, { exact: false }).waitFor();
    assert.equal(await content(page).getByText('not editable here yet').count(), 0, 'no block is an opaque card any more');
    // Added from the block, the server fetches it (its job worker, run here by the test), and the block draws it.
    specs.routes.set('/nobody-added.json', petstoreYaml('2.0.0'));
    await missing.getByRole('button', { name: 'Add it to the organization’s specifications' }).click();
    await missing.getByText(`The server is fetching the API specification at ${unknown}…`).waitFor();
    await eventually(async () => {
      await t.app.jobs.runDue();
      const listed = ok(await t.api('GET', `/v1/orgs/${t.org.id}/openapi`));
      return listed.items.some((s: Json) => s.sourceURL === unknown && s.lastVersion);
    }, 20_000, 'the spec added from the block fetched');
    await missing.getByText('List pets', { exact: true }).waitFor();

    // Its toolbar changes the operation among those of the spec at its address.
    await byUrl.locator('.openapi-head').click();
    const settings = page.getByRole('group', { name: 'OpenAPI operation settings' });
    await settings.getByRole('button', { name: 'Operation: POST /pets' }).click();
    const change = page.getByRole('dialog', { name: 'Operation', exact: true });
    await change.getByText(known).waitFor();
    assert.equal(await change.getByRole('combobox', { name: 'API specification' }).count(), 0, 'the block\'s address names its spec');
    await change.getByRole('combobox', { name: 'Search operations' }).fill('info');
    await change.getByRole('option', { name: /GET \/pets\/\{petId\} Info for a specific pet/ }).click();
    await content(page).getByRole('region', { name: 'GET /pets/{petId}' }).getByText('Path parameters').waitFor();

    // `/OpenAPI webhook`: a webhook of a spec, found by what is typed.
    await insertAfter(page, 'Webhook goes here.', 'OpenAPI webhook');
    const picker = page.getByRole('dialog', { name: 'OpenAPI webhook', exact: true });
    await picker.getByRole('combobox', { name: 'API specification' }).click();
    await page.getByRole('option', { name: 'events', exact: true }).click();
    await picker.getByRole('option', { name: /POST newPet A pet was added/ }).waitFor();
    await picker.getByRole('combobox', { name: 'Search webhooks' }).fill('adopted');
    assert.equal(await picker.getByRole('listbox', { name: 'Webhooks' }).getByRole('option').count(), 1);
    await screenshot(page, 'editor-openapi-webhook-picker');
    await suite.assertAccessible(page, 'the webhook picker of the `/` menu');
    await page.keyboard.press('Enter');
    await picker.waitFor({ state: 'hidden' });
    const adopted = content(page).getByRole('region', { name: 'Webhook POST petAdopted' });
    await adopted.getByText('A pet was adopted', { exact: true }).waitFor();
    await adopted.getByText('Payload').waitFor();
    assert.equal(await adopted.getByText('Server').count(), 0, 'a webhook has no server: the API sends it');

    // Its toolbar picks another webhook of the spec.
    const webhookSettings = page.getByRole('group', { name: 'OpenAPI webhook settings' });
    await webhookSettings.getByRole('button', { name: 'Webhook: POST petAdopted' }).click();
    const changeWebhook = page.getByRole('dialog', { name: 'Webhook', exact: true });
    await changeWebhook.getByRole('option', { name: /POST newPet/ }).click();
    await content(page).getByRole('region', { name: 'Webhook POST newPet' }).getByText('A pet was added', { exact: true }).waitFor();
    await page.keyboard.press('ArrowDown');
    await screenshot(page, 'editor-openapi-legacy-blocks', { fullPage: true });
    await suite.assertAccessible(page, 'the editor with a swagger block and a webhook block');

    // Saved in GitBook's shape, and drawn again so after a reload.
    await eventually(async () => JSON.stringify(await saved()).includes('"name":"newPet"'), 30_000, 'the webhook saved');
    await eventually(async () => JSON.stringify(await saved()).includes('/pets/{petId}'), 30_000, 'the swagger block\'s operation saved');
    const document = await saved();
    assert.deepEqual(spec.schemaProblems('Document', document), [], 'GitBook\'s spec takes the saved document');
    const swaggers = document.nodes.filter((b: Json) => b.type === 'swagger');
    assert.deepEqual(swaggers.map((b: Json) => [b.data.ref, b.data.method, b.data.path]), [
      [{ kind: 'url', url: known }, 'get', '/pets/{petId}'],
      [{ kind: 'url', url: unknown }, 'get', '/pets'],
    ]);
    const webhook = document.nodes.find((b: Json) => b.type === 'openapi-webhook');
    assert.deepEqual(webhook.data, { ref: { kind: 'openapi', spec: 'events' }, name: 'newPet', method: 'post' });
    await page.reload();
    await content(page).waitFor();
    await content(page).getByRole('region', { name: 'GET /pets/{petId}' }).getByText('Info for a specific pet', { exact: true }).waitFor();
    await content(page).getByRole('region', { name: 'Webhook POST newPet' }).getByText('Payload').waitFor();
  });

  test('the page view draws an operation, a webhook, schemas and a swagger block whose spec is missing, as the editor does', async () => {
    const { t, origin } = suite;
    await buildOpenAPISpec(t, 'petstore-view', { text: petstoreYaml() });
    await buildOpenAPISpec(t, 'events-view', { text: webhooksJson() });
    const space = await buildSpace(t, { title: 'API blocks read' });
    const unknown = 'https://specs.example/nobody-added.json';
    const block = (type: string, data: Json) => ({ object: 'block', type, isVoid: true, data });
    const nodes = [
      block('openapi-operation', { ref: { kind: 'openapi', spec: 'petstore-view' }, method: 'get', path: '/pets/{petId}' }),
      block('openapi-webhook', { ref: { kind: 'openapi', spec: 'events-view' }, name: 'newPet', method: 'post' }),
      block('openapi-schemas', { ref: { kind: 'openapi', spec: 'petstore-view' }, schemas: ['Error'], grouped: false }),
      block('swagger', { ref: { kind: 'url', url: unknown }, method: 'get', path: '/pets' }),
    ];
    const batch = ok(await t.api('POST', `/v1/spaces/${space.id}/content`, {
      body: { changes: [{ operation: 'insert_page', title: 'Read API', document: { document: { object: 'document', data: {}, nodes } } }] },
    }));
    const pageId = batch.changes[0].page.id;
    const { path } = ok(await t.api('GET', `/v1/spaces/${space.id}/content/page/${pageId}`));

    const page = await suite.signedIn();
    await page.goto(`${origin}/app/s/${space.id}/${path}`);
    const view = page.locator('article.page .document');
    // The operation: its method, path and parameters, from the organization's spec.
    const operation = view.getByRole('region', { name: 'GET /pets/{petId}', exact: true });
    await operation.getByText('Info for a specific pet', { exact: true }).waitFor();
    assert.equal(await operation.locator('.http-method').innerText(), 'GET');
    assert.equal(await operation.locator('.openapi-path').innerText(), '/pets/{petId}');
    await operation.getByText('Path parameters').waitFor();
    await operation.getByText('petId', { exact: true }).waitFor();
    await operation.getByText('Headers', { exact: true }).waitFor();
    await operation.getByText('X-Request-Id', { exact: true }).waitFor();
    const webhook = view.getByRole('region', { name: 'Webhook POST newPet' });
    await webhook.getByText('A pet was added', { exact: true }).waitFor();
    await webhook.getByText('Payload').waitFor();
    const schemas = view.getByRole('region', { name: 'Schemas: Error' });
    await schemas.getByText('message', { exact: true }).waitFor();
    // No spec of the organization comes from the swagger block's address: it says so, and offers nothing to add here.
    const missing = view.getByRole('region', { name: 'GET /pets', exact: true });
    await missing.getByText(`The API specification at ${unknown} is not available: no API specification of the organization is fetched from ${unknown}`).waitFor();
    assert.equal(await missing.getByRole('button').count(), 0, 'the page view changes nothing');
    await screenshot(page, 'page-view-openapi-blocks', { fullPage: true });
    await suite.assertAccessible(page, 'the page view with OpenAPI blocks');
  });

  test('an integration\'s `/` item shows its icon and description; its block\'s toolbar refreshes it, opens its settings, deletes it', async () => {
    const { t, origin } = suite;
    let renders = 0;
    receiver.answer((request) => {
      const props = (JSON.parse(request.body) as Json).props ?? {};
      renders += 1;
      return { status: 200, body: { type: 'element', element: { type: 'block', children: [{ type: 'text', children: [`Render ${renders}`] }] }, state: {}, props } };
    });
    const integration = await buildIntegration(t, {
      title: 'Greeter',
      endpoint: receiver.url,
      icon: PNG,
      blocks: [{ id: 'greeting', title: 'Greeting card', description: 'A greeting drawn\n  by the Greeter' }],
    });
    const space = await buildSpace(t, { title: 'Integration toolbar' });
    const installation = await buildInstallation(t, integration.name, { spaces: [space.id] });
    const batch = ok(await t.api('POST', `/v1/spaces/${space.id}/content`, { body: { changes: [{ operation: 'insert_page', title: 'Greetings', document: { markdown: 'Greeting goes here.\n' } }] } }));
    const pageId = batch.changes[0].page.id;
    const saved = async () => ok(await t.api('GET', `/v1/spaces/${space.id}/content/page/${pageId}?format=document`)).document;

    const page = await suite.signedIn();
    await page.goto(`${origin}/app/s/${space.id}/~/edit/${pageId}`);
    await content(page).waitFor();

    // The `/` item: the integration's icon, served by this server, and the manifest's description on one line.
    const target = content(page).locator('p', { hasText: 'Greeting goes here.' });
    await target.click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('/Greeting');
    const item = page.getByRole('listbox', { name: 'Insert a block' }).getByRole('option', { name: /^Greeting card/ });
    await item.getByText('A greeting drawn by the Greeter', { exact: true }).waitFor();
    const icon = item.locator('img');
    assert.equal(await icon.getAttribute('src'), integration.urls.icon);
    assert.ok(integration.urls.icon.startsWith(`${origin}/`), integration.urls.icon);
    await eventually(async () => (await icon.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)) === 1, 10_000, 'the icon loaded');
    await screenshot(page, 'editor-integration-slash-item');
    await suite.assertAccessible(page, 'the `/` menu with an integration\'s block');
    await page.keyboard.press('Enter');

    // The block inserted is selected: its toolbar.
    const block = content(page).getByRole('group', { name: `Integration block ${integration.name}: greeting` });
    await block.getByText('Render 1', { exact: true }).waitFor();
    const toolbar = page.getByRole('group', { name: 'Integration block settings' });
    const settingsLink = toolbar.getByRole('link', { name: 'Settings of Greeter' });
    assert.equal(await settingsLink.getAttribute('href'), installation.urls.app);
    await screenshot(page, 'editor-integration-toolbar');
    await suite.assertAccessible(page, 'an integration block\'s toolbar');
    await toolbar.getByRole('button', { name: 'Refresh' }).click();
    await block.getByText('Render 2', { exact: true }).waitFor();
    await eventually(async () => JSON.stringify(await saved()).includes('"type":"integration"'), 30_000, 'the integration block saved');

    await toolbar.getByRole('button', { name: 'Delete' }).click();
    await block.waitFor({ state: 'detached' });
    await eventually(async () => !JSON.stringify(await saved()).includes('"type":"integration"'), 30_000, 'the integration block deleted');
  });
});
