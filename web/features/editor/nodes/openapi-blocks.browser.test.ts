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
import { petstoreYaml } from '../../../../test/fixtures/openapi.ts';

/*
 * Issue 42's API blocks, written in the editor: an operation of the organization's OpenAPI spec inserted from the
 * `/` menu (spec, then operation, searched), drawn as readers see it, changed from its settings toolbar, and saved
 * in GitBook's shape; a block declared by an installed integration inserted from `/` and drawn by the integration's
 * ContentKit render, its props stored when its component asks, and a failed render shown with its reason while the
 * block is kept as it is.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe('OpenAPI and integration blocks in the editor, in Chromium', { skip: withoutChromium, timeout: 300_000 }, () => {
  // The integration's endpoint (a local receiver) is on 127.0.0.1: private fetches allowed.
  const suite = webAppSuite({ env: { ALLOW_PRIVATE_FETCH: 'true' } });
  const spec = OfficialSpec.loadLatest();
  const content = (page: Page) => page.getByRole('textbox', { name: 'Page content' });
  let receiver: Receiver;

  before(async () => {
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver?.close();
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
});
