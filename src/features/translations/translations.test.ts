import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok } from '../../../test/assertions.ts';
import { buildPage, buildSpace, editLive } from '../../../test/factories.ts';
import { corpusChanges, corpusPages } from '../../../test/corpus/pages.ts';

/** A small LibreTranslate: `POST /translate` answers each text as "[target] text"; `failures` makes the next calls fail. */
function fakeLibreTranslate() {
  const state = { failures: 0, calls: 0, texts: [] as string[] };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      state.calls += 1;
      if (req.method !== 'POST' || req.url !== '/translate') return void res.writeHead(404).end();
      if (state.failures > 0) {
        state.failures -= 1;
        res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'busy' }));
        return;
      }
      const { q, target } = JSON.parse(body) as { q: string[]; target: string };
      state.texts.push(...q);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ translatedText: q.map((text) => `[${target}] ${text}`) }));
    });
  });
  return {
    state,
    async start(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function pageMarkdown(t: TestServer, spaceId: string, pageId: string): Promise<string> {
  return ok(await t.api('GET', `/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`)).markdown as string;
}

async function pagesOf(t: TestServer, spaceId: string): Promise<{ id: string; title: string; pages: unknown[] }[]> {
  const flat: { id: string; title: string; pages: unknown[] }[] = [];
  const walk = (pages: { id: string; title: string; pages?: unknown[] }[]) => {
    for (const p of pages) {
      flat.push({ id: p.id, title: p.title, pages: p.pages ?? [] });
      walk((p.pages ?? []) as never);
    }
  };
  walk(ok(await t.api('GET', `/v1/spaces/${spaceId}/content`)).pages);
  return flat;
}

describe('translation settings', () => {
  let t: TestServer;
  before(async () => (t = await startServer()));
  after(() => t.close());
  const base = () => `/v1/orgs/${t.org.id}/translations`;

  test('translation settings are created with a title, read, listed, replaced and deleted', async () => {
    const created = ok(await t.api('POST', base(), { body: { title: 'Docs in French', languages: ['fr', 'de'] } }), 201);
    assert.equal(created.object, 'translation-settings');
    assert.equal(created.title, 'Docs in French');
    assert.deepEqual(created.languages, ['fr', 'de']);
    assert.equal(created.status, 'pending');
    assert.deepEqual(created.permissions, { view: true, edit: true });
    assert.equal(created.urls.location, `http://quire.test/v1/orgs/${t.org.id}/translations/${created.id}`);
    assert.deepEqual(created.stats.runs, 0);
    assert.deepEqual(ok(await t.api('GET', `${base()}/${created.id}`)), created);

    const replaced = ok(await t.api('PUT', `${base()}/${created.id}`, { body: { title: 'Docs abroad', languages: ['es'] } }));
    assert.equal(replaced.title, 'Docs abroad');
    assert.deepEqual(replaced.languages, ['es']);
    assert.equal(ok(await t.api('GET', `${base()}/${created.id}`)).title, 'Docs abroad');

    assert.equal((await t.api('DELETE', `${base()}/${created.id}`)).status, 204);
    assertError(await t.api('GET', `${base()}/${created.id}`), 404, created.id);
    // Deleting what does not exist answers the same.
    assert.equal((await t.api('DELETE', `${base()}/${created.id}`)).status, 204);
  });

  test('translation settings are listed a page at a time', async () => {
    const org = await t.outsider();
    for (const title of ['One', 'Two', 'Three']) {
      ok(await t.api('POST', `/v1/orgs/${org.organizationId}/translations`, { token: org.token, body: { title } }), 201);
      t.clock.advance(1000);
    }
    const first = ok(await t.api('GET', `/v1/orgs/${org.organizationId}/translations?limit=2`, { token: org.token }));
    assert.equal(first.count, 3);
    assert.deepEqual(first.items.map((i: { title: string }) => i.title), ['One', 'Two']);
    const second = ok(await t.api('GET', `/v1/orgs/${org.organizationId}/translations?limit=2&page=${first.next.page}`, { token: org.token }));
    assert.deepEqual(second.items.map((i: { title: string }) => i.title), ['Three']);
    assert.equal(second.next, undefined);
  });

  test('a translation title is 1 to 100 characters, and languages are known language codes', async () => {
    assertError(await t.api('POST', base(), { body: {} }), 400, /title/);
    assertError(await t.api('POST', base(), { body: { title: '' } }), 400, /title/);
    assertError(await t.api('POST', base(), { body: { title: '   ' } }), 400, /title/);
    assertError(await t.api('POST', base(), { body: { title: 'x'.repeat(101) } }), 400, /title/);
    ok(await t.api('POST', base(), { body: { title: 'x'.repeat(100) } }), 201);
    assertError(await t.api('POST', base(), { body: { title: 'Klingon', languages: ['tlh'] } }), 400, /languages/);
    const made = ok(await t.api('POST', base(), { body: { title: 'Ok' } }), 201);
    assertError(await t.api('PUT', `${base()}/${made.id}`, { body: { languages: ['fr'] } }), 400, /title/);
  });

  test('the source of a translation must be a space of the organization, in another language than the targets', async () => {
    const outsider = await t.outsider();
    const theirs = ok(await t.api('POST', `/v1/orgs/${outsider.organizationId}/spaces`, { token: outsider.token, body: { title: 'Theirs' } }), 201);
    assertError(await t.api('POST', base(), { body: { title: 'T', languages: ['fr'], source: { space: theirs.id, language: 'en' } } }), 400, /source\/space/);
    assertError(await t.api('POST', base(), { body: { title: 'T', languages: ['fr'], source: { space: 'nope', language: 'en' } } }), 400, /source\/space/);
    const ours = await buildSpace(t, { title: 'Ours' });
    assertError(await t.api('POST', base(), { body: { title: 'T', languages: ['en'], source: { space: ours.id, language: 'en' } } }), 400, /source language/);
  });

  test('members with a role see translations; only admins change them; others learn nothing', async () => {
    const made = ok(await t.api('POST', base(), { body: { title: 'Visible' } }), 201);
    const reader = await t.member('read');
    const seen = ok(await t.api('GET', `${base()}/${made.id}`, { token: reader.token }));
    assert.deepEqual(seen.permissions, { view: true, edit: false });
    ok(await t.api('GET', base(), { token: reader.token }));
    assertError(await t.api('POST', base(), { token: reader.token, body: { title: 'No' } }), 403, /admins/);
    assertError(await t.api('PUT', `${base()}/${made.id}`, { token: reader.token, body: { title: 'No' } }), 403);
    assertError(await t.api('DELETE', `${base()}/${made.id}`, { token: reader.token }), 403);
    const guest = await t.member(null);
    assertError(await t.api('GET', base(), { token: guest.token }), 403, /guests/);
    const outsider = await t.outsider();
    assertError(await t.api('GET', `${base()}/${made.id}`, { token: outsider.token }), 404);
    assertError(await t.api('GET', base(), { token: outsider.token }), 404);
    assertError(await t.api('GET', base(), { token: null }), 401);
  });
});

describe('translation runs without a provider', () => {
  let t: TestServer;
  before(async () => (t = await startServer()));
  after(() => t.close());

  test('a run creates a space per language with the source pages, flagged for a human translation', async () => {
    const source = await buildSpace(t, { title: 'Handbook' });
    const intro = await buildPage(t, source.id, { title: 'Introduction', markdown: 'Welcome to the handbook.\n\n```js\nconst x = 1;\n```' });
    const child = await buildPage(t, source.id, { title: 'Details', markdown: `See [the introduction](/pages/${intro}).`, parent: intro });
    const created = ok(await t.api('POST', `/v1/orgs/${t.org.id}/translations`, { body: { title: 'Handbook abroad', languages: ['fr', 'de'], source: { space: source.id, language: 'en' } } }), 201);
    assert.equal(created.status, 'pending');

    await t.app.jobs.runDue();
    const done = ok(await t.api('GET', `/v1/orgs/${t.org.id}/translations/${created.id}`));
    assert.equal(done.status, 'completed');
    assert.equal(done.lastError, undefined);
    assert.equal(done.stats.runs, 1);
    assert.equal(done.stats.latestPages, 4);
    assert.deepEqual(done.targets.map((x: { language: string }) => x.language), ['de', 'fr']);
    const fr = done.targets.find((x: { language: string }) => x.language === 'fr');
    assert.equal(fr.pagesToTranslate, 2);
    assert.deepEqual(done.result, { space: fr.space, revision: fr.revision });

    const space = ok(await t.api('GET', `/v1/spaces/${fr.space}`));
    assert.equal(space.title, 'Handbook (fr)');
    assert.equal(space.language, 'fr');
    const pages = await pagesOf(t, fr.space);
    assert.deepEqual(pages.map((p) => p.title), ['Introduction', 'Details']);
    assert.equal(pages[0]!.pages.length, 1, 'Details stays under Introduction');
    assert.match(await pageMarkdown(t, fr.space, pages[0]!.id), /Welcome to the handbook\./);
    // A link to a page of the source points at its counterpart in the target.
    assert.match(await pageMarkdown(t, fr.space, pages[1]!.id), new RegExp(`/pages/${pages[0]!.id}`));
    void child;
  });

  test('a later run copies new and changed pages, removes deleted ones and never overwrites a human translation', async () => {
    const source = await buildSpace(t, { title: 'Guide' });
    const [a, b, c] = await editLive(t, source.id, [
      { operation: 'insert_page', title: 'Alpha', document: { markdown: 'Alpha text.' } },
      { operation: 'insert_page', title: 'Beta', document: { markdown: 'Beta text.' } },
      { operation: 'insert_page', title: 'Gamma', document: { markdown: 'Gamma text.' } },
    ]);
    const created = ok(await t.api('POST', `/v1/orgs/${t.org.id}/translations`, { body: { title: 'Guide', languages: ['es'], source: { space: source.id, language: 'en' } } }), 201);
    await t.app.jobs.runDue();
    const target = ok(await t.api('GET', `/v1/orgs/${t.org.id}/translations/${created.id}`)).targets[0].space as string;
    const [ta, tb] = (await pagesOf(t, target)).map((p) => p.id);

    // A person translates Beta in the target space.
    await editLive(t, target, [{ operation: 'update_page', page: tb, title: 'Beta (es)', document: { markdown: 'Texto beta.' } }]);
    // The source changes: Alpha and Beta are edited, Gamma deleted, Delta added.
    await editLive(t, source.id, [
      { operation: 'update_page', page: a, document: { markdown: 'Alpha text, revised.' } },
      { operation: 'update_page', page: b, document: { markdown: 'Beta text, revised.' } },
      { operation: 'delete_page', page: c },
      { operation: 'insert_page', title: 'Delta', document: { markdown: 'Delta text.' } },
    ]);
    assert.equal((await t.api('POST', `/v1/orgs/${t.org.id}/translations/${created.id}/run`)).status, 204);
    assert.equal(ok(await t.api('GET', `/v1/orgs/${t.org.id}/translations/${created.id}`)).status, 'pending');
    await t.app.jobs.runDue();

    const after = ok(await t.api('GET', `/v1/orgs/${t.org.id}/translations/${created.id}`));
    assert.equal(after.status, 'completed');
    assert.equal(after.stats.runs, 2);
    assert.equal(after.stats.latestPages, 2, 'Alpha and Delta were written');
    const pages = await pagesOf(t, target);
    assert.deepEqual(pages.map((p) => p.title), ['Alpha', 'Beta (es)', 'Delta']);
    assert.equal(pages[0]!.id, ta, 'a changed page keeps its id in the target');
    assert.match(await pageMarkdown(t, target, ta!), /Alpha text, revised\./);
    assert.match(await pageMarkdown(t, target, tb!), /Texto beta\./, 'the human translation stays');
    // Alpha and Delta are copies to translate; Beta's source changed after its human translation.
    assert.equal(after.targets[0].pagesToTranslate, 3);
    const listed = ok(await t.api('GET', `/v1/orgs/${t.org.id}/translations/${created.id}/pages`));
    assert.equal(listed.count, 3);
    const stateOf = new Map(listed.items.map((p: { page: string; state: string }) => [p.page, p.state]));
    assert.equal(stateOf.get(tb), 'outdated');
    assert.equal(stateOf.get(ta), 'needs-translation');
    assert.ok(listed.items.every((p: { space: string; language: string }) => p.space === target && p.language === 'es'));
    const outdated = ok(await t.api('GET', `/v1/orgs/${t.org.id}/translations/${created.id}/pages?state=outdated`));
    assert.deepEqual(outdated.items.map((p: { sourcePage: string }) => p.sourcePage), [b]);
    const firstPage = ok(await t.api('GET', `/v1/orgs/${t.org.id}/translations/${created.id}/pages?limit=2`));
    const secondPage = ok(await t.api('GET', `/v1/orgs/${t.org.id}/translations/${created.id}/pages?limit=2&page=${firstPage.next.page}`));
    assert.equal(firstPage.items.length + secondPage.items.length, 3);
    assertError(await t.api('GET', `/v1/orgs/${t.org.id}/translations/${created.id}/pages?state=done`), 400, /state/);
  });

  test('a run whose source space was deleted ends at once with the reason shown', async () => {
    const source = await buildSpace(t, { title: 'Short-lived' });
    await buildPage(t, source.id, { title: 'Page' });
    const created = ok(await t.api('POST', `/v1/orgs/${t.org.id}/translations`, { body: { title: 'Gone', languages: ['it'], source: { space: source.id, language: 'en' } } }), 201);
    assert.equal((await t.api('DELETE', `/v1/spaces/${source.id}`)).status, 204);
    await t.app.jobs.runDue();
    const after = ok(await t.api('GET', `/v1/orgs/${t.org.id}/translations/${created.id}`));
    assert.equal(after.status, 'completed');
    assert.match(after.lastError, /source space .* was deleted/);
    assert.deepEqual(after.targets, []);
  });

  test('a run copies the real GitBook docs into the target space, every page in order', { timeout: 240_000 }, async () => {
    const pages = corpusPages();
    const source = await buildSpace(t, { title: 'GitBook docs' });
    const changes = corpusChanges(pages);
    for (let i = 0; i < changes.length; i += 50) await editLive(t, source.id, changes.slice(i, i + 50));
    const created = ok(await t.api('POST', `/v1/orgs/${t.org.id}/translations`, { body: { title: 'Docs', languages: ['nl'], source: { space: source.id, language: 'en' } } }), 201);
    const started = Date.now();
    await t.app.jobs.runDue();
    const seconds = (Date.now() - started) / 1000;
    const done = ok(await t.api('GET', `/v1/orgs/${t.org.id}/translations/${created.id}`));
    assert.equal(done.status, 'completed', done.lastError);
    assert.equal(done.stats.latestPages, pages.length);
    assert.ok(done.stats.latestWords > 10_000, `words: ${done.stats.latestWords}`);
    const copied = await pagesOf(t, done.targets[0].space);
    assert.deepEqual(copied.map((p) => p.title), (await pagesOf(t, source.id)).map((p) => p.title));
    console.log(`# corpus translation run: ${pages.length} pages, ${done.stats.latestWords} words, ${seconds.toFixed(1)} s`);
    // Nothing changed: a second run writes nothing.
    assert.equal((await t.api('POST', `/v1/orgs/${t.org.id}/translations/${created.id}/run`)).status, 204);
    await t.app.jobs.runDue();
    const again = ok(await t.api('GET', `/v1/orgs/${t.org.id}/translations/${created.id}`));
    assert.equal(again.stats.latestPages, 0);
    assert.equal(again.targets[0].revision, done.targets[0].revision);
  });

  test('a run of settings without a source is refused; an unknown translation is 404', async () => {
    const made = ok(await t.api('POST', `/v1/orgs/${t.org.id}/translations`, { body: { title: 'Bare' } }), 201);
    assertError(await t.api('POST', `/v1/orgs/${t.org.id}/translations/${made.id}/run`), 400, /source/);
    assertError(await t.api('POST', `/v1/orgs/${t.org.id}/translations/nope/run`), 404);
  });
});

describe('translation runs with a LibreTranslate provider', () => {
  let t: TestServer;
  const provider = fakeLibreTranslate();
  before(async () => {
    const url = await provider.start();
    t = await startServer({ env: { TRANSLATION_PROVIDER_URL: url } });
  });
  after(async () => {
    await t.close();
    await provider.close();
  });

  test('the provider translates titles and text but not code; a failed attempt is retried and its error shown', async () => {
    const source = await buildSpace(t, { title: 'Manual' });
    await buildPage(t, source.id, { title: 'Setup', markdown: 'Install the **tool** first.\n\nRun `make` then:\n\n```sh\nmake install\n```' });
    provider.state.failures = 1;
    const created = ok(await t.api('POST', `/v1/orgs/${t.org.id}/translations`, { body: { title: 'Manual', language: 'fr', source: { space: source.id, language: 'en' } } }), 201);
    assert.deepEqual(created.languages, ['fr']);
    assert.equal(created.language, 'fr');

    await t.app.jobs.runDue();
    const failed = ok(await t.api('GET', `/v1/orgs/${t.org.id}/translations/${created.id}`));
    assert.equal(failed.status, 'pending');
    assert.match(failed.lastError, /HTTP 503: busy/);

    t.clock.advance(60_000);
    await t.app.jobs.runDue();
    const done = ok(await t.api('GET', `/v1/orgs/${t.org.id}/translations/${created.id}`));
    assert.equal(done.status, 'completed');
    assert.equal(done.lastError, undefined);
    assert.equal(done.targets[0].pagesToTranslate, 0);
    const [page] = await pagesOf(t, done.targets[0].space);
    assert.equal(page!.title, '[fr] Setup');
    const text = await pageMarkdown(t, done.targets[0].space, page!.id);
    assert.match(text, /\[fr\] Install the/);
    assert.match(text, /`make`/);
    assert.match(text, /make install/);
    assert.ok(!provider.state.texts.some((s) => s.includes('make install')), 'code is not sent for translation');
  });

  test('a run keeps the glossary’s terms: the provider never sees them, the target language’s term is written', async () => {
    const source = await buildSpace(t, { title: 'Reviews' });
    await buildPage(t, source.id, { title: 'Change requests', markdown: 'Open a Change Request, then ask for a review of the change request.' });
    const glossary = `/v1/orgs/${t.org.id}/translations-glossary`;
    const entries = [
      { type: 'insert', translations: { en: 'change request', fr: 'demande de modification' } },
      { type: 'insert', translations: { en: 'change', fr: 'modification' } },
      { type: 'insert', translations: { en: 'review', de: 'Prüfung' } },
    ];
    assert.equal((await t.api('PUT', glossary, { body: { operations: entries } })).status, 204);
    const sent = provider.state.texts.length;
    const created = ok(await t.api('POST', `/v1/orgs/${t.org.id}/translations`, { body: { title: 'Reviews', language: 'fr', source: { space: source.id, language: 'en' } } }), 201);
    await t.app.jobs.runDue();
    const done = ok(await t.api('GET', `/v1/orgs/${t.org.id}/translations/${created.id}`));
    assert.equal(done.status, 'completed');
    const [page] = await pagesOf(t, done.targets[0].space);
    assert.equal(page!.title, '[fr] modification requests', 'whole words only: "requests" is not the term "request"');
    const text = await pageMarkdown(t, done.targets[0].space, page!.id);
    // The longest term wins over "change", in any case.
    assert.match(text, /\[fr\] Open a demande de modification, then ask for a review of the demande de modification\./);
    const seen = provider.state.texts.slice(sent).join('\n');
    assert.doesNotMatch(seen, /change/i, 'glossary terms are not sent to the provider');
    assert.match(seen, /review/, 'a term without a French translation is translated as any word');
  });
});
