// @sqlite-run-only: how the reader draws an operation in Chromium; storing and building specs is tested on both databases (openapi specs, reader).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { listenOnRandomPort, startServer, type TestServer } from '../../../test/helpers.ts';
import { releaseChromium, suiteChromium, withoutChromium, screenshot } from '../../../test/browser.ts';
import { buildOpenAPISpec, buildSpace, editLive } from '../../../test/factories.ts';
import { ok } from '../../../test/assertions.ts';
import { petstoreYaml } from '../../../test/fixtures/openapi.ts';

/*
 * An API reference page as a person reads it, in Debian's Chromium (skipped, with the reason, where it is not
 * installed): a page embedding an operation of a stored spec shows its method, path, parameters and a curl
 * command that the copy button puts on the clipboard. Screenshot in test-results/.
 */

describe('an API reference page in Chromium', { skip: withoutChromium }, () => {
  let t: TestServer;
  let origin: string;
  let browser: Browser;

  before(async () => {
    t = await startServer();
    origin = await listenOnRandomPort(t);
    browser = await suiteChromium();
  });
  after(async () => {
    await releaseChromium(browser);
    await t?.close();
  });

  test('a page embedding an operation shows method, path, parameters and a curl command to copy', async () => {
    await buildOpenAPISpec(t, 'petstore', { text: petstoreYaml() });
    const space = await buildSpace(t, { title: 'API' });
    const operation = { object: 'block', type: 'openapi-operation', isVoid: true, data: { ref: { kind: 'openapi', spec: 'petstore' }, method: 'get', path: '/pets/{petId}' } };
    await editLive(t, space.id, [
      { operation: 'insert_page', title: 'Get a pet', document: { document: { object: 'document', data: {}, nodes: [operation] } } },
    ]);
    const site = ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites`, { body: { title: 'Petstore docs', visibility: 'public', spaces: [space.id] } }), 201);
    ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites/${site.id}/publish`));

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    const page = await context.newPage();
    const response = await page.goto(`${origin}/sites/${site.id}/`);
    assert.equal(response?.status(), 200);

    const section = page.locator('main section.openapi-operation');
    assert.equal(await section.locator('.http-method').innerText(), 'GET');
    assert.equal(await section.locator('.openapi-path').innerText(), '/pets/{petId}');
    const parameters = section.locator('.openapi-section', { hasText: 'Path parameters' });
    assert.equal(await parameters.isVisible(), true);
    assert.match(await parameters.innerText(), /petId\s+string\s+required/);
    assert.match(await section.locator('.openapi-section', { hasText: 'Headers' }).innerText(), /X-Request-Id/);
    const responses = section.locator('.openapi-response');
    assert.equal(await responses.count(), 2);
    assert.equal(await responses.first().locator('.openapi-name').first().isVisible(), true, 'the 2xx response is open');

    const curl = section.locator('figure.code-block', { hasText: 'curl -X' });
    assert.match(await curl.locator('pre').innerText(), /^curl -X GET 'https:\/\/eu\.petstore\.example\.com\/v1\/pets\/\{petId\}'/);
    const copy = curl.locator('.copy-button');
    assert.equal(await copy.isVisible(), true, 'the script shows the copy button');
    await copy.click();
    await page.waitForFunction((button) => button?.textContent === 'Copied', await copy.elementHandle());
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(copied, /^curl -X GET 'https:\/\/eu\.petstore\.example\.com\/v1\/pets\/\{petId\}' \\\n {2}-H 'Authorization: Bearer YOUR_TOKEN'$/);
    // A full-page capture draws sticky parts where the viewport was: from the top, they sit where readers see them.
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'reader-openapi-operation', { fullPage: true });
    await context.close();
  });
});
