// @sqlite-run-only: where a screen shows the API's refusals of bad input; the server refuses them before it writes anything, and the API tests check each refusal on both databases.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { screenshot, withoutChromium } from '../../test/browser.ts';
import { webAppSuite } from '../../test/browser-suite.ts';

/*
 * The API's refusal beside the field it names (issue 41): input the browser lets through but the server refuses
 * ("body/expiresAt must be in the future", "body/title must NOT have fewer than 2 characters", "body/hostname must
 * match …") shows under that field, which is marked invalid and described by it; what was typed stays, and
 * nothing is left under the form. Real refusals of the server, not made-up ones.
 */
describe('the API’s refusals beside the fields they name, in Chromium', { skip: withoutChromium, timeout: 300_000 }, () => {
  const web = webAppSuite();

  async function refusedBeside(page: Page, field: Locator, message: RegExp, typed: string, where: string): Promise<void> {
    const described = async () => {
      const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
      return Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).innerText()));
    };
    await page.waitForFunction((element) => element?.getAttribute('aria-invalid') === 'true', await field.elementHandle(), { timeout: 10_000 });
    assert.ok((await described()).some((text) => message.test(text)), `${where}: the field is described by the API's message (${JSON.stringify(await described())})`);
    assert.equal(await field.inputValue(), typed, `${where}: what was typed stays`);
    await web.assertAccessible(page, where);
  }

  test('a token that expires in the past: the refusal is beside "Expires on", the label and the date kept', async () => {
    const page = await web.signedIn();
    await page.goto(`${web.origin}/app/settings/tokens`);
    await web.settled(page);
    const form = page.getByRole('region', { name: 'Create a token' });
    await form.getByLabel('Label').fill('Nightly export');
    await form.getByLabel('Expires on').fill('2020-01-01');
    await form.getByRole('button', { name: 'Create token' }).click();
    await refusedBeside(page, form.getByLabel('Expires on'), /expiresAt must be in the future/, '2020-01-01', 'the token form');
    assert.equal(await form.getByLabel('Label').inputValue(), 'Nightly export');
    assert.equal(await form.getByLabel('Label').getAttribute('aria-invalid'), null, 'only the field named is marked');
    assert.equal(await page.locator('.error-note').count(), 0, 'nothing under the form');
    await screenshot(page, 'field-error-token');
    await page.context().close();
  });

  test('the organization’s settings: a title too short once trimmed and a subdomain out of the pattern, each beside its field', async () => {
    const page = await web.signedIn();
    await page.goto(`${web.origin}/app/o/${web.t.org.id}/settings`);
    await web.settled(page);
    const title = page.getByLabel('Title', { exact: true });
    await title.fill('  Q ');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await refusedBeside(page, title, /title must NOT have fewer than 2 characters/, '  Q ', 'the settings with a short title');
    await screenshot(page, 'field-error-settings');

    await title.fill('Acme docs');
    const subdomain = page.getByLabel('Subdomain');
    await subdomain.fill('Not_A_Subdomain');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await refusedBeside(page, subdomain, /^hostname /, 'Not_A_Subdomain', 'the settings with a wrong subdomain');
    assert.equal(await title.getAttribute('aria-invalid'), null, 'the title, fixed, is no longer marked');
    assert.equal(await title.inputValue(), 'Acme docs');
    await page.context().close();
  });

  test('a team named with spaces only: the refusal is beside "Team name"', async () => {
    const page = await web.signedIn();
    await page.goto(`${web.origin}/app/o/${web.t.org.id}/teams`);
    await web.settled(page);
    const name = page.getByLabel('Team name');
    await name.fill('   ');
    await page.getByRole('button', { name: 'Create team' }).click();
    await refusedBeside(page, name, /title must NOT have fewer than 1 characters/, '   ', 'the new team form');
    await page.context().close();
  });
});
