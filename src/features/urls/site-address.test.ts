import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { VisibleSite, VisibleVariant } from '../reader/site-view.ts';
import { basePathOf, placeOf, siteAddressOf } from './site-address.ts';

const PUBLIC = 'https://quire.example.com';

const variant = (id: string, path: string, isDefault: boolean): VisibleVariant => ({ id, title: id, path, isDefault, url: `/${path}/`, spaceId: `space-${id}`, revisionId: `rev-${id}` });

/** A site with two sections; the first has two variants (v1 the default, v2). */
const site: VisibleSite = {
  sections: [
    { id: 'guides', title: 'Guides', path: 'guides', isDefault: true, url: '/', variants: [variant('v1', 'v1', true), variant('v2', 'v2', false)] },
    { id: 'api', title: 'API', path: 'api', isDefault: false, url: '/api/', variants: [variant('ref', 'ref', true)] },
  ],
};

describe('siteAddressOf: which site a URL is on', () => {
  test('a /sites/ path of this server names the site by its first segment, decoded', () => {
    assert.deepEqual(siteAddressOf(new URL(`${PUBLIC}/sites/my%20docs/guides/a%2Fb`), PUBLIC), { kind: 'path', segment: 'my docs', root: '/sites/my%20docs/', rest: ['guides', 'a/b'] });
  });

  test("another of this server's paths is no site's", () => {
    assert.equal(siteAddressOf(new URL(`${PUBLIC}/v1/spaces`), PUBLIC), undefined);
    assert.equal(siteAddressOf(new URL(`${PUBLIC}/sites/`), PUBLIC), undefined);
  });

  test('another host may be a custom hostname: its whole path is below the site', () => {
    assert.deepEqual(siteAddressOf(new URL('https://Docs.Example.com:8443/api/ref'), PUBLIC), { kind: 'host', host: 'docs.example.com', root: '/', rest: ['api', 'ref'] });
  });

  test('a URL that is not http(s), or badly encoded, is none', () => {
    assert.equal(siteAddressOf(new URL('ftp://docs.example.com/'), PUBLIC), undefined);
    assert.equal(siteAddressOf(new URL('https://docs.example.com/%E0%A4%A'), PUBLIC), undefined);
  });
});

describe('placeOf: the section, variant and page path a URL names', () => {
  test("the site's root is the default section's default variant, not complete while segments could name others", () => {
    const place = placeOf(site, [''])!;
    assert.equal(place.section.id, 'guides');
    assert.equal(place.variant.id, 'v1');
    assert.deepEqual(place.consumed, []);
    assert.equal(place.pagePath, '');
    assert.equal(place.complete, false);
  });

  test('a named section with one variant is complete; the rest is the page path', () => {
    const place = placeOf(site, ['api', 'pets', 'list'])!;
    assert.equal(place.section.id, 'api');
    assert.deepEqual(place.consumed, ['api']);
    assert.equal(place.pagePath, 'pets/list');
    assert.equal(place.complete, true);
  });

  test('a named variant of the default section is complete only if no other section could be named', () => {
    const place = placeOf(site, ['v2', 'intro'])!;
    assert.equal(place.variant.id, 'v2');
    assert.deepEqual(place.consumed, ['v2']);
    assert.equal(place.pagePath, 'intro');
    assert.equal(place.complete, false);
    const single: VisibleSite = { sections: [{ ...site.sections[0]!, id: null }] };
    assert.equal(placeOf(single, ['v2', 'intro'])!.complete, true);
  });

  test('a site that shows nothing to the visitor places nothing', () => {
    assert.equal(placeOf({ sections: [] }, ['x']), undefined);
  });
});

describe('basePathOf', () => {
  test('the root, followed by the consumed segments encoded', () => {
    assert.equal(basePathOf('/sites/docs/', []), '/sites/docs/');
    assert.equal(basePathOf('/', ['api', 'v 2']), '/api/v%202/');
  });
});
