import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSpace, buildSpaceWithPages } from '../factories.ts';
import { rejectsWith } from './gitbook-client.ts';
import { e2eSession } from './e2e-session.ts';

/**
 * An organization's custom fonts through the official client: made of WOFF2/WOFF files stored on this server,
 * read by members, changed by admins only, named by a site's customization, and loaded by the published site
 * from this server's own URLs.
 */

const OPERATIONS = ['listCustomFonts', 'createCustomFont', 'getCustomFont', 'updateCustomFont', 'deleteCustomFont', 'updateSiteCustomizationById'];

/** Bytes with WOFF2's (or WOFF's) signature: what the server sniffs a font from. */
const fontBytes = (kind: 'wOF2' | 'wOFF', salt: string) => Buffer.concat([Buffer.from(kind, 'latin1'), Buffer.from([0, 1, 0, 0]), Buffer.from(`font ${salt}`.padEnd(64, '.'))]);

/** A 400 whose message names the field. */
const refusedNaming = (call: Promise<unknown>, field: string) => rejectsWith(call, 400, field);

describe('custom fonts through the official client', { timeout: 120_000 }, () => {
  const session = e2eSession();

  test('an admin adds a font from uploaded files, members read it, only admins change or delete it', async () => {
    const { t, endpoint } = session;
    const org = t.org.id;
    const space = await buildSpace(t, { title: 'Brand assets' });
    const upload = async (name: string, bytes: Buffer) => {
      const response = await fetch(`${endpoint}/v1/spaces/${space.id}/files/uploads?name=${encodeURIComponent(name)}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.admin.token}` },
        body: new Uint8Array(bytes),
      });
      assert.equal(response.status, 201, await response.clone().text());
      return (await response.json()) as { id: string; downloadURL: string };
    };
    const regular = await upload('brand-regular.woff2', fontBytes('wOF2', 'regular'));
    const bold = await upload('brand-bold.woff', fontBytes('wOFF', 'bold'));
    const text = await upload('notes.txt', Buffer.from('not a font at all'));

    const api = session.latest().orgs;
    const { data: font } = await api.createCustomFont(org, {
      fontFamily: 'Brand Sans',
      fontFaces: [
        { weight: 400, storageKey: regular.id },
        { weight: 700, storageKey: bold.downloadURL },
      ],
    });
    assert.equal(font.custom, true);
    assert.equal(font.fontFamily, 'Brand Sans');
    assert.deepEqual(font.permissions, { edit: true });
    assert.deepEqual(font.fontFaces.map((f) => [f.weight, f.sources[0]!.format]), [[400, 'woff2'], [700, 'woff']]);
    const url = font.fontFaces[0]!.sources[0]!.url;
    assert.ok(url.startsWith(`${endpoint}/files/${regular.id}/`), url);
    const download = await fetch(url);
    assert.equal(download.status, 200);
    assert.equal(download.headers.get('content-type'), 'font/woff2');
    await download.arrayBuffer();

    // Members read; a reader may not change.
    const reader = await t.member('read');
    const asReader = session.latest(reader.token).orgs;
    const { data: listed } = await asReader.listCustomFonts(org);
    assert.deepEqual(listed.items.map((f) => f.id), [font.id]);
    const { data: seen } = await asReader.getCustomFont(org, font.id);
    assert.deepEqual(seen.permissions, { edit: false });
    await rejectsWith(asReader.createCustomFont(org, { fontFamily: 'Mine', fontFaces: [{ weight: 400, storageKey: regular.id }] }), 403);
    await rejectsWith(asReader.updateCustomFont(org, font.id, { fontFamily: 'Mine' }), 403);
    await rejectsWith(asReader.deleteCustomFont(org, font.id), 403);

    // An outsider learns nothing of the organization.
    const outsider = await t.outsider();
    const asOutsider = session.latest(outsider.token).orgs;
    await rejectsWith(asOutsider.listCustomFonts(org), 404);
    await rejectsWith(asOutsider.getCustomFont(org, font.id), 404);
    await rejectsWith(api.getCustomFont(org, 'no-such-font'), 404);

    // Bad input names the field, and writes nothing.
    await refusedNaming(api.createCustomFont(org, { fontFamily: 'Text', fontFaces: [{ weight: 400, storageKey: text.id }] }), 'body/fontFaces/0/storageKey');
    await refusedNaming(api.createCustomFont(org, { fontFamily: 'Remote', fontFaces: [{ weight: 400, storageKey: 'https://fonts.example.com/brand.woff2' }] }), 'body/fontFaces/0/storageKey');
    await refusedNaming(api.createCustomFont(org, { fontFamily: 'Bold only', fontFaces: [{ weight: 700, storageKey: bold.id }] }), 'body/fontFaces');
    await refusedNaming(
      api.createCustomFont(org, { fontFamily: 'Twice', fontFaces: [{ weight: 400, storageKey: regular.id }, { weight: 400, storageKey: bold.id }] }),
      'body/fontFaces/1/weight',
    );
    await refusedNaming(api.updateCustomFont(org, font.id, { fontFaces: [{ weight: 400, storageKey: null }] }), 'body/fontFaces');
    assert.equal((await api.listCustomFonts(org)).data.items.length, 1);

    // Renamed, bold removed, a light weight added.
    const light = await upload('brand-light.woff2', fontBytes('wOF2', 'light'));
    const { data: updated } = await api.updateCustomFont(org, font.id, {
      fontFamily: 'Brand Sans Pro',
      fontFaces: [
        { weight: 700, storageKey: null },
        { weight: 300, storageKey: light.id },
      ],
    });
    assert.equal(updated.fontFamily, 'Brand Sans Pro');
    assert.deepEqual(updated.fontFaces.map((f) => f.weight), [300, 400]);
    assert.deepEqual((await api.getCustomFont(org, font.id)).data.fontFaces.map((f) => f.weight), [300, 400]);

    const { status: deleted } = await api.deleteCustomFont(org, font.id);
    assert.equal(deleted, 205);
    const { status: again } = await api.deleteCustomFont(org, font.id);
    assert.equal(again, 204);
    await rejectsWith(api.getCustomFont(org, font.id), 404);
  });

  test('a site customized with a custom font loads it from this server', async () => {
    const { t, endpoint } = session;
    const org = t.org.id;
    const { space } = await buildSpaceWithPages(t, 'Welcome');
    const response = await fetch(`${endpoint}/v1/spaces/${space.id}/files/uploads?name=serif.woff2`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.admin.token}` },
      body: new Uint8Array(fontBytes('wOF2', 'serif')),
    });
    const uploaded = (await response.json()) as { id: string };
    const latest = session.latest().orgs;
    const { data: font } = await latest.createCustomFont(org, { fontFamily: 'House "Serif"', fontFaces: [{ weight: 400, storageKey: uploaded.id }] });

    const api = session.client().orgs;
    const { data: site } = await api.createSite(org, { title: 'Handbook site', spaces: [space.id] } as never);
    const { data: customization } = await api.getSiteCustomizationById(org, site.id);
    // Sources a body names are not trusted: the font is stored as it stands, with this server's files.
    const named = { ...font, fontFaces: [{ weight: 400, sources: [{ url: 'https://fonts.example.com/other.woff2' }] }] };
    const { data: saved } = await api.updateSiteCustomizationById(org, site.id, { ...customization, styling: { ...customization.styling, font: named as never } });
    const savedFont = saved.styling.font as { id: string; fontFaces: { sources: { url: string }[] }[] };
    assert.equal(savedFont.id, font.id);
    assert.equal(savedFont.fontFaces[0]!.sources[0]!.url, font.fontFaces[0]!.sources[0]!.url);

    await refusedNaming(
      api.updateSiteCustomizationById(org, site.id, { ...customization, styling: { ...customization.styling, font: { ...named, id: 'missing' } as never } }),
      'body/styling/font/id',
    );

    await api.publishSite(org, site.id);
    const pageResponse = await fetch(`${endpoint}/sites/${site.id}/`);
    assert.equal(pageResponse.status, 200);
    const page = await pageResponse.text();
    const path = new URL(font.fontFaces[0]!.sources[0]!.url).pathname;
    assert.match(page, /@font-face\{font-family:"House \\22 Serif\\22 "/);
    assert.ok(page.includes(`src:url("${path}") format("woff2")`), page.slice(0, 2000));
    assert.doesNotMatch(page, /fonts\.example\.com/);
    const file = await fetch(new URL(path, endpoint));
    assert.equal(file.status, 200);
    await file.arrayBuffer();

    session.assertConformed(OPERATIONS);
  });
});
