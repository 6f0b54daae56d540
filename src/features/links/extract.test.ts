import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractLinks } from './extract.ts';
import { analyzeLinks, statsOf, type LinkRow } from './analysis.ts';

const doc = (...nodes: unknown[]) => ({ object: 'document', data: {}, nodes });
const paragraph = (...nodes: unknown[]) => ({ object: 'block', type: 'paragraph', nodes });
const link = (ref: unknown) => ({ object: 'inline', type: 'link', data: { ref }, nodes: [{ object: 'text', leaves: [{ text: 'x' }] }] });

test('an inline link to a page is a reference to that page', () => {
  assert.deepEqual(extractLinks(doc(paragraph(link({ kind: 'page', page: 'p1' })))), [{ kind: 'page', target: 'p1', anchor: null, space: null, relation: 'reference' }]);
});

test('a link to a page of another space keeps the space', () => {
  assert.equal(extractLinks(doc(paragraph(link({ kind: 'page', page: 'p1', space: 's2' }))))[0]?.space, 's2');
});

test('an anchor without a page is on the page itself', () => {
  assert.deepEqual(extractLinks(doc(paragraph(link({ kind: 'anchor', anchor: 'setup' })))), [{ kind: 'anchor', target: '', anchor: 'setup', space: null, relation: 'reference' }]);
});

test('an anchor in another page names that page', () => {
  assert.equal(extractLinks(doc(paragraph(link({ kind: 'anchor', anchor: 'a', page: 'p2' }))))[0]?.target, 'p2');
});

test('external links are http(s) URLs; mailto and relative URLs are not checked', () => {
  const links = extractLinks(doc(paragraph(link({ kind: 'url', url: 'https://example.com/a' }), link({ kind: 'url', url: 'mailto:a@b.c' }), link({ kind: 'url', url: '../x' }))));
  assert.deepEqual(
    links.map((l) => l.target),
    ['https://example.com/a'],
  );
});

test('images and file blocks depend on their files', () => {
  const images = { object: 'block', type: 'images', nodes: [{ object: 'block', type: 'image', data: { ref: { kind: 'file', file: 'f1' }, refDark: { kind: 'url', url: 'http://cdn.test/d.png' } } }] };
  const file = { object: 'block', type: 'file', isVoid: true, data: { ref: { kind: 'file', file: 'f2' } } };
  assert.deepEqual(
    extractLinks(doc(images, file)).map((l) => [l.kind, l.target, l.relation]),
    [
      ['file', 'f1', 'dependsOn'],
      ['url', 'http://cdn.test/d.png', 'dependsOn'],
      ['file', 'f2', 'dependsOn'],
    ],
  );
});

test('embeds and content-ref blocks are references', () => {
  const embed = { object: 'block', type: 'embed', isVoid: true, data: { url: 'https://video.test/1' } };
  const contentRef = { object: 'block', type: 'content-ref', isVoid: true, data: { ref: { kind: 'page', page: 'p3' } } };
  assert.deepEqual(
    extractLinks(doc(embed, contentRef)).map((l) => [l.kind, l.target, l.relation]),
    [
      ['url', 'https://video.test/1', 'reference'],
      ['page', 'p3', 'reference'],
    ],
  );
});

test('links nested in hints, lists and tabs are found, each target once per relation', () => {
  const nested = { object: 'block', type: 'hint', data: { style: 'info' }, nodes: [{ object: 'block', type: 'list-unordered', nodes: [{ object: 'block', type: 'list-item', nodes: [paragraph(link({ kind: 'page', page: 'p1' }))] }] }] };
  assert.deepEqual(
    extractLinks(doc(nested, paragraph(link({ kind: 'page', page: 'p1' })))).map((l) => l.target),
    ['p1'],
  );
});

test('users, collections and spaces are not links; malformed refs are skipped', () => {
  const refs = [{ kind: 'user', user: 'u' }, { kind: 'collection', collection: 'c' }, { kind: 'space', space: 's' }, { kind: 'page' }, { kind: 'file', file: '' }, null, 'x'];
  assert.deepEqual(extractLinks(doc(paragraph(...refs.map(link)))), []);
});

test('a deeply nested document is walked without recursion', () => {
  let node: unknown = paragraph(link({ kind: 'page', page: 'deep' }));
  for (let i = 0; i < 20_000; i += 1) node = { object: 'block', type: 'blockquote', nodes: [node] };
  assert.equal(extractLinks(doc(node))[0]?.target, 'deep');
});

test('not a document: no links', () => {
  assert.deepEqual(extractLinks(null), []);
  assert.deepEqual(extractLinks('text'), []);
});

const row = (page_id: string, kind: LinkRow['kind'], target: string, extra: Partial<LinkRow> = {}): LinkRow => ({ page_id, kind, target, anchor: null, space_id: null, relation: 'reference', ...extra });
const resolution = { spaceId: 's', livePages: new Set(['a', 'b']), liveFiles: new Set(['f']), brokenUrls: new Set(['https://gone.test/']), appUrl: 'http://quire.test' };

test('links are grouped by target with their pages, and missing internal targets are broken', () => {
  const items = analyzeLinks([row('a', 'page', 'b'), row('c', 'page', 'b'), row('a', 'page', 'zz'), row('a', 'file', 'f'), row('a', 'file', 'g')], resolution);
  assert.deepEqual(
    items.map((i) => [i.key, i.status, i.locations]),
    [
      ['file:f', 'ok', ['a']],
      ['file:g', 'broken', ['a']],
      ['page:b', 'ok', ['a', 'c']],
      ['page:zz', 'broken', ['a']],
    ],
  );
});

test('URLs: broken after a failed check, in-app when they point into the app, ok otherwise', () => {
  const items = analyzeLinks([row('a', 'url', 'https://gone.test/'), row('a', 'url', 'http://quire.test/s/x'), row('a', 'url', 'https://fine.test/')], resolution);
  assert.deepEqual(
    items.map((i) => [i.key, i.status]),
    [
      ['url:http://quire.test/s/x', 'in-app'],
      ['url:https://fine.test/', 'ok'],
      ['url:https://gone.test/', 'broken'],
    ],
  );
});

test('an anchor on its own page targets that page; links into other spaces are left out', () => {
  const items = analyzeLinks([row('a', 'anchor', '', { anchor: 'top' }), row('a', 'page', 'b', { space_id: 'other' })], resolution);
  assert.deepEqual(
    items.map((i) => i.target),
    [{ kind: 'page', page: 'a', anchor: 'top' }],
  );
});

test('stats count the broken links, and those a change request broke', () => {
  const base = analyzeLinks([row('a', 'page', 'zz')], resolution);
  const cr = analyzeLinks([row('a', 'page', 'zz'), row('a', 'page', 'yy'), row('a', 'page', 'b')], resolution);
  assert.deepEqual(statsOf(cr), { total: 3, broken: { total: 2 } });
  assert.deepEqual(statsOf(cr, base), { total: 3, broken: { total: 2, changeRequest: 1 } });
});
