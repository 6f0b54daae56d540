import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok } from '../../../test/assertions.ts';
import { buildChangeRequest, buildPage, buildSpace, editLive, writeContent } from '../../../test/factories.ts';
import { png } from '../../../test/fixtures/png.ts';
import { corpusChanges, corpusPages } from '../../../test/corpus/pages.ts';
import { readPdf } from '../../../test/pdf-text.ts';

let files = 0;

/** Downloads the PDF behind a URL of the API and answers its bytes, its number of pages and its text as a reader extracts it. */
async function download(t: TestServer, url: string): Promise<{ status: number; headers: Record<string, unknown>; bytes: Buffer; text: string; pages: number }> {
  const path = new URL(url).pathname;
  const res = await t.app.inject({ method: 'GET', url: path });
  const bytes = res.rawPayload;
  if (res.statusCode !== 200) return { status: res.statusCode, headers: res.headers, bytes, text: '', pages: 0 };
  if (process.env.KEEP_PDF) writeFileSync(join(process.env.KEEP_PDF, `${(files += 1)}.pdf`), bytes);
  const { text, pages } = await readPdf(bytes);
  return { status: 200, headers: res.headers, bytes, text, pages };
}

async function pagesOfSpace(t: TestServer, spaceId: string): Promise<string[]> {
  return ok(await t.api('GET', `/v1/spaces/${spaceId}/content`)).pages.map((p: { id: string }) => p.id);
}

/** Positions of each needle in the text, failing when one is missing or out of order. */
function assertInOrder(text: string, needles: readonly string[]): void {
  let from = 0;
  for (const needle of needles) {
    const at = text.indexOf(needle, from);
    assert.ok(at >= 0, `"${needle}" is missing after position ${from}`);
    from = at + needle.length;
  }
}

describe('PDF export', () => {
  let t: TestServer;
  before(async () => (t = await startServer()));
  after(() => t.close());

  test('a PDF of a 50-page space opens, lists every page in its contents and extracts their text in tree order', async () => {
    const space = await buildSpace(t, { title: 'Big manual' });
    const titles = Array.from({ length: 50 }, (_, i) => `Chapter ${String(i + 1).padStart(2, '0')}`);
    const ids = await editLive(
      t,
      space.id,
      titles.slice(0, 40).map((title) => ({ operation: 'insert_page', title, document: { markdown: `Body of ${title.toLowerCase()}.` } })),
    );
    // Ten more as sub-pages of the first chapter: they come right after it in tree order.
    await editLive(
      t,
      space.id,
      titles.slice(40).map((title) => ({ operation: 'insert_page', title, into: ids[0], document: { markdown: `Body of ${title.toLowerCase()}.` } })),
    );
    const { url } = ok(await t.api('GET', `/v1/spaces/${space.id}/pdf`));
    assert.match(url, /^http:\/\/quire\.test\/pdf\//);
    const pdf = await download(t, url);
    assert.equal(pdf.status, 200);
    assert.equal(pdf.headers['content-type'], 'application/pdf');
    assert.match(String(pdf.headers['content-disposition']), /filename="Big manual\.pdf"/);
    assert.equal(pdf.bytes.subarray(0, 5).toString('latin1'), '%PDF-');
    assert.ok(pdf.pages >= 51, `a title page and a page per chapter, got ${pdf.pages}`);

    const order = [titles[0]!, ...titles.slice(40), ...titles.slice(1, 40)];
    const contentsEnd = pdf.text.indexOf('Body of');
    const contents = pdf.text.slice(0, contentsEnd);
    assertInOrder(contents, ['Big manual', 'Contents', ...order]);
    assertInOrder(pdf.text.slice(contentsEnd - 200), order.flatMap((title) => [title, `Body of ${title.toLowerCase()}.`]));
    // Every entry of the contents is a link to its page, and every page is numbered at its foot.
    const links = pdf.bytes.toString('latin1').match(/\/Subtype \/Link/g) ?? [];
    assert.ok(links.length >= 50, `links in the contents: ${links.length}`);
    assert.match(pdf.text, /Big manual — 51/);
  });

  test('headings, code blocks, tables, hints and images are laid out legibly', async () => {
    const space = await buildSpace(t, { title: 'Rich' });
    const cr = await buildChangeRequest(t, space.id);
    const [fileId] = await writeContent(t, space.id, cr.id, [
      { operation: 'insert_files', files: [{ name: 'diagram.png', contentType: 'image/png', base64: png(40, 20).toString('base64') }] },
    ]);
    void fileId;
    const revision = ok(await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`));
    const file = revision.files.find((f: { name: string }) => f.name === 'diagram.png');
    const markdown = [
      '## Installing',
      '',
      'Run the **installer** with `--fast`, then read [the guide](https://example.test/guide).',
      '',
      '```bash',
      'npm install quire',
      'quire serve --port 8080',
      '```',
      '',
      '| Setting | Default |',
      '| --- | --- |',
      '| PORT | 8080 |',
      '| HOST | 0.0.0.0 |',
      '',
      '{% hint style="warning" %}',
      'Back up the data folder first.',
      '{% endhint %}',
      '',
      `![A diagram of the parts](/files/${file.id})`,
      '',
      '1. First step',
      '2. Second step',
    ].join('\n');
    await writeContent(t, space.id, cr.id, [{ operation: 'insert_page', title: 'Setup', document: { markdown } }]);
    const { url } = ok(await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/pdf`));
    const pdf = await download(t, url);
    assert.equal(pdf.status, 200);
    assertInOrder(pdf.text, [
      'Rich',
      `Change request #${cr.number}`,
      'Contents',
      'Setup',
      'Setup',
      'Installing',
      'Run the installer with --fast, then read the guide.',
      'npm install quire',
      'quire serve --port 8080',
      'Setting',
      'Default',
      'PORT',
      '8080',
      'HOST',
      '0.0.0.0',
      'Warning',
      'Back up the data folder first.',
      'A diagram of the parts',
      '1.',
      'First step',
      'Second step',
    ]);
    const raw = pdf.bytes.toString('latin1');
    assert.match(raw, /\/Subtype \/Image/, 'the PNG is drawn');
    assert.match(raw, /https:\/\/example\.test\/guide/, 'the link is kept');
    // The change request's page is not in the space's own content.
    const spacePdf = await download(t, ok(await t.api('GET', `/v1/spaces/${space.id}/pdf`)).url);
    assert.ok(!spacePdf.text.includes('Installing'));
  });

  test('text beyond Latin-1 prints with DejaVu (the machine\'s, else the one bundled from npm)', async () => {
    const space = await buildSpace(t, { title: 'Справочник' });
    await buildPage(t, space.id, { title: 'Введение', markdown: 'Привет, мир. Καλημέρα. Zażółć gęślą jaźń.' });
    const pdf = await download(t, ok(await t.api('GET', `/v1/spaces/${space.id}/pdf`)).url);
    assertInOrder(pdf.text, ['Справочник', 'Введение', 'Введение', 'Привет, мир. Καλημέρα. Zażółć gęślą jaźń.']);
  });

  test('page prints a page with its sub-pages; with only, that page alone', async () => {
    const space = await buildSpace(t, { title: 'Parts' });
    const parent = await buildPage(t, space.id, { title: 'Parent', markdown: 'Parent text.' });
    await buildPage(t, space.id, { title: 'Child', markdown: 'Child text.', parent });
    await buildPage(t, space.id, { title: 'Sibling', markdown: 'Sibling text.' });
    const withChildren = await download(t, ok(await t.api('GET', `/v1/spaces/${space.id}/pdf?page=${parent}`)).url);
    assertInOrder(withChildren.text, ['Parent text.', 'Child text.']);
    assert.ok(!withChildren.text.includes('Sibling text.'));
    const alone = await download(t, ok(await t.api('GET', `/v1/spaces/${space.id}/pdf?page=${parent}&only=true`)).url);
    assert.match(alone.text, /Parent text\./);
    assert.ok(!alone.text.includes('Child text.'));
    assertError(await t.api('GET', `/v1/spaces/${space.id}/pdf?only=true`), 400, /page/);
    assertError(await t.api('GET', `/v1/spaces/${space.id}/pdf?page=nope`), 404, /nope/);
  });

  test('a PDF URL works for one hour and cannot be forged', async () => {
    const space = await buildSpace(t, { title: 'Short-lived' });
    await buildPage(t, space.id, { title: 'Only page' });
    const { url } = ok(await t.api('GET', `/v1/spaces/${space.id}/pdf`));
    const path = new URL(url).pathname;
    const [body, signature] = path.slice('/pdf/'.length).split('.');
    const forged = JSON.parse(Buffer.from(body!, 'base64url').toString('utf8'));
    forged.e += 10 * 60 * 60 * 1000;
    const res = await t.app.inject({ method: 'GET', url: `/pdf/${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${signature}` });
    assert.equal(res.statusCode, 404);
    assert.equal((await t.app.inject({ method: 'GET', url: '/pdf/garbage' })).statusCode, 404);
    t.clock.advance(59 * 60 * 1000);
    assert.equal((await download(t, url)).status, 200);
    t.clock.advance(2 * 60 * 1000);
    const expired = await t.app.inject({ method: 'GET', url: path });
    assert.equal(expired.statusCode, 404);
    assert.match(expired.json().error.message, /expired/);
  });

  test('long titles in any script still make a working URL', async () => {
    const space = await buildSpace(t, { title: '文'.repeat(50) });
    await buildPage(t, space.id, { title: 'Page' });
    const cr = ok(await t.api('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'Ж'.repeat(100) } }), 201);
    const { url } = ok(await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/pdf?page=${(await pagesOfSpace(t, space.id))[0]}&only=true`));
    assert.ok(new URL(url).pathname.length < 500, `path of ${new URL(url).pathname.length} characters`);
    const pdf = await download(t, url);
    assert.equal(pdf.status, 200);
    assert.match(String(pdf.headers['content-disposition']), /filename\*=UTF-8''(%E6%96%87)+%E2%80%A6\.pdf/);
  });

  test('a PDF URL of a space deleted since stops working', async () => {
    const space = await buildSpace(t, { title: 'Doomed' });
    await buildPage(t, space.id, { title: 'Soon gone' });
    const { url } = ok(await t.api('GET', `/v1/spaces/${space.id}/pdf`));
    assert.equal((await t.api('DELETE', `/v1/spaces/${space.id}`)).status, 204);
    assert.equal((await download(t, url)).status, 404);
  });

  test('only callers who can read the content get a PDF URL', async () => {
    const space = await buildSpace(t, { title: 'Private' });
    const cr = await buildChangeRequest(t, space.id);
    const outsider = await t.outsider();
    assertError(await t.api('GET', `/v1/spaces/${space.id}/pdf`, { token: outsider.token }), 404);
    assertError(await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/pdf`, { token: outsider.token }), 404);
    assertError(await t.api('GET', `/v1/spaces/${space.id}/pdf`, { token: null }), 401);
    const reader = await t.member('read');
    ok(await t.api('GET', `/v1/spaces/${space.id}/pdf`, { token: reader.token }));
    assertError(await t.api('GET', `/v1/spaces/${space.id}/change-requests/999/pdf`), 404);
  });

  test("a published site's PDF is titled after the site, and refused when its customization turns PDF off", async () => {
    const space = await buildSpace(t, { title: 'Site space' });
    await buildPage(t, space.id, { title: 'Welcome', markdown: 'Hello readers.' });
    const site = ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites`, { body: { title: 'Acme Docs', spaces: [space.id] } }), 201);
    const { url } = ok(await t.api('GET', `/v1/orgs/${t.org.id}/sites/${site.id}/pdf`));
    const pdf = await download(t, url);
    assertInOrder(pdf.text, ['Acme Docs', 'Site space', 'Contents', 'Welcome', 'Welcome', 'Hello readers.']);
    assert.match(pdf.text, /Acme Docs — 2/);

    const customization = ok(await t.api('GET', `/v1/orgs/${t.org.id}/sites/${site.id}/customization`));
    ok(await t.api('PUT', `/v1/orgs/${t.org.id}/sites/${site.id}/customization`, { body: { ...customization, pdf: { enabled: false } } }));
    assertError(await t.api('GET', `/v1/orgs/${t.org.id}/sites/${site.id}/pdf`), 403, /pdf\.enabled/);
    assertError(await t.api('GET', `/v1/orgs/${t.org.id}/sites/${site.id}/pdf?siteSpace=nope`), 403);
  });
});

describe('PDF export of real documentation', () => {
  let t: TestServer;
  before(async () => (t = await startServer()));
  after(() => t.close());

  test('the GitBook docs (182 pages of real markdown) print every page, in order, with their text', { timeout: 180_000 }, async () => {
    const pages = corpusPages();
    assert.ok(pages.length >= 150, `corpus pages: ${pages.length}`);
    const space = await buildSpace(t, { title: 'GitBook docs' });
    const changes = corpusChanges(pages);
    for (let i = 0; i < changes.length; i += 50) await editLive(t, space.id, changes.slice(i, i + 50));
    const started = Date.now();
    const pdf = await download(t, ok(await t.api('GET', `/v1/spaces/${space.id}/pdf`)).url);
    const seconds = (Date.now() - started) / 1000;
    assert.equal(pdf.status, 200);
    assert.ok(pdf.pages > pages.length, `${pdf.pages} PDF pages for ${pages.length} pages (${seconds.toFixed(1)} s)`);
    // Page titles follow the contents in the order of the space (a title wrapped over two lines reads with a line
    // break where it had a space, so titles are compared without their spacing).
    const flat = pdf.text.replace(/\s+/g, '');
    const afterContents = flat.indexOf(pages[0]!.title.replace(/\s+/g, ''), flat.indexOf(pages[pages.length - 1]!.title.replace(/\s+/g, '')) + 1);
    assertInOrder(flat.slice(afterContents), pages.map((p) => p.title.replace(/\s+/g, '')));
    console.log(`# corpus PDF: ${pages.length} pages -> ${pdf.pages} PDF pages, ${(pdf.bytes.length / 1024).toFixed(0)} KiB, ${seconds.toFixed(1)} s`);
  });
});

describe('PDF export limits', () => {
  let t: TestServer;
  before(async () => (t = await startServer({ env: { PDF_MAX_PAGES: '3' } })));
  after(() => t.close());

  test('a scope larger than PDF_MAX_PAGES prints its first pages and says how many were left out', async () => {
    const space = await buildSpace(t, { title: 'Bounded' });
    await editLive(
      t,
      space.id,
      ['One', 'Two', 'Three', 'Four', 'Five'].map((title) => ({ operation: 'insert_page', title, document: { markdown: `${title} text.` } })),
    );
    const pdf = await download(t, ok(await t.api('GET', `/v1/spaces/${space.id}/pdf`)).url);
    assertInOrder(pdf.text, ['One text.', 'Two text.', 'Three text.', '2 more pages are not included']);
    assert.ok(!pdf.text.includes('Four text.'));
  });
});
