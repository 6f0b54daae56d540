// @sqlite-run-only: the editor's paste in the browser, on a blank page; the server only serves the editor's chunk.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { Document } from '../../../../src/features/content/document/types.ts';
import { screenshot, withoutChromium } from '../../../../test/browser.ts';
import { seriousViolations } from '../../../../test/web-app.ts';
import { lastChange, mountEditor, type MountOptions } from '../../../../test/editor/mounted-editor.ts';
import { mountedEditorSuite } from '../../../../test/editor/mounted-editor-suite.ts';

/*
 * Pasting from Google Docs and Word in Chromium: the clipboard's HTML (as those put it there) dispatched as a paste
 * into the editor, the blocks it reports checked: tables, nested lists and images kept, local images said.
 */

const EMPTY: Document = { object: 'document', data: {}, nodes: [] };
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const span = (text: string, style = '') => `<span style="font-size:11pt;font-family:Arial,sans-serif;${style}white-space:pre-wrap;">${text}</span>`;
const cell = (text: string) => `<td style="border-left:solid #000000 1pt;padding:5pt;"><p dir="ltr" style="line-height:1.2;">${span(text)}</p></td>`;
const GOOGLE_DOCS =
  `<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-2f1e3d4c-7fff-aaaa-bbbb-0123456789ab">` +
  `<p dir="ltr">${span('Release plan', 'font-weight:700;')}</p><br>` +
  `<div dir="ltr" align="left"><table style="border:none;border-collapse:collapse;"><colgroup><col width="120"><col width="200"></colgroup><tbody>` +
  `<tr>${cell('Company')}${cell('Status')}</tr><tr>${cell('Acme')}${cell('In progress')}</tr></tbody></table></div><br>` +
  `<ul><li aria-level="1"><p role="presentation">${span('Ship it')}</p></li><ul><li aria-level="2"><p role="presentation">${span('Tell support')}</p></li></ul></ul>` +
  `<p dir="ltr"><span style="overflow:hidden;display:inline-block;width:120px;height:80px;"><img src="${PNG}" width="120" height="80"></span></p></b>`;

const WORD_WITH_LOCAL_IMAGE =
  `<html xmlns:o="urn:schemas-microsoft-com:office:office"><body><!--StartFragment-->` +
  `<p class=MsoListParagraphCxSpFirst style='text-indent:-.25in;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol'><span style='mso-list:Ignore'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp; </span></span></span><![endif]>Word bullet one<o:p></o:p></p>` +
  `<p class=MsoNormal><img width=200 height=100 src="file:///C:/Users/ada/AppData/Local/Temp/msohtmlclip1/01/clip_image002.png"><o:p></o:p></p><!--EndFragment--></body></html>`;

describe('pasting from Google Docs and Word, in Chromium', { skip: withoutChromium, timeout: 300_000 }, () => {
  const suite = mountedEditorSuite();
  let page: Page;
  let options: MountOptions;
  before(() => {
    ({ page, options } = suite);
  });

  async function paste(html: string, plain: string): Promise<void> {
    await page.evaluate(`(() => {
      const data = new DataTransfer();
      data.setData('text/plain', ${JSON.stringify(plain)});
      data.setData('text/html', ${JSON.stringify(html)});
      document.querySelector('.qe-content').dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    })()`);
  }

  test('Google Docs: the table, the nested list and the image come as blocks; the image is stored as a file of the space', async () => {
    await mountEditor(page, EMPTY, options);
    await page.locator('.qe-content').click();
    await paste(GOOGLE_DOCS, 'Release plan\nCompany\tStatus\nAcme\tIn progress\nShip it\nTell support');
    await page.locator('.qe-content img').first().waitFor();
    const document = (await lastChange(page))!;
    assert.deepEqual(document.nodes.map((b) => b.type), ['paragraph', 'table', 'list-unordered', 'images']);
    const table = JSON.stringify(document.nodes[1]);
    for (const text of ['Company', 'Status', 'Acme', 'In progress']) assert.ok(table.includes(`"${text}"`), text);
    assert.match(JSON.stringify(document.nodes[2]), /"list-unordered".*"Tell support"/s, 'the nested list inside the first item');
    assert.deepEqual((document.nodes[3] as unknown as { nodes: { data: { ref: unknown } }[] }).nodes[0]!.data.ref, { kind: 'file', file: 'uploaded-1' });
    assert.deepEqual(await page.evaluate(() => (window as unknown as { __uploads: string[] }).__uploads), ['pasted-image-1.png']);
    const shown = page.getByRole('group', { name: 'Table' });
    assert.equal(await shown.getByLabel('Column title Status').inputValue(), 'Status');
    assert.equal(await shown.getByLabel('Row 1, Status').inputValue(), 'In progress');
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'editor-paste-google-docs');
  });

  test('Word: a bullet becomes a list item, and an image on the person\'s computer is said, not silently dropped', async () => {
    await mountEditor(page, EMPTY, options);
    await page.locator('.qe-content').click();
    await paste(WORD_WITH_LOCAL_IMAGE, '·  Word bullet one');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match((await alert.textContent()) ?? '', /1 image is only on your computer/);
    await page.waitForFunction(() => JSON.stringify((window as unknown as { __changes: unknown[] }).__changes.at(-1) ?? null).includes('Word bullet one'));
    const document = (await lastChange(page))!;
    assert.deepEqual(document.nodes.map((b) => b.type), ['list-unordered']);
    assert.doesNotMatch(JSON.stringify(document), /·|file:\/\//);
  });

  test('a web page: its images are fetched by the server into the space; one it cannot fetch stays a link to it', async () => {
    const webPage = '<article><h2>Gallery</h2><p><img src="https://example.com/a.png" alt="First"></p><p><img src="https://example.com/b.png" alt="Second"></p></article>';
    await mountEditor(page, EMPTY, options);
    // The server refuses the second (a private address, a 404): it stays a link to the page's image.
    await page.evaluate(() => ((window as unknown as { __importFailure: string }).__importFailure = 'b.png'));
    await page.locator('.qe-content').click();
    await paste(webPage, 'Gallery');
    await page.waitForFunction(() => JSON.stringify((window as unknown as { __changes: unknown[] }).__changes.at(-1) ?? null).includes('Second'));
    const refs = JSON.stringify(await lastChange(page)).match(/"ref":\{[^}]*\}/g);
    assert.deepEqual(refs, ['"ref":{"kind":"file","file":"imported-1"}', '"ref":{"kind":"url","url":"https://example.com/b.png"}']);
    assert.deepEqual(await page.evaluate(() => (window as unknown as { __imports: string[] }).__imports), ['https://example.com/a.png', 'https://example.com/b.png']);
  });
});
