import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { SignJWT } from 'jose';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { buildSpace, editLive, writeMain } from '../../../test/factories.ts';
import { ok } from '../../../test/assertions.ts';
import { assetPath } from './assets.ts';

describe('reader routes: published sites as web pages', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  const sites = () => `/v1/orgs/${t.org.id}/sites`;

  async function get(url: string, headers: Record<string, string> = {}) {
    const res = await t.app.inject({ method: 'GET', url, headers });
    return { status: res.statusCode, body: res.body, headers: res.headers, cookies: res.cookies as { name: string; value: string; path?: string; httpOnly?: boolean }[] };
  }

  /** A space with pages: Introduction, Guide (with Install under it), Secret (hidden), Beta (a condition). */
  async function spaceWithPages(title = 'Docs') {
    const space = await buildSpace(t, { title });
    const [intro, guide] = await editLive(t, space.id, [
      { operation: 'insert_page', title: 'Introduction', document: { markdown: `Welcome to ${title}.` } },
      { operation: 'insert_page', title: 'Guide', ref: 'guide', document: { markdown: 'See [the intro](../introduction.md).\n\n## Setup\n\nSteps.' } },
      { operation: 'insert_page', title: 'Install', into: 'guide', document: { markdown: 'Run the installer.' } },
      { operation: 'insert_page', title: 'Secret', hidden: true, document: { markdown: 'Hidden but reachable.' } },
      { operation: 'insert_page', title: 'Beta', condition: 'visitor.claims.beta === true', document: { markdown: 'Beta only.' } },
      { operation: 'insert_page', title: 'Private', noIndex: true, document: { markdown: 'Not indexed.' } },
    ]);
    return { space, intro: intro!, guide: guide! };
  }

  async function publishedSite(visibility = 'public', basename?: string) {
    const { space } = await spaceWithPages();
    t.clock.advance(1000);
    const site = ok(await t.api('POST', sites(), { body: { title: 'Acme Docs', visibility, spaces: [space.id] } }), 201);
    if (basename) ok(await t.api('PATCH', `${sites()}/${site.id}`, { body: { basename } }));
    ok(await t.api('POST', `${sites()}/${site.id}/publish`));
    return { site, space, url: `/sites/${basename ?? site.id}/` };
  }

  test('the site root shows the first page with the sidebar; page paths, hidden pages and 404s', async () => {
    const { url } = await publishedSite('public', `acme-${Date.now()}`);
    const home = await get(url);
    assert.equal(home.status, 200);
    assert.match(String(home.headers['content-type']), /text\/html/);
    assert.match(home.body, /<title>Introduction \| Acme Docs<\/title>/);
    assert.match(home.body, /Welcome to Docs\./);
    assert.match(home.body, new RegExp(`href="${url}guide"`));
    assert.match(home.body, new RegExp(`href="${url}guide/install"`));
    assert.doesNotMatch(home.body, /Secret/, 'a hidden page is not listed');
    assert.doesNotMatch(home.body, /Beta/, 'a page whose condition does not hold is not listed');
    assert.doesNotMatch(home.body, /noindex/);

    const guide = await get(`${url}guide`);
    assert.equal(guide.status, 200);
    assert.match(guide.body, new RegExp(`href="${url}"[^>]*>the intro`), 'a page link resolves to its published URL');
    assert.match(guide.body, /id="setup"/);
    assert.equal((await get(`${url}guide/install`)).status, 200);
    const secret = await get(`${url}secret`);
    assert.equal(secret.status, 200, 'a hidden page is reachable by its URL');
    assert.match(secret.body, /Hidden but reachable/);

    const beta = await get(`${url}beta`);
    assert.equal(beta.status, 404, 'a page whose condition does not hold is not reachable either');
    assert.doesNotMatch(beta.body, /Beta only/);
    assert.match(beta.body, /Page not found/);
    assert.equal((await get(`${url}beta?visitor.beta=true`)).status, 404, 'unsigned claims sit under visitor.claims.unsigned');

    const missing = await get(`${url}no/such/page`);
    assert.equal(missing.status, 404);
    assert.match(missing.body, /Page not found/);
    assert.match(missing.body, /Acme Docs/, 'the 404 of a readable site is in its chrome');

    assert.equal((await get(`${url}100%25`)).status, 404, 'a percent sign in a path is a path, not an error');
    const broken = await get(`${url}%E0%A4%A`);
    assert.equal(broken.status, 400, 'broken percent-encoding is refused by the router, with the error shape');
    assert.equal(JSON.parse(broken.body).error.code, 400);
    const head = await t.app.inject({ method: 'HEAD', url });
    assert.equal(head.statusCode, 200);

    const noSlash = await get(url.slice(0, -1));
    assert.equal(noSlash.status, 301);
    assert.equal(noSlash.headers.location, url);
  });

  test('pages are compressed once for clients that accept brotli or gzip, each encoding with its ETag', async () => {
    const { url } = await publishedSite();
    const plain = await t.app.inject({ method: 'GET', url });
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.match(String(plain.headers.vary), /accept-encoding/);
    const br = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(brotliDecompressSync(br.rawPayload).toString('utf8'), plain.body);
    assert.ok(br.rawPayload.length < plain.rawPayload.length / 2, `${br.rawPayload.length} of ${plain.rawPayload.length} bytes`);
    assert.notEqual(br.headers.etag, plain.headers.etag);
    const gzip = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br;q=0, gzip' } });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(gzip.rawPayload).toString('utf8'), plain.body);
    const again = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) } });
    assert.equal(again.statusCode, 304);
  });

  test('ETag and 304; the cache misses after a merge and after a customization change', async () => {
    const { site, space, url } = await publishedSite();
    const first = await get(url);
    const etag = String(first.headers.etag);
    assert.match(etag, /^".+"$/);
    const again = await get(url, { 'if-none-match': etag });
    assert.equal(again.status, 304);
    assert.equal(again.body, '');

    const [introId] = (ok(await t.api('GET', `/v1/spaces/${space.id}/content/pages`)).pages as { id: string }[]).map((p) => p.id);
    await editLive(t, space.id, [{ operation: 'update_page', page: introId, document: { markdown: 'Rewritten welcome.' } }]);
    const afterMerge = await get(url, { 'if-none-match': etag });
    assert.equal(afterMerge.status, 200);
    assert.match(afterMerge.body, /Rewritten welcome\./);
    assert.notEqual(afterMerge.headers.etag, etag);

    const customization = ok(await t.api('GET', `${sites()}/${site.id}/customization`));
    t.clock.advance(1000);
    ok(await t.api('PUT', `${sites()}/${site.id}/customization`, { body: { ...customization, title: 'Renamed Docs' } }));
    const afterCustomization = await get(url);
    assert.match(afterCustomization.body, /Renamed Docs/);
  });

  test('the reader assets are served for a year, by their fingerprinted names', async () => {
    const css = await get(assetPath('css'));
    assert.equal(css.status, 200);
    assert.equal(css.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.match(String(css.headers['content-type']), /text\/css/);
    assert.equal((await get('/_quire/assets/reader.nothing.css')).status, 404);
  });

  test('an unpublished site, an unknown site and an unknown path answer a 404 that names nothing', async () => {
    const space = await buildSpace(t, { title: 'Draft' });
    const site = ok(await t.api('POST', sites(), { body: { title: 'Hidden Project', spaces: [space.id] } }), 201);
    for (const url of [`/sites/${site.id}/`, '/sites/no-such-site/', '/sites/no-such-site/page']) {
      const res = await get(url);
      assert.equal(res.status, 404, url);
      assert.match(res.body, /Page not found/);
      assert.doesNotMatch(res.body, /Hidden Project/);
    }
  });

  test('an unlisted site is open but tells robots to keep out', async () => {
    const { url } = await publishedSite('unlisted');
    const res = await get(url);
    assert.equal(res.status, 200);
    assert.equal(res.headers['x-robots-tag'], 'noindex');
    assert.match(res.body, /<meta name="robots" content="noindex/);
    assert.match((await get(`${url}robots.txt`)).body, /Disallow: \/sites\//);
  });

  test('a share-link site opens with an active key, keeps it in a cookie, and closes when the link is deactivated', async () => {
    const { site, url } = await publishedSite('share-link');
    assert.equal((await get(url)).status, 404);
    const link = ok(await t.api('POST', `${sites()}/${site.id}/share-links`, { body: { name: 'Team' } }), 201);
    const key = new URL(link.urls.published).searchParams.get('share')!;
    assert.equal((await get(`${url}?share=wrong`)).status, 404);
    const first = await get(`${url}?share=${key}`);
    assert.equal(first.status, 200);
    const cookie = first.cookies.find((c) => c.name === 'quire_site_share');
    assert.ok(cookie, 'the key is kept in a cookie');
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.path, url);
    assert.match(first.headers['cache-control'] as string, /private/);
    const next = await get(`${url}guide`, { cookie: `quire_site_share=${cookie.value}` });
    assert.equal(next.status, 200);
    ok(await t.api('PATCH', `${sites()}/${site.id}/share-links/${link.id}`, { body: { active: false } }));
    assert.equal((await get(`${url}guide`, { cookie: `quire_site_share=${cookie.value}` })).status, 404);
  });

  test('a visitor-auth site sends visitors to its login URL and accepts ?jwt_token=, whose claims adapt the content', async () => {
    const { site, url } = await publishedSite('visitor-auth');
    assert.equal((await get(url)).status, 404, 'no login URL: nothing to send the visitor to');
    ok(await t.api('PATCH', `${sites()}/${site.id}/publishing/auth`, { body: { fallbackURL: 'https://login.example.com/start' } }));
    const denied = await get(`${url}guide`);
    assert.equal(denied.status, 302);
    const location = new URL(String(denied.headers.location));
    assert.equal(location.origin + location.pathname, 'https://login.example.com/start');
    assert.equal(location.searchParams.get('location'), `http://quire.test${url}guide`);

    const auth = ok(await t.api('GET', `${sites()}/${site.id}/publishing/auth`));
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const sign = (claims: Record<string, unknown>) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setAudience(site.id).setIssuedAt(now).setExpirationTime(now + 3600).sign(new TextEncoder().encode(auth.privateKey));
    const plain = await get(`${url}?jwt_token=${await sign({})}`);
    assert.equal(plain.status, 200);
    assert.doesNotMatch(plain.body, /Beta/);
    const cookie = plain.cookies.find((c) => c.name === 'quire_visitor_token');
    assert.ok(cookie);
    assert.equal((await get(`${url}guide`, { cookie: `quire_visitor_token=${cookie.value}` })).status, 200);

    const beta = await get(`${url}beta?jwt_token=${await sign({ beta: true })}`);
    assert.equal(beta.status, 200);
    assert.match(beta.body, /Beta only/);
    assert.equal((await get(`${url}beta?jwt_token=not-a-token`)).status, 302);
  });

  test('sections and variants route by their paths, the defaults at their parent URL', async () => {
    const { space: first } = await spaceWithPages('Guides');
    const { space: second } = await spaceWithPages('Reference');
    const { space: legacy } = await spaceWithPages('Legacy');
    const site = ok(await t.api('POST', sites(), { body: { title: 'Sectioned', spaces: [] } }), 201);
    ok(await t.api('POST', `${sites()}/${site.id}/sections`, { body: { spaceId: first.id, title: 'Guides' } }), 201);
    const api = ok(await t.api('POST', `${sites()}/${site.id}/sections`, { body: { spaceId: second.id, title: 'API' } }), 201);
    ok(await t.api('POST', `${sites()}/${site.id}/site-spaces`, { body: { spaceId: legacy.id, sectionId: api.id } }), 201);
    ok(await t.api('POST', `${sites()}/${site.id}/publish`));
    const url = `/sites/${site.id}/`;
    const home = await get(url);
    assert.equal(home.status, 200);
    assert.match(home.body, /Welcome to Guides\./);
    assert.match(home.body, new RegExp(`href="${url}api/"`), 'the section tabs link to the other section');
    const section = await get(`${url}api/`);
    assert.match(section.body, /Welcome to Reference\./);
    assert.match(section.body, new RegExp(`href="${url}api/legacy/"`), 'the variant switcher links to the other variant');
    const variant = await get(`${url}api/legacy/guide`);
    assert.equal(variant.status, 200);
    assert.match(variant.body, new RegExp(`href="${url}api/legacy/guide/install"`));
  });

  test('pages as markdown, sitemap.xml, robots.txt, llms.txt and llms-full.txt', async () => {
    const { url } = await publishedSite();
    const md = await get(`${url}guide.md`);
    assert.equal(md.status, 200);
    assert.match(String(md.headers['content-type']), /text\/markdown/);
    assert.match(md.body, /^# Guide\n/);
    assert.match(md.body, new RegExp(`\\[the intro\\]\\(http://quire.test${url}\\)`));
    assert.equal((await get(`${url}beta.md`)).status, 404);

    const sitemap = await get(`${url}sitemap.xml`);
    assert.match(String(sitemap.headers['content-type']), /xml/);
    assert.match(sitemap.body, new RegExp(`<loc>http://quire.test${url}guide/install</loc>`));
    assert.doesNotMatch(sitemap.body, /secret|private|beta/, 'hidden, noIndex and conditional pages are left out');

    const robots = await get(`${url}robots.txt`);
    assert.match(robots.body, new RegExp(`Allow: ${url}`));
    assert.match(robots.body, new RegExp(`Sitemap: http://quire.test${url}sitemap.xml`));

    const llms = await get(`${url}llms.txt`);
    assert.match(llms.body, /^# Acme Docs/);
    assert.match(llms.body, new RegExp(`- \\[Install\\]\\(http://quire.test${url}guide/install.md\\)`));
    const full = await get(`${url}llms-full.txt`);
    assert.match(full.body, /# Introduction[\s\S]*# Guide[\s\S]*Run the installer\./);
    assert.doesNotMatch(full.body, /Beta only/);
  });

  test('a reusable-content block shows what it includes, in the page, its markdown and llms-full.txt; one including itself shows nothing more', async () => {
    const space = await buildSpace(t, { title: 'Snippets' });
    await editLive(t, space.id, [
      { operation: 'insert_reusable_content', reusableContent: 'caution', title: 'Caution', document: { markdown: 'Mind the included gap.\n\n{% include "loop" %}' } },
      { operation: 'insert_reusable_content', reusableContent: 'loop', title: 'Loop', document: { markdown: 'Loop text once.\n\n{% include "loop" %}' } },
      { operation: 'insert_page', title: 'Guide', document: { markdown: 'Before.\n\n{% include "caution" %}\n\nAfter.\n\n{% include "missing" %}' } },
    ]);
    const site = ok(await t.api('POST', sites(), { body: { title: 'Snippet Docs', visibility: 'public', spaces: [space.id] } }), 201);
    ok(await t.api('POST', `${sites()}/${site.id}/publish`));
    const url = `/sites/${site.id}/`;

    const page = await get(url);
    assert.equal(page.status, 200);
    assert.match(page.body, /Before\.[\s\S]*Mind the included gap\.[\s\S]*Loop text once\.[\s\S]*After\./);
    assert.equal(page.body.split('Loop text once.').length, 2, 'a reusable content including itself shows once');
    const md = await get(`${url}guide.md`);
    assert.match(md.body, /Before\.\s+Mind the included gap\.\s+Loop text once\.\s+After\./);
    assert.doesNotMatch(md.body, /\{% include/);
    assert.match((await get(`${url}llms-full.txt`)).body, /Mind the included gap\./);
  });

  test('search.json finds body text of the pages this visitor sees, with excerpts; the page names it in data-search-url', async () => {
    const { url } = await publishedSite();
    assert.match((await get(url)).body, new RegExp(`data-search-url="${url}search.json"`));
    const found = await get(`${url}search.json?query=installer`);
    assert.equal(found.status, 200);
    const items = (JSON.parse(found.body) as { items: { title: string; href: string; excerpt?: string; marks?: [number, number][] }[] }).items;
    assert.deepEqual(items.map((i) => [i.title, i.href]), [['Install', `${url}guide/install`]]);
    // The excerpt is the engine's (PostgreSQL's ts_headline leaves the final full stop out).
    assert.match(items[0]!.excerpt ?? '', /^Run the installer\.?$/);
    assert.deepEqual(items[0]!.marks?.map(([start, end]) => items[0]!.excerpt!.slice(start, end)), ['installer'], 'the matched word is marked');
    const section = JSON.parse((await get(`${url}search.json?query=steps`)).body) as { items: { title: string; href: string; section?: string }[] };
    assert.deepEqual(section.items.map((i) => [i.title, i.href, i.section]), [['Guide', `${url}guide#setup`, 'Setup']], 'a hit in a section links to its heading');
    assert.deepEqual(JSON.parse((await get(`${url}search.json?query=beta`)).body), { items: [] }, 'a page whose condition fails is not found');
    assert.deepEqual(JSON.parse((await get(`${url}search.json?query=reachable`)).body), { items: [] }, 'a hidden page is not found');
    assert.deepEqual(JSON.parse((await get(`${url}search.json`)).body), { items: [] });
  });
  test('links to pages of other spaces of the same site resolve to their published URLs, in HTML and markdown', async () => {
    const reference = await buildSpace(t, { title: 'Reference' });
    const [endpoints] = await editLive(t, reference.id, [
      { operation: 'insert_page', title: 'Overview', document: { markdown: 'The API.' } },
      { operation: 'insert_page', title: 'Endpoints', document: { markdown: '## Users\n\nList users.' } },
    ]).then((ids) => [ids[1]!]);
    const elsewhere = await buildSpace(t, { title: 'Elsewhere' });
    const [outside] = await editLive(t, elsewhere.id, [{ operation: 'insert_page', title: 'Outside', document: { markdown: 'Not on the site.' } }]);
    const guides = await buildSpace(t, { title: 'Guides' });
    const link = (ref: Record<string, unknown>, text: string) => ({
      object: 'inline',
      type: 'link',
      data: { ref },
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
    });
    const paragraph = (...nodes: unknown[]) => ({ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'See ', marks: [] }] }, ...nodes] });
    await editLive(t, guides.id, [
      {
        operation: 'insert_page',
        title: 'Start',
        document: {
          document: {
            object: 'document',
            nodes: [
              paragraph(link({ kind: 'page', page: endpoints, space: reference.id }, 'the endpoints')),
              paragraph(link({ kind: 'anchor', anchor: 'users', page: endpoints, space: reference.id }, 'the users')),
              paragraph(link({ kind: 'space', space: reference.id }, 'the reference')),
              paragraph(link({ kind: 'page', page: outside, space: elsewhere.id }, 'a page of another site')),
            ],
          },
        },
      },
    ]);
    const site = ok(await t.api('POST', sites(), { body: { title: 'Linked' } }), 201);
    ok(await t.api('POST', `${sites()}/${site.id}/sections`, { body: { spaceId: guides.id, title: 'Guides' } }), 201);
    ok(await t.api('POST', `${sites()}/${site.id}/sections`, { body: { spaceId: reference.id, title: 'Reference' } }), 201);
    ok(await t.api('POST', `${sites()}/${site.id}/publish`));
    const url = `/sites/${site.id}/`;

    const html = (await get(url)).body;
    assert.match(html, new RegExp(`<a[^>]*href="${url}reference/endpoints"[^>]*>the endpoints</a>`));
    assert.match(html, new RegExp(`<a[^>]*href="${url}reference/endpoints#users"[^>]*>the users</a>`));
    assert.match(html, new RegExp(`<a[^>]*href="${url}reference/"[^>]*>the reference</a>`));
    assert.doesNotMatch(html, /href="[^"]*outside"/, 'a page of a space the site does not publish is not linked');
    assert.match(html, /a page of another site/);
    const markdown = (await get(`${url}start.md`)).body;
    assert.match(markdown, new RegExp(`\\[the endpoints\\]\\(http://quire.test${url}reference/endpoints\\)`));

    // A merge in the linked space shows at once: the page links to where the target now is.
    const cr = ok(await t.api('POST', `/v1/spaces/${reference.id}/change-requests`, { body: {} }), 201);
    ok(await t.api('POST', `/v1/spaces/${reference.id}/change-requests/${cr.id}/content?compat=false`, { body: { changes: [{ operation: 'update_page', page: endpoints, slug: 'routes' }] } }));
    ok(await t.api('POST', `/v1/spaces/${reference.id}/change-requests/${cr.id}/merge`));
    assert.match((await get(url)).body, new RegExp(`href="${url}reference/routes"`));
  });

  test('an expression shows the published revision’s variable; one without a value shows nothing', async () => {
    const space = await buildSpace(t, { title: 'Versions' });
    const expression = (path: string) => ({ object: 'inline', type: 'expression', isVoid: true, data: { expression: path } });
    const text = (value: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] });
    const document = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [text('Install version '), expression('space.vars.version'), text(' now'), expression('space.vars.missing'), text('.')] }] };
    await writeMain(t, space.id, [{ operation: 'insert_page', title: 'Install', document: { document } }], { version: '2.1.0' });
    t.clock.advance(1000);
    const site = ok(await t.api('POST', sites(), { body: { title: 'Versioned', visibility: 'public', spaces: [space.id] } }), 201);
    ok(await t.api('POST', `${sites()}/${site.id}/publish`));
    const page = await get(`/sites/${site.id}/`);
    assert.match(page.body, /Install version <span class="expression">2\.1\.0<\/span> now\./);
  });
});
