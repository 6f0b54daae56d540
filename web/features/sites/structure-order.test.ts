import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SiteStructure } from '@gitbook/api-latest';
import { groupChoices, moved, NO_GROUP, sectionsOf, siteSpacesOf, sortMove, variantLabel } from './structure-order.ts';

const type = () => 'site-space' as const;

describe('moving an item of the structure', () => {
  test('down: after the item it was dropped on', () =>
    assert.deepEqual(sortMove(['a', 'b', 'c'], 'a', 'c', type), { item: { type: 'site-space', id: 'a' }, position: { after: { type: 'site-space', id: 'c' } } }));
  test('up: before it', () =>
    assert.deepEqual(sortMove(['a', 'b', 'c'], 'c', 'a', type), { item: { type: 'site-space', id: 'c' }, position: { before: { type: 'site-space', id: 'a' } } }));
  test('on itself or outside: nothing', () => {
    assert.equal(sortMove(['a', 'b'], 'a', 'a', type), undefined);
    assert.equal(sortMove(['a', 'b'], 'a', undefined, type), undefined);
    assert.equal(sortMove(['a', 'b'], 'a', 'z', type), undefined);
  });
  test('the list shown at once', () => assert.deepEqual(moved(['a', 'b', 'c'], 0, 2), ['b', 'c', 'a']));
});

const siteSpace = (id: string, title: string) => ({ object: 'site-space', id, title, path: id, urls: {} });
const section = (id: string, title: string, siteSpaces: unknown[]) => ({ object: 'site-section', id, title, path: id, siteSpaces, urls: {} });
const structure = {
  type: 'sections',
  structure: [
    section('s1', 'Guides', [siteSpace('v1', 'English'), siteSpace('v2', 'French')]),
    { object: 'site-section-group', id: 'g1', title: 'APIs', sections: [], children: [section('s2', 'REST', [siteSpace('v3', 'v1')])] },
  ],
} as unknown as SiteStructure;

describe('reading a structure', () => {
  test('every section, those in groups too', () => assert.deepEqual(sectionsOf(structure).map((s) => s.id), ['s1', 's2']));
  test('every variant with its section', () => assert.deepEqual(siteSpacesOf(structure).map(variantLabel), ['Guides › English', 'Guides › French', 'REST › v1']));
  test('external links, at the top or in a group, are no sections', () => {
    const link = (id: string) => ({ object: 'site-external-link', id, title: id, url: 'https://example.com/', draft: false });
    const withLinks = {
      type: 'sections',
      structure: [section('s1', 'Guides', []), link('l1'), { object: 'site-section-group', id: 'g1', title: 'More', sections: [], children: [link('l2'), section('s2', 'REST', [])] }],
    } as unknown as SiteStructure;
    assert.deepEqual(sectionsOf(withLinks).map((s) => s.id), ['s1', 's2']);
  });
  test('the groups a section or a link can go in, "No group" first; none without groups', () => {
    assert.deepEqual(groupChoices(structure), [{ value: NO_GROUP, label: 'No group' }, { value: 'g1', label: 'APIs' }]);
    assert.deepEqual(groupChoices({ type: 'sections', structure: [section('s1', 'Guides', [])] } as unknown as SiteStructure), []);
  });
  test('a site without sections: its variants alone', () =>
    assert.deepEqual(siteSpacesOf({ type: 'siteSpaces', structure: [siteSpace('v1', 'Docs')] } as unknown as SiteStructure).map(variantLabel), ['Docs']));
});
