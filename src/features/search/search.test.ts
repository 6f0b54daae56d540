import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok } from '../../../test/assertions.ts';
import { buildChangeRequest, buildPage, buildSpace, editLive, markdown, writeContent } from '../../../test/factories.ts';
import { DAY_MS } from '../../platform/clock.ts';
import { isPostgres } from '../../db/dialect.ts';

describe('search', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  const search = async (spaceId: string, query: string, extra = '', token?: string) =>
    ok(await t.api('GET', `/v1/spaces/${spaceId}/search?query=${encodeURIComponent(query)}${extra}`, token ? { token } : {}));
  const titles = (body: { items: { title: string }[] }) => body.items.map((i) => i.title);

  test('a space search finds pages by title, heading and text, a title match first', async () => {
    const space = await buildSpace(t);
    await buildPage(t, space.id, { title: 'Billing', markdown: 'Invoices are sent monthly.' });
    await buildPage(t, space.id, { title: 'Accounts', markdown: 'Intro.\n\n## Billing contacts\n\nWho receives the invoices.' });
    await buildPage(t, space.id, { title: 'Teams', markdown: 'Team owners see the billing page.' });
    const body = await search(space.id, 'billing');
    assert.deepEqual(titles(body), ['Billing', 'Accounts', 'Teams']);
    assert.equal(body.count, 3);
    const accounts = body.items[1];
    assert.equal(accounts.sections[0].title, 'Billing contacts');
    assert.match(accounts.sections[0].path, /^accounts#billing-contacts$/);
    assert.match(accounts.sections[0].urls.app, /\/s\/.+\/accounts#billing-contacts$/);
    assert.match(body.items[2].sections[0].body, /<mark>billing<\/mark>/i);
  });

  test('words are stemmed, accents folded, and the last word is a prefix', async () => {
    const space = await buildSpace(t);
    await buildPage(t, space.id, { title: 'Setup', markdown: 'Installing the café integration takes a minute.' });
    assert.deepEqual(titles(await search(space.id, 'install')), ['Setup']);
    assert.deepEqual(titles(await search(space.id, 'cafe')), ['Setup']);
    assert.deepEqual(titles(await search(space.id, 'integr')), ['Setup']);
    assert.deepEqual(titles(await search(space.id, 'minu')), ['Setup']);
    assert.deepEqual(titles(await search(space.id, 'minu ')), [], 'a finished word is not a prefix');
    assert.deepEqual(titles(await search(space.id, 'café minute')), ['Setup']);
    assert.deepEqual(titles(await search(space.id, 'café hour')), [], 'every word is required');
  });

  test('query syntax in user text is taken as words', async () => {
    const space = await buildSpace(t);
    await buildPage(t, space.id, { title: 'Syntax', markdown: 'Use NEAR and OR carefully: "quotes" & stars*.' });
    for (const query of ['"quotes', 'NEAR(', 'stars*)', 'OR', 'a:b & !c | (d', '-quotes', '***', '"']) {
      const res = await t.api('GET', `/v1/spaces/${space.id}/search?query=${encodeURIComponent(query)}`);
      assert.equal(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
    }
    assert.deepEqual(titles(await search(space.id, '"quotes"')), ['Syntax']);
    assert.equal((await search(space.id, '  ')).count, 0);
  });

  test('excerpts are HTML-escaped, with only the matches marked', async () => {
    const space = await buildSpace(t);
    await buildPage(t, space.id, { title: 'Markup', markdown: 'Write `<script>` tags & entities around the widget.' });
    const [page] = (await search(space.id, 'widget')).items;
    assert.doesNotMatch(page.sections[0].body, /<script>/);
    assert.match(page.sections[0].body, /&amp;/);
    assert.match(page.sections[0].body, /<mark>widget<\/mark>/);
  });

  test('an edit, a deletion and a change request: search follows the current revision only', async () => {
    const space = await buildSpace(t);
    const pageId = await buildPage(t, space.id, { title: 'Roadmap', markdown: 'Plans for spring.' });
    assert.deepEqual(titles(await search(space.id, 'spring')), ['Roadmap']);
    await editLive(t, space.id, [{ operation: 'update_page', page: pageId, document: markdown('Plans for autumn.') }]);
    assert.deepEqual(titles(await search(space.id, 'spring')), []);
    assert.deepEqual(titles(await search(space.id, 'autumn')), ['Roadmap']);

    const cr = await buildChangeRequest(t, space.id);
    await writeContent(t, space.id, cr.id, [{ operation: 'insert_page', title: 'Draft', document: markdown('Unmerged winter plans.') }]);
    assert.deepEqual(titles(await search(space.id, 'winter')), [], 'a change request is not searched');

    await editLive(t, space.id, [{ operation: 'delete_page', page: pageId }]);
    assert.deepEqual(titles(await search(space.id, 'autumn')), []);
  });

  test('a renamed parent changes the paths of the results below it', async () => {
    const space = await buildSpace(t);
    const parent = await buildPage(t, space.id, { title: 'Guides', markdown: 'All guides.' });
    await buildPage(t, space.id, { title: 'Deploy', markdown: 'Shipping to production.', parent });
    assert.equal((await search(space.id, 'production')).items[0].path, 'guides/deploy');
    await editLive(t, space.id, [{ operation: 'update_page', page: parent, title: 'Handbook' }]);
    assert.equal((await search(space.id, 'production')).items[0].path, 'handbook/deploy');
  });

  test('results are paginated with a cursor tied to the query', async () => {
    const space = await buildSpace(t);
    await editLive(t, space.id, ['One', 'Two', 'Three', 'Four', 'Five'].map((title) => ({ operation: 'insert_page', title, document: markdown(`The shared word lighthouse, ${title}.`) })));
    const first = await search(space.id, 'lighthouse', '&limit=2');
    assert.equal(first.count, 5);
    assert.equal(first.items.length, 2);
    const second = await search(space.id, 'lighthouse', `&limit=2&page=${first.next.page}`);
    const third = await search(space.id, 'lighthouse', `&limit=2&page=${second.next.page}`);
    assert.equal(third.next, undefined);
    assert.equal(new Set([...titles(first), ...titles(second), ...titles(third)]).size, 5);
    assertError(await t.api('GET', `/v1/spaces/${space.id}/search?query=other&page=${first.next.page}`), 400, 'page');
  });

  test('a deleted space is not searched; restored, it is again; a duplicate has its own index', async () => {
    const space = await buildSpace(t);
    await buildPage(t, space.id, { title: 'Glossary', markdown: 'Terms like zeppelin.' });
    const copy = ok(await t.api('POST', `/v1/spaces/${space.id}/duplicate`), 201);
    assert.deepEqual(titles(await search(copy.id, 'zeppelin')), ['Glossary']);
    ok(await t.api('DELETE', `/v1/spaces/${space.id}`), 204);
    assertError(await t.api('GET', `/v1/spaces/${space.id}/search?query=zeppelin`), 404);
    const org = ok(await t.api('GET', `/v1/orgs/${t.org.id}/search?query=zeppelin`));
    assert.deepEqual(org.items.map((s: { id: string }) => s.id), [copy.id]);
    ok(await t.api('POST', `/v1/spaces/${space.id}/restore`));
    assert.deepEqual(titles(await search(space.id, 'zeppelin')), ['Glossary']);
    t.clock.advance(8 * DAY_MS);
  });

  test('the query is required and bounded; a space the caller cannot see answers 404', async () => {
    const space = await buildSpace(t);
    assertError(await t.api('GET', `/v1/spaces/${space.id}/search`), 400, 'query');
    assertError(await t.api('GET', `/v1/spaces/${space.id}/search?query=${'a'.repeat(513)}`), 400, 'query');
    assertError(await t.api('GET', `/v1/spaces/${space.id}/search?query=x&limit=0`), 400, 'limit');
    const outsider = await t.outsider();
    assertError(await t.api('GET', `/v1/spaces/${space.id}/search?query=x`, { token: outsider.token }), 404);
    assertError(await t.api('GET', `/v1/spaces/nope/search?query=x`), 404);
    assertError(await t.api('GET', `/v1/spaces/${space.id}/search?query=x`, { token: null }), 401);
  });

  test('organization search lists the spaces the caller can read, with their matching pages', async () => {
    const admin = await t.outsider();
    const open = await buildSpace(t, { title: 'Open' }, { token: admin.token, organizationId: admin.organizationId });
    const closed = await buildSpace(t, { title: 'Closed' }, { token: admin.token, organizationId: admin.organizationId });
    ok(await t.api('PATCH', `/v1/spaces/${closed.id}`, { token: admin.token, body: { defaultLevel: null } }));
    for (const [space, text] of [[open, 'Nebula guide.'], [closed, 'Nebula secrets.']] as const) {
      const res = await t.api('POST', `/v1/spaces/${space.id}/change-requests`, { token: admin.token, body: {} });
      const cr = ok(res, 201);
      ok(await t.api('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, { token: admin.token, body: { changes: [{ operation: 'insert_page', title: 'Nebula', document: markdown(text) }] } }));
      ok(await t.api('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`, { token: admin.token }));
    }
    const asAdmin = ok(await t.api('GET', `/v1/orgs/${admin.organizationId}/search?query=nebula`, { token: admin.token }));
    assert.equal(asAdmin.count, 2);
    assert.deepEqual(new Set(asAdmin.items.map((s: { title: string }) => s.title)), new Set(['Open', 'Closed']));
    assert.equal(asAdmin.items[0].pages[0].title, 'Nebula');

    const member = await t.member('read', admin.organizationId);
    const asMember = ok(await t.api('GET', `/v1/orgs/${admin.organizationId}/search?query=nebula`, { token: member.token }));
    assert.deepEqual(asMember.items.map((s: { title: string }) => s.title), ['Open']);

    const outsider = await t.outsider();
    assertError(await t.api('GET', `/v1/orgs/${admin.organizationId}/search?query=nebula`, { token: outsider.token }), 404);
    assertError(await t.api('GET', `/v1/orgs/${admin.organizationId}/search`, { token: admin.token }), 400, 'query');
  });

  test('paging through more results than are ranked by section gives every matching page once', async () => {
    const space = await buildSpace(t);
    // 130 pages: more than the 100 that SQLite orders by their best section, the rest in page-level order.
    const changes = Array.from({ length: 130 }, (_, i) => ({ operation: 'insert_page', title: `Comet ${i}`, document: markdown(`${'Comet tail. '.repeat(i % 7)}Number ${i}.`) }));
    for (let i = 0; i < changes.length; i += 50) await editLive(t, space.id, changes.slice(i, i + 50));
    const seen: string[] = [];
    let cursor = '';
    for (let round = 0; round < 10; round++) {
      const body = await search(space.id, 'comet', `&limit=40${cursor ? `&page=${cursor}` : ''}`);
      assert.equal(body.count, 130);
      seen.push(...body.items.map((i: { id: string }) => i.id));
      if (!body.next) break;
      cursor = body.next.page;
    }
    assert.equal(seen.length, 130);
    assert.equal(new Set(seen).size, 130);
  });

  test('a page whose words are in different sections comes after pages with one section holding them all', async () => {
    const space = await buildSpace(t);
    await buildPage(t, space.id, { title: 'Spread', markdown: 'About the telescope.\n\n## Later\n\nThe mirror.' });
    await buildPage(t, space.id, { title: 'Together', markdown: 'The telescope mirror.' });
    const body = await search(space.id, 'telescope mirror ');
    // PostgreSQL matches sections (a page is found when one of its sections holds every word); SQLite matches
    // pages, and ranks the pages whose words are spread after the others.
    if (isPostgres(t.db)) return assert.deepEqual(titles(body), ['Together']);
    assert.deepEqual(titles(body), ['Together', 'Spread']);
    const spread = body.items[1];
    assert.equal(spread.sections.length, 1, 'the opening of the page');
    assert.match(spread.sections[0].body, /telescope/);
  });
});
