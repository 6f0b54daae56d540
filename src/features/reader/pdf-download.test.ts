import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { buildSpace, editLive } from '../../../test/factories.ts';
import { ok } from '../../../test/assertions.ts';
import { readPdf } from '../../../test/pdf-text.ts';

/*
 * The reader's PDF links (GitBook's `~gitbook/pdf`): a visitor without an API token downloads what they may
 * read of a site whose customization has pdf.enabled, and nothing else. pdf.js reads the result.
 */

describe('the reader offers PDFs of what a visitor reads', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());
  const sites = () => `/v1/orgs/${t.org.id}/sites`;

  async function get(url: string, headers: Record<string, string> = {}) {
    const res = await t.app.inject({ method: 'GET', url, headers });
    return { status: res.statusCode, body: res.body, bytes: res.rawPayload, headers: res.headers };
  }

  const pdfText = async (bytes: Buffer): Promise<string> => (await readPdf(bytes)).text;

  async function site(visibility: 'public' | 'share-link', pdfEnabled: boolean) {
    const space = await buildSpace(t, { title: 'Handbook' });
    const [intro, guide] = await editLive(t, space.id, [
      { operation: 'insert_page', title: 'Introduction', document: { markdown: 'Welcome aboard.\n\n{% if visitor.claims.unsigned.beta %}\nBeta readers only paragraph.\n{% endif %}\n' } },
      { operation: 'insert_page', title: 'Guide', ref: 'guide', document: { markdown: 'The guide text.' } },
      { operation: 'insert_page', title: 'Install', into: 'guide', document: { markdown: 'Run the installer.' } },
      { operation: 'insert_page', title: 'Secret', hidden: true, document: { markdown: 'Hidden but reachable.' } },
      { operation: 'insert_page', title: 'Beta', condition: 'visitor.claims.unsigned.beta === true', document: { markdown: 'Beta page text.' } },
    ]);
    const created = ok(await t.api('POST', sites(), { body: { title: 'Acme Docs', visibility, spaces: [space.id] } }), 201);
    const customization = ok(await t.api('GET', `${sites()}/${created.id}/customization`));
    ok(await t.api('PUT', `${sites()}/${created.id}/customization`, { body: { ...customization, pdf: { enabled: pdfEnabled } } }));
    ok(await t.api('POST', `${sites()}/${created.id}/publish`));
    return { site: created, url: `/sites/${created.id}/`, intro: intro!, guide: guide! };
  }

  test('with pdf.enabled, a page links to its PDF and to its variant\'s; each holds the pages the visitor sees, in order', async () => {
    const { url, guide } = await site('public', true);
    const page = await get(`${url}guide`);
    assert.equal(page.status, 200);
    const links = [...page.body.matchAll(/<a href="([^"]*~gitbook\/pdf[^"]*)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));
    assert.equal(links.length, 2, 'this page, and all pages');
    assert.equal(links[0], `${url}~gitbook/pdf?page=${guide}&only=yes`);

    const one = await get(links[0]!);
    assert.equal(one.status, 200);
    assert.equal(one.headers['content-type'], 'application/pdf');
    assert.match(String(one.headers['content-disposition']), /filename="Acme Docs\.pdf"/);
    assert.equal(one.bytes.subarray(0, 5).toString(), '%PDF-');
    const oneText = await pdfText(one.bytes);
    assert.match(oneText, /The guide text\./);
    assert.doesNotMatch(oneText, /Run the installer/, 'only=yes prints the page alone');

    const withChildren = await pdfText((await get(`${url}~gitbook/pdf?page=${guide}`)).bytes);
    assert.ok(withChildren.indexOf('The guide text.') < withChildren.indexOf('Run the installer.') && withChildren.includes('Run the installer.'), 'a page then its sub-pages');

    const all = await pdfText((await get(links[1]!)).bytes);
    const positions = ['Welcome aboard.', 'The guide text.', 'Run the installer.'].map((needle) => all.indexOf(needle));
    assert.ok(positions.every((p, i) => p >= 0 && (i === 0 || p > positions[i - 1]!)), `pages in tree order: ${positions.join(', ')}`);
    assert.doesNotMatch(all, /Hidden but reachable/, 'a hidden page is not printed with the others');
    assert.doesNotMatch(all, /Beta page text|Beta readers only/, 'a page or block whose condition fails is not printed');

    // A visitor whose claims open the conditional page and block gets them.
    const beta = await pdfText((await get(`${url}~gitbook/pdf?visitor.beta=true`)).bytes);
    assert.match(beta, /Beta page text\./);
    assert.match(beta, /Beta readers only paragraph\./);
    // A page the visitor cannot see is a 404, as its URL would be.
    assert.equal((await get(`${url}~gitbook/pdf?page=no-such-page`)).status, 404);
  });

  test('a page that includes a reusable content prints what it includes', async () => {
    const space = await buildSpace(t, { title: 'Snippets' });
    await editLive(t, space.id, [
      { operation: 'insert_reusable_content', reusableContent: 'footer', title: 'Footer', document: { markdown: 'Printed from the reusable content.' } },
      { operation: 'insert_page', title: 'Guide', document: { markdown: 'The page itself.\n\n{% include "footer" %}' } },
    ]);
    const created = ok(await t.api('POST', sites(), { body: { title: 'Snippet Docs', visibility: 'public', spaces: [space.id] } }), 201);
    const customization = ok(await t.api('GET', `${sites()}/${created.id}/customization`));
    ok(await t.api('PUT', `${sites()}/${created.id}/customization`, { body: { ...customization, pdf: { enabled: true } } }));
    ok(await t.api('POST', `${sites()}/${created.id}/publish`));
    const text = await pdfText((await get(`/sites/${created.id}/~gitbook/pdf`)).bytes);
    assert.match(text, /The page itself\.[\s\S]*Printed from the reusable content\./);
  });

  test('without pdf.enabled there is no link and the PDF URL is a 404', async () => {
    const { url, intro } = await site('public', false);
    const page = await get(url);
    assert.equal(page.status, 200);
    assert.doesNotMatch(page.body, /~gitbook\/pdf/);
    const pdf = await get(`${url}~gitbook/pdf?page=${intro}`);
    assert.equal(pdf.status, 404);
    assert.doesNotMatch(pdf.body, /Welcome aboard/);
  });

  test('a share-link site\'s PDF needs the share key, like its pages', async () => {
    const { site: created, url } = await site('share-link', true);
    assert.equal((await get(`${url}~gitbook/pdf`)).status, 404);
    const link = ok(await t.api('POST', `${sites()}/${created.id}/share-links`, { body: { name: 'Partners' } }), 201);
    const key = new URL(link.urls.published).searchParams.get('share')!;
    const pdf = await get(`${url}~gitbook/pdf?share=${key}`);
    assert.equal(pdf.status, 200);
    assert.equal(pdf.headers['content-type'], 'application/pdf');
  });
});
