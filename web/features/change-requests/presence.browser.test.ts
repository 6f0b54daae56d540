import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, test } from 'node:test';
import { screenshot, withoutChromium } from '../../../test/browser.ts';
import { webAppSuite } from '../../../test/browser-suite.ts';
import { ok } from '../../../test/assertions.ts';
import { buildChangeRequest, buildPage, buildSpace, writeContent, markdown } from '../../../test/factories.ts';
import { seriousViolations } from '../../../test/web-app.ts';

/*
 * Who is in which page of a change request (issue 31), as a reviewer sees it in Chromium: an engineer has a page
 * of the change request open in the editor; the writer's change request screen shows it, names the engineer, and
 * takes the writer into the page beside them.
 */

const HAS_BLOCK_EDITOR = existsSync(new URL('../editor/page-editor.tsx', import.meta.url));

describe('who is in which page of a change request, in Chromium', { skip: withoutChromium || (HAS_BLOCK_EDITOR ? false : 'no block editor in this build'), timeout: 300_000 }, () => {
  const suite = webAppSuite();

  test('the change request screen shows who has which page open in the editor, and its links join them there', async () => {
    const { t, origin } = suite;
    const space = await buildSpace(t, { title: 'Operations' });
    await buildPage(t, space.id, { title: 'Overview', markdown: 'What we run.' });
    ok(await t.api('PATCH', `/v1/spaces/${space.id}`, { body: { editMode: 'change-requests' } }));
    const cr = await buildChangeRequest(t, space.id, { subject: 'Rework the runbook' });
    const [runbook] = await writeContent(t, space.id, cr.id, [{ operation: 'insert_page', title: 'Runbook', document: markdown('First step.') }]);
    const engineer = await t.member('edit');
    const engineerName = ok(await t.api('GET', '/v1/user', { token: engineer.token })).displayName as string;
    const writerName = ok(await t.api('GET', '/v1/user')).displayName as string;

    const writer = await suite.signedIn(t.admin.userId);
    await writer.goto(`${origin}/app/s/${space.id}/~/changes/${cr.number}`);
    const inTheEditor = writer.getByRole('region', { name: 'In the editor now' });
    await inTheEditor.getByText('Nobody has a page of this change request open.').waitFor();

    // The engineer opens the page in the editor; the writer's screen learns it without being reloaded.
    const other = await suite.signedIn(engineer.userId);
    await other.goto(`${origin}/app/s/${space.id}/~/edit/${runbook}?changeRequest=${cr.id}`);
    await other.getByRole('textbox', { name: 'Page content' }).waitFor();
    const people = inTheEditor.getByRole('list', { name: 'People in “Runbook”' });
    await people.getByRole('img', { name: `${engineerName} is editing` }).waitFor({ timeout: 20_000 });
    assert.equal(await people.getByRole('img').count(), 1);

    // The page's diff offers the same way in as the list does.
    await writer.getByRole('region', { name: 'Changed pages' }).getByRole('link', { name: 'Runbook' }).click();
    const editLink = writer.getByRole('link', { name: 'Edit this page together' });
    assert.equal(await editLink.getAttribute('href'), `/app/s/${space.id}/~/edit/${runbook}?changeRequest=${cr.id}`);
    assert.deepEqual(await seriousViolations(writer), []);
    await screenshot(writer, 'change-request-presence');

    await inTheEditor.getByRole('link', { name: 'Join the editing of “Runbook”' }).click();
    await writer.getByRole('textbox', { name: 'Page content' }).waitFor();
    assert.match(await writer.getByRole('status', { name: 'Save status' }).innerText(), new RegExp(`Editing in change request #${cr.number}`));
    for (const page of [writer, other]) await page.getByRole('list', { name: 'People in this page' }).getByRole('listitem').nth(1).waitFor({ timeout: 20_000 });

    // Seen from a third screen: both are in the page now; the engineer leaves, and only the writer is left.
    const reader = await suite.signedIn(engineer.userId);
    await reader.goto(`${origin}/app/s/${space.id}/~/changes/${cr.number}`);
    const seen = reader.getByRole('region', { name: 'In the editor now' }).getByRole('list', { name: 'People in “Runbook”' });
    await seen.getByRole('img', { name: `${writerName} is editing` }).waitFor({ timeout: 20_000 });
    await seen.getByRole('img', { name: `${engineerName} is editing` }).waitFor();
    await other.context().close();
    await seen.getByRole('img', { name: `${engineerName} is editing` }).waitFor({ state: 'detached', timeout: 20_000 });
    assert.equal(await seen.getByRole('img').count(), 1);

    await writer.context().close();
    await reader.context().close();
  });
});
