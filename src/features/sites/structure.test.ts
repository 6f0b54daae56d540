import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkPath, effectiveDefault, inOrder, pathFromTitle, pathTaken, positionAmong, uniquePath } from './structure.ts';
import { sectionUrl, siteSpaceUrl, siteUrl, withShareKey } from './urls.ts';

describe('site structure rules', () => {
  test('a path from a title is lowercase ASCII words joined by "-"', () => {
    assert.equal(pathFromTitle('Getting Started'), 'getting-started');
    assert.equal(pathFromTitle('  Café & Crème!  '), 'cafe-creme');
    assert.equal(pathFromTitle('日本語'), 'section');
    assert.equal(pathFromTitle('日本語', 'space'), 'space');
    assert.ok(pathFromTitle('x'.repeat(300)).length <= 90);
  });

  test('paths are URL-safe segments, unique among siblings regardless of case', () => {
    assert.equal(checkPath('v2.1_beta-x'), null);
    for (const bad of ['', '.', '..', 'a/b', 'a b', 'é', '?x', 'x'.repeat(101)]) assert.ok(checkPath(bad), bad);
    assert.equal(uniquePath('guide', []), 'guide');
    assert.equal(uniquePath('guide', ['Guide', 'guide-2']), 'guide-3');
    assert.equal(pathTaken('API', [{ id: 'a', path: 'api' }]), true);
    assert.equal(pathTaken('api', [{ id: 'a', path: 'api' }], 'a'), false);
  });

  test('the default is the flagged sibling, else the first', () => {
    assert.equal(effectiveDefault([{ id: 'a', is_default: 0 }, { id: 'b', is_default: 1 }]), 'b');
    assert.equal(effectiveDefault([{ id: 'a', is_default: 0 }, { id: 'b', is_default: 0 }]), 'a');
    assert.equal(effectiveDefault([]), undefined);
  });

  test('positions put an item before, after or last, and refuse strangers', () => {
    const siblings = [{ id: 'b', position: 'a1' }, { id: 'a', position: 'a0' }];
    assert.deepEqual(inOrder(siblings).map((s) => s.id), ['a', 'b']);
    const before = positionAmong(siblings, { before: 'a' });
    assert.ok('position' in before && before.position < 'a0');
    const after = positionAmong(siblings, { after: 'a' });
    assert.ok('position' in after && after.position > 'a0' && after.position < 'a1');
    const last = positionAmong(siblings, {});
    assert.ok('position' in last && last.position > 'a1');
    assert.ok('error' in positionAmong(siblings, { before: 'zz' }));
    assert.ok('error' in positionAmong(siblings, { before: 'a', after: 'b' }));
    // Equal keys (two concurrent inserts) still leave room between neighbours.
    const tied = positionAmong([{ id: 'x', position: 'a0' }, { id: 'y', position: 'a0' }], { after: 'x' });
    assert.ok('position' in tied && tied.position > 'a0');
  });

  test('published URLs: the site under /sites/, defaults at their parent, share keys in the query', () => {
    const config = { publicUrl: 'https://docs.example.com' };
    const base = siteUrl(config, { id: 'abc', basename: null });
    assert.equal(base, 'https://docs.example.com/sites/abc/');
    assert.equal(siteUrl(config, { id: 'abc', basename: 'handbook' }), 'https://docs.example.com/sites/handbook/');
    assert.equal(sectionUrl(base, { path: 'api', isDefault: true }), base);
    const section = sectionUrl(base, { path: 'api', isDefault: false });
    assert.equal(section, `${base}api/`);
    assert.equal(siteSpaceUrl(section, { path: 'v2', isDefault: false }), `${base}api/v2/`);
    assert.equal(siteSpaceUrl(section, { path: 'v1', isDefault: true }), section);
    assert.equal(withShareKey(section, 'k3y'), `${base}api/?share=k3y`);
    assert.equal(withShareKey(section, undefined), section);
  });
});
