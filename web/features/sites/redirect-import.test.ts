import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lineOfError, MAX_ROWS, parseRedirectCsv } from './redirect-import.ts';

const context = { appBase: 'https://docs.example.com/app', siteSpaceOf: (spaceId: string) => (spaceId === 'spaceA' ? 'ss-A' : undefined) };

test("GitBook's own examples: live by default, draft, deleting and publishing", () => {
  const csv = [
    'source,destination,intent',
    '/docs/a,https://example.com/page,',
    '/docs/b,https://example.com/page,live',
    '/docs/c,https://example.com/page,draft',
    '/docs/d,,',
    '/docs/e,,draft',
    '/docs/f,,publish',
  ].join('\n');
  const parsed = parseRedirectCsv(csv, context);
  assert.deepEqual(parsed.problems, []);
  assert.deepEqual(parsed.items, [
    { source: '/docs/a', intent: 'live', destination: { kind: 'external', url: 'https://example.com/page' } },
    { source: '/docs/b', intent: 'live', destination: { kind: 'external', url: 'https://example.com/page' } },
    { source: '/docs/c', intent: 'draft', destination: { kind: 'external', url: 'https://example.com/page' } },
    { source: '/docs/d', intent: 'live', destination: null },
    { source: '/docs/e', intent: 'draft', destination: null },
    { source: '/docs/f', intent: 'publish' },
  ]);
  assert.deepEqual(parsed.lines, [2, 3, 4, 5, 6, 7]);
});

test("a page's URL in this app is a page of the site: by its path, or by its id from the editor", () => {
  const csv = 'Source,Destination\r\n/old,https://docs.example.com/app/s/spaceA/guides/intro\r\n/older,https://docs.example.com/app/s/spaceA/~/edit/page1\r\n/space,https://docs.example.com/app/s/spaceA\r\n';
  const parsed = parseRedirectCsv(csv, context);
  assert.deepEqual(parsed.problems, []);
  assert.deepEqual(parsed.items.map((i) => 'destination' in i && i.destination), [
    { kind: 'path', spaceId: 'spaceA', path: 'guides/intro' },
    { kind: 'site-page', siteSpaceId: 'ss-A', pageId: 'page1' },
    { kind: 'site-space', siteSpaceId: 'ss-A' },
  ]);
});

test('a source named again is imported from its first row; quoted cells and blank lines are read as a spreadsheet writes them', () => {
  const parsed = parseRedirectCsv('\uFEFFsource,destination\n"/a, b",https://x.test/\n\n/a, b,https://y.test/\n"/a, b",https://z.test/\n', context);
  assert.deepEqual(parsed.items, [{ source: '/a, b', intent: 'live', destination: { kind: 'external', url: 'https://x.test/' } }]);
  assert.deepEqual(parsed.duplicates, [5]);
  assert.deepEqual(parsed.problems, [{ line: 4, message: 'destination “b” is neither a page\'s URL in Quire nor a web address (https://…).' }]);
});

test('what is wrong is said by line, naming the column', () => {
  const parsed = parseRedirectCsv('source,destination,intent\n,https://x.test/,\n/a,ftp://x.test/,\n/b,,soon\n/c,https://x.test/,publish\n/d,https://docs.example.com/app/s/other/~/edit/p,\n/e,https://docs.example.com/app/o/org/settings,', context);
  assert.deepEqual(parsed.problems.map((p) => p.line), [2, 3, 4, 5, 6, 7]);
  assert.match(parsed.problems[0]!.message, /^source is empty/);
  assert.match(parsed.problems[1]!.message, /not a web address/);
  assert.match(parsed.problems[2]!.message, /intent “soon”/);
  assert.match(parsed.problems[3]!.message, /leave destination empty/);
  assert.match(parsed.problems[4]!.message, /space other is not shown by this site/);
  assert.match(parsed.problems[5]!.message, /not a page's/);
});

test('a file without the header, without rows, or with too many rows is refused whole', () => {
  assert.match(parseRedirectCsv('/a,https://x.test/\n', context).problems[0]!.message, /first row names the columns/);
  assert.match(parseRedirectCsv('source,destination\n', context).problems[0]!.message, /no redirect/);
  const many = ['source,destination', ...Array.from({ length: MAX_ROWS + 1 }, (_, i) => `/p${i},https://x.test/${i}`)].join('\n');
  assert.match(parseRedirectCsv(many, context).problems[0]!.message, /501 redirects: import 500 at most/);
});

test("the API's error about an item is the line of the file", () => {
  assert.equal(lineOfError('body/redirects/2/destination/url: not a URL', [2, 3, 7]), 7);
  assert.equal(lineOfError('Changing redirects needs the site admin role', [2]), undefined);
});
