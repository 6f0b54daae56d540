import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { officialClient, rejectsWith, TranslationLanguage, type OfficialClient } from './gitbook-client.ts';
import { listenOnRandomPort, startServer, type TestServer } from '../helpers.ts';
import { OfficialSpec, specCheckedFetch, type CheckedExchange } from './spec-validator.ts';
import { buildChangeRequest, buildPage, buildSpace, writeContent } from '../factories.ts';
import { readPdf } from '../pdf-text.ts';

/**
 * Issue 16 (translations and PDF export) over real HTTP with the official client; every answer is checked
 * against the official spec (translation settings against the seed's contract where it wins, see
 * applySeedContract), and the PDFs are read back with pdf.js.
 */
describe('translations and PDF export end to end, through the official client', { timeout: 120_000 }, () => {
  let t: TestServer;
  let endpoint: string;
  const spec = OfficialSpec.load();
  const log: CheckedExchange[] = [];
  const client = (token: string): OfficialClient => officialClient({ endpoint, authToken: token, serviceBinding: { fetch: specCheckedFetch(spec, log) } });

  before(async () => {
    t = await startServer();
    endpoint = await listenOnRandomPort(t);
  });
  after(() => t.close(), { timeout: 30_000 });

  async function pdfText(url: string): Promise<string> {
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/pdf');
    return (await readPdf(new Uint8Array(await res.arrayBuffer()))).text;
  }

  test('translation settings are created, run into a target space, listed, replaced and deleted', async () => {
    const api = client(t.admin.token);
    const source = await buildSpace(t, { title: 'Handbook' });
    await buildPage(t, source.id, { title: 'Welcome', markdown: 'Hello.' });
    const { data: created } = await api.orgs.createTranslation(t.org.id, {
      title: 'Handbook in French',
      source: { space: source.id, language: TranslationLanguage.En },
      language: TranslationLanguage.Fr,
    } as never);
    assert.equal(created.status, 'pending');
    assert.equal(created.language, 'fr');

    await t.app.jobs.runDue();
    const { data: done } = await api.orgs.getTranslation(t.org.id, created.id);
    assert.equal(done.status, 'completed');
    assert.ok(done.result, 'a run produces a target space');
    const { data: target } = await api.spaces.getSpaceById(done.result!.space);
    assert.equal(target.language, 'fr');
    const { data: revision } = await api.spaces.getCurrentRevision(done.result!.space);
    assert.deepEqual(revision.pages.map((p) => p.title), ['Welcome']);

    const { data: list } = await api.orgs.listTranslations(t.org.id);
    assert.ok(list.items.some((item) => item.id === created.id));
    const { data: replaced } = await api.orgs.updateTranslation(t.org.id, created.id, { title: 'Handbook abroad', instructions: { object: 'document', data: {}, nodes: [] } } as never);
    assert.equal((replaced as unknown as { title: string }).title, 'Handbook abroad');
    const run = await api.orgs.runTranslation(t.org.id, created.id);
    assert.equal(run.status, 204);
    await api.orgs.deleteTranslation(t.org.id, created.id);
    await rejectsWith(api.orgs.getTranslation(t.org.id, created.id), 404);
    await rejectsWith(api.orgs.createTranslation(t.org.id, { source: { space: source.id, language: TranslationLanguage.En }, language: TranslationLanguage.De }), 400);
  });

  test('a space and a change request give PDF URLs whose PDFs hold their pages in order', async () => {
    const api = client(t.admin.token);
    const space = await buildSpace(t, { title: 'Printable' });
    const first = await buildPage(t, space.id, { title: 'First page', markdown: 'First text.' });
    await buildPage(t, space.id, { title: 'Second page', markdown: 'Second text.' });
    const { data: whole } = await api.spaces.getSpacePdf(space.id);
    assert.match(await pdfText(whole.url), /First text\.[\s\S]*Second text\./);
    const { data: one } = await api.spaces.getSpacePdf(space.id, { page: first, only: true });
    assert.ok(!(await pdfText(one.url)).includes('Second text.'));

    const cr = await buildChangeRequest(t, space.id, { subject: 'More' });
    await writeContent(t, space.id, cr.id, [{ operation: 'insert_page', title: 'Third page', document: { markdown: 'Third text.' } }]);
    const { data: proposed } = await api.spaces.getChangeRequestPdf(space.id, cr.id);
    assert.match(await pdfText(proposed.url), /Change request #\d+: More[\s\S]*First text\.[\s\S]*Second text\.[\s\S]*Third text\./);
    await rejectsWith(api.spaces.getSpacePdf('nope'), 404);
  });

  test('every answer conformed to the official spec', () => {
    assert.ok(log.length > 10);
    assert.deepEqual(log.filter((entry) => entry.problems.length > 0), []);
  });
});
