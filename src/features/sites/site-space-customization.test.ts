import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok } from '../../../test/assertions.ts';
import { buildSpace, editLive } from '../../../test/factories.ts';

describe('a site-space’s customization override, as the reader shows it', () => {
  let t: TestServer;
  before(async () => (t = await startServer()));
  after(() => t.close());

  const sites = () => `/v1/orgs/${t.org.id}/sites`;
  const page = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url });
    assert.equal(res.statusCode, 200, url);
    return res.body;
  };

  /** A published site with two variants at its root: v1 (the default) and v2, each with one page. */
  async function siteWithTwoVariants() {
    const v1 = await buildSpace(t, { title: 'Guide v1' });
    const v2 = await buildSpace(t, { title: 'Guide v2' });
    await editLive(t, v1.id, [{ operation: 'insert_page', title: 'Start', document: { markdown: 'Version one.' } }]);
    await editLive(t, v2.id, [{ operation: 'insert_page', title: 'Start', document: { markdown: 'Version two.' } }]);
    const site = ok(await t.api('POST', sites(), { body: { title: 'Guide', spaces: [v1.id, v2.id] } }), 201);
    ok(await t.api('POST', `${sites()}/${site.id}/publish`));
    const siteSpaces = ok(await t.api('GET', `${sites()}/${site.id}/site-spaces`)).items as { id: string; space: { id: string }; urls: { published: string } }[];
    const [first, second] = [siteSpaces.find((ss) => ss.space.id === v1.id)!, siteSpaces.find((ss) => ss.space.id === v2.id)!];
    return { site, first: { ...first, url: new URL(first.urls.published).pathname }, second: { ...second, url: new URL(second.urls.published).pathname } };
  }

  test('a page of the overridden variant shows the override; a page of the other variant shows the site’s', async () => {
    const { site, first, second } = await siteWithTwoVariants();
    const before = await page(second.url);
    assert.match(before, /Version two\./);
    assert.match(before, /--primary-light:#346DDB/);

    ok(
      await t.api('PATCH', `${sites()}/${site.id}/site-spaces/${second.id}/customization`, {
        body: {
          title: 'Guide — next',
          styling: { primaryColor: { light: '#AA0000', dark: '#FF5555' } },
          announcement: { enabled: true, message: 'This is the next version', style: 'warning' },
        },
      }),
    );
    const overridden = await page(second.url);
    assert.match(overridden, /Version two\./);
    assert.match(overridden, /--primary-light:#AA0000;--primary-dark:#FF5555/);
    assert.match(overridden, /This is the next version/);
    assert.match(overridden, /<title>Start \| Guide — next<\/title>/);

    const other = await page(first.url);
    assert.match(other, /Version one\./);
    assert.match(other, /--primary-light:#346DDB/);
    assert.doesNotMatch(other, /This is the next version/);
    assert.doesNotMatch(other, /Guide — next/);

    // Taken away, the variant shows the site's customization again (the rendered page is not kept).
    assert.equal((await t.api('DELETE', `${sites()}/${site.id}/site-spaces/${second.id}/customization`)).status, 205);
    const after = await page(second.url);
    assert.match(after, /--primary-light:#346DDB/);
    assert.doesNotMatch(after, /This is the next version/);
  });

  test('an override that would make the variant’s customization invalid is refused, naming the field', async () => {
    const { site, second } = await siteWithTwoVariants();
    const path = `${sites()}/${site.id}/site-spaces/${second.id}/customization`;
    assertError(await t.api('PATCH', path, { body: { styling: { primaryColor: { light: 'red', dark: '#000000' } } } }), 400, 'styling/primaryColor/light');
    assertError(await t.api('PATCH', path, { body: { title: 'x' } }), 400, 'title');
    assertError(await t.api('PATCH', path, { body: { header: { links: [{ title: 'Beta', to: null, links: [], condition: 'visitor.claims ==' }] } } }), 400, 'header/links/0/condition');
    // Nothing was stored: the variant still shows the site's customization.
    assert.deepEqual(ok(await t.api('GET', path)), ok(await t.api('GET', `${sites()}/${site.id}/customization`)));
    assert.equal((await t.api('DELETE', path)).status, 204);
  });

  test('a site-space of another site, or of a site the caller cannot see, answers 404', async () => {
    const a = await siteWithTwoVariants();
    const b = await siteWithTwoVariants();
    assertError(await t.api('GET', `${sites()}/${a.site.id}/site-spaces/${b.second.id}/customization`), 404);
    assertError(await t.api('PATCH', `${sites()}/${a.site.id}/site-spaces/${b.second.id}/customization`, { body: { title: 'Elsewhere' } }), 404);
    const outsider = await t.outsider();
    assertError(await t.api('PATCH', `${sites()}/${a.site.id}/site-spaces/${a.second.id}/customization`, { token: outsider.token, body: { title: 'Theirs' } }), 404);
    assert.equal((await t.api('DELETE', `${sites()}/${a.site.id}/site-spaces/${a.second.id}/customization`, { token: outsider.token })).status, 204);
  });
});
