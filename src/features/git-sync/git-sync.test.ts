import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError } from '../../../test/assertions.ts';
import { buildSpace, editLive } from '../../../test/factories.ts';
import { startGitServer, type GitServer } from './git-server.test-support.ts';
import { CORPUS_DIR } from '../../../test/corpus/pages.ts';


// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

interface Node {
  id: string;
  title: string;
  kind: string;
  type: string;
  path?: string;
  slug?: string;
  href?: string;
  target?: Json;
  pages?: Node[];
}

function flatten(pages: Node[]): Node[] {
  return pages.flatMap((p) => [p, ...flatten(p.pages ?? [])]);
}

describe('Git Sync', () => {
  let t: TestServer;
  let git: GitServer;
  let corpusCopy: string;

  before(async () => {
    t = await startServer({ env: { ALLOW_PRIVATE_FETCH: 'true' } });
    git = await startGitServer();
    // The real GitBook documentation repository, with a .gitbook.yaml holding redirects.
    corpusCopy = mkdtempSync(join(tmpdir(), 'quire-corpus-'));
    cpSync(CORPUS_DIR, corpusCopy, { recursive: true });
    chmodSync(corpusCopy, 0o755);
    writeFileSync(
      join(corpusCopy, '.gitbook.yaml'),
      'root: ./\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n\nredirects:\n  old-quickstart: getting-started/quickstart.md\n  guides/blocks: create-content/blocks/README.md\n',
    );
    git.createRepository('docs', { copyOf: corpusCopy });
  });

  after(async () => {
    await git.close();
    await t.close();
    rmSync(corpusCopy, { recursive: true, force: true });
  });

  async function importRepo(spaceId: string, body: Record<string, unknown>, token?: string) {
    const res = await t.api('POST', `/v1/spaces/${spaceId}/git/import`, { body, ...(token ? { token } : {}) });
    if (res.status !== 204) return res;
    await t.app.jobs.runDue();
    return res;
  }

  async function pagesOf(spaceId: string): Promise<Node[]> {
    return (await t.api('GET', `/v1/spaces/${spaceId}/content/pages`)).body.pages;
  }

  async function markdownOf(spaceId: string, pageId: string): Promise<string> {
    return (await t.api('GET', `/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`)).body.markdown;
  }

  test('the GitBook documentation repository imports with its tree, groups, links, assets and redirects', async () => {
    const space = await buildSpace(t);
    const started = await importRepo(space.id, { url: git.url('docs'), ref: 'refs/heads/main' });
    assert.equal(started.status, 204);

    const info = await t.api('GET', `/v1/spaces/${space.id}/git/info`);
    assert.equal(info.status, 200);
    assert.equal(info.body.operation.state, 'success', info.body.operation.error);
    assert.equal(info.body.operation.direction, 'import');
    assert.equal(info.body.installationStatus, 'active');
    assert.equal(info.body.repoName, 'docs');

    const top = await pagesOf(space.id);
    const all = flatten(top);
    // The readme first, then groups as groups.
    assert.equal(top[0]!.title, 'GitBook documentation');
    assert.equal(top[0]!.kind, 'sheet');
    const getStarted = top.find((p) => p.title === 'Get Started')!;
    assert.equal(getStarted.kind, 'group');
    assert.deepEqual(getStarted.pages!.map((p) => p.title), ['Quickstart', 'LLM-ready docs', 'Migrate to GitBook', 'Site workspace']);
    // README files are parent pages.
    const blocks = all.find((p) => p.title === 'Blocks')!;
    assert.ok(blocks.pages!.some((p) => p.title === 'Paragraphs'));
    // Link entries are link pages: to a place in another page, or to a URL.
    const buttons = all.find((p) => p.title === 'Buttons')!;
    assert.equal(buttons.type, 'link');
    const inline = all.find((p) => p.title === 'Inline content')!;
    assert.deepEqual(buttons.target, { kind: 'anchor', anchor: 'buttons', page: inline.id });
    const custom = all.find((p) => p.title === 'Custom blocks')!;
    assert.equal(custom.target.kind, 'url');
    assert.ok(all.filter((p) => p.type === 'document').length >= 170, `documents: ${all.filter((p) => p.type === 'document').length}`);

    // Assets are files, and the pages' images point at them.
    const files = (await t.api('GET', `/v1/spaces/${space.id}/content/files?limit=1000`)).body;
    assert.ok(files.items.length >= 150, `files: ${files.items.length}`);
    const quickstart = all.find((p) => p.title === 'Quickstart')!;
    // Links between files are links between pages; images and files are the space's files.
    assert.match(await markdownOf(space.id, quickstart.id), /\/pages\/[A-Za-z0-9]+/);
    let withFiles = 0;
    for (const page of all.filter((p) => p.type === 'document')) if (/\/files\/[A-Za-z0-9]+/.test(await markdownOf(space.id, page.id))) withFiles += 1;
    assert.ok(withFiles >= 20, `pages using files: ${withFiles}`);

    // Redirects of .gitbook.yaml are kept, pointed at their pages.
    const rows = await t.db.selectFrom('space_redirects').selectAll().where('space_id', '=', space.id).orderBy('source').execute();
    assert.deepEqual(
      rows.map((r) => [r.source, r.page_id]),
      [
        ['guides/blocks', blocks.id],
        ['old-quickstart', quickstart.id],
      ],
    );

    const events = await t.db.selectFrom('events').select(['type', 'payload']).where('type', 'like', 'space_gitsync%').execute();
    assert.ok(events.some((e) => e.type === 'space_gitsync_started' && JSON.parse(e.payload).spaceId === space.id));
    assert.ok(events.some((e) => e.type === 'space_gitsync_completed' && JSON.parse(e.payload).state === 'success'));
  });

  test('front matter is kept as page settings', async () => {
    git.createRepository('front', {
      'README.md': '---\ndescription: The start\nicon: rocket\nhidden: true\n---\n\n# Welcome\n\nHello.\n',
      'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Next](next.md)\n',
      'next.md': '# Next\n\nSee [the start](README.md#hello).\n',
    });
    const space = await buildSpace(t);
    await importRepo(space.id, { url: git.url('front'), ref: 'refs/heads/main' });
    const [welcome, next] = await pagesOf(space.id);
    assert.equal(welcome!.title, 'Welcome');
    const page = (await t.api('GET', `/v1/spaces/${space.id}/content/page/${welcome!.id}`)).body;
    assert.equal(page.description, 'The start');
    assert.equal(page.icon, 'rocket');
    assert.equal(page.hidden, true);
    assert.match(await markdownOf(space.id, next!.id), new RegExp(`/pages/${welcome!.id}#hello`));
  });

  test('an MkDocs repository imports as its nav, and the operation keeps the report of what was read and not carried over, after an export too', async () => {
    git.createRepository('mkdocs', {
      'mkdocs.yml': 'site_name: Site\nnav:\n  - Home: index.md\n  - Guide:\n    - Setup: guide/setup.md\n',
      'docs/index.md': '# Home\n\n!!! tip "Quick"\n\n    Start here.\n',
      'docs/guide/setup.md': '# Setup\n\nAdd a :simple-nosuchbrand: badge.\n',
    });
    const space = await buildSpace(t);
    await importRepo(space.id, { url: git.url('mkdocs'), ref: 'refs/heads/main' });
    const pages = await pagesOf(space.id);
    assert.deepEqual(pages.map((p) => [p.title, (p.pages ?? []).map((c) => c.title)]), [['Home', []], ['Guide', ['Setup']]]);
    const info = await t.api('GET', `/v1/spaces/${space.id}/git/info`);
    assert.equal(info.status, 200);
    assert.equal(info.body.operation.state, 'success');
    assert.equal(info.body.operation.report.layout, 'mkdocs');
    const setupReport = [{ file: 'docs/guide/setup.md', title: 'Setup', notes: ['icon shortcode with no icon of its name in Quire’s set (:name:): kept as written'] }];
    assert.deepEqual(info.body.operation.report.pages, setupReport);
    assert.deepEqual(info.body.lastImport, { endedAt: info.body.operation.endedAt, report: info.body.operation.report });

    // An export (one follows every merge) is the operation now, and has no report: the last import's stays.
    assert.equal((await t.api('POST', `/v1/spaces/${space.id}/git/export`, { body: { url: git.url('mkdocs'), ref: 'refs/heads/out', commitMessage: 'Export' } })).status, 204);
    await t.app.jobs.runDue();
    const after = (await t.api('GET', `/v1/spaces/${space.id}/git/info`)).body;
    assert.equal(after.operation.direction, 'export');
    assert.equal(after.operation.state, 'success', after.operation.error);
    assert.equal(after.operation.report, undefined);
    assert.equal(after.lastImport.report.layout, 'mkdocs');
    assert.deepEqual(after.lastImport.report.pages, setupReport);
    assert.equal(after.lastImport.endedAt, info.body.operation.endedAt);
  });

  test("the reader answers the repository's redirects with 301s to their pages", async () => {
    git.createRepository('moved', {
      '.gitbook.yaml': 'redirects:\n  old/setup: guide/setup.md\n  legacy: guide/setup.md#install\n  gone: missing.md\n',
      'README.md': '# Home\n',
      'SUMMARY.md': '* [Home](README.md)\n* [Guide](guide/README.md)\n  * [Setup](guide/setup.md)\n',
      'guide/README.md': '# Guide\n',
      'guide/setup.md': '# Setup\n\n## Install\n',
    });
    const space = await buildSpace(t);
    await importRepo(space.id, { url: git.url('moved'), ref: 'refs/heads/main' });
    const site = (await t.api('POST', `/v1/orgs/${t.org.id}/sites`, { body: { title: 'Moved', visibility: 'public', spaces: [space.id] } })).body;
    assert.equal((await t.api('POST', `/v1/orgs/${t.org.id}/sites/${site.id}/publish`)).status, 200);
    const get = (url: string) => t.app.inject({ method: 'GET', url });
    const moved = await get(`/sites/${site.id}/old/setup`);
    assert.equal(moved.statusCode, 301);
    assert.equal(moved.headers.location, `/sites/${site.id}/guide/setup`);
    const anchored = await get(`/sites/${site.id}/legacy/`);
    assert.equal(anchored.statusCode, 301);
    assert.equal(anchored.headers.location, `/sites/${site.id}/guide/setup#install`);
    assert.equal((await get(`/sites/${site.id}/gone`)).statusCode, 404);
    assert.equal((await get(`/sites/${site.id}/never-was`)).statusCode, 404);
    assert.equal((await get(`/sites/${site.id}/guide/setup`)).statusCode, 200);
  });

  test('an import again keeps the pages and writes only what changed', async () => {
    git.createRepository('again', { 'README.md': '# Home\n\nOne.\n', 'a.md': '# A\n\nA.\n', 'SUMMARY.md': '* [Home](README.md)\n* [A](a.md)\n' });
    const space = await buildSpace(t);
    await importRepo(space.id, { url: git.url('again'), ref: 'refs/heads/main' });
    const first = await pagesOf(space.id);
    git.createRepository('again', { 'README.md': '# Home\n\nTwo.\n', 'a.md': '# A\n\nA.\n', 'SUMMARY.md': '* [Home](README.md)\n* [A](a.md)\n' });
    await importRepo(space.id, { url: git.url('again'), ref: 'refs/heads/main' });
    const second = await pagesOf(space.id);
    assert.deepEqual(
      second.map((p) => p.id),
      first.map((p) => p.id),
    );
    assert.match(await markdownOf(space.id, second[0]!.id), /Two\./);
  });

  test('a standalone import opens a change request and leaves the main content alone', async () => {
    git.createRepository('standalone', { 'README.md': '# Proposal\n', 'SUMMARY.md': '* [Proposal](README.md)\n' });
    const space = await buildSpace(t);
    await importRepo(space.id, { url: git.url('standalone'), ref: 'refs/heads/main', standalone: true });
    assert.equal((await pagesOf(space.id)).length, 0);
    const crs = (await t.api('GET', `/v1/spaces/${space.id}/change-requests`)).body.items;
    assert.equal(crs.length, 1);
    const inCr = (await t.api('GET', `/v1/spaces/${space.id}/change-requests/${crs[0].id}/content/pages`)).body.pages;
    assert.deepEqual(
      inCr.map((p: Node) => p.title),
      ['Proposal'],
    );
  });

  test('the space exports to a branch and the export imports back to the same export, byte for byte', async () => {
    const space = await buildSpace(t);
    await importRepo(space.id, { url: git.url('docs'), ref: 'refs/heads/main' });
    const exported = await t.api('POST', `/v1/spaces/${space.id}/git/export`, { body: { url: git.url('docs'), ref: 'refs/heads/quire', commitMessage: 'Export from Quire' } });
    assert.equal(exported.status, 204);
    await t.app.jobs.runDue();
    const info = (await t.api('GET', `/v1/spaces/${space.id}/git/info`)).body;
    assert.equal(info.operation.state, 'success', info.operation.error);
    assert.equal(info.operation.direction, 'export');
    assert.equal(git.headMessage('docs', 'quire'), 'Export from Quire');
    const first = git.filesOf('docs', 'quire');
    assert.ok(first.has('SUMMARY.md') && first.has('README.md') && first.has('.gitbook.yaml'));
    assert.match(first.get('.gitbook.yaml')!.toString(), /old-quickstart: getting-started\/quickstart\.md/);
    assert.match(first.get('SUMMARY.md')!.toString(), /^## Get Started$/m);
    // Pages go back to the files they came from.
    const original = git.filesOf('docs', 'main');
    const pagesBack = [...original.keys()].filter((k) => k.endsWith('.md') && k !== 'SUMMARY.md');
    assert.deepEqual(pagesBack.filter((k) => !first.has(k)), []);
    assert.ok([...first.keys()].filter((k) => k.startsWith('.gitbook/assets/')).length >= 150);

    // Import the export into another space, export that: the same files.
    const copy = await buildSpace(t);
    await importRepo(copy.id, { url: git.url('docs'), ref: 'refs/heads/quire' });
    assert.equal((await t.api('GET', `/v1/spaces/${copy.id}/git/info`)).body.operation.state, 'success');
    await t.api('POST', `/v1/spaces/${copy.id}/git/export`, { body: { url: git.url('docs'), ref: 'refs/heads/again', commitMessage: 'Again' } });
    await t.app.jobs.runDue();
    const second = git.filesOf('docs', 'again');
    assert.deepEqual([...second.keys()].sort(), [...first.keys()].sort());
    const differing = [...first.keys()].filter((k) => !first.get(k)!.equals(second.get(k)!));
    assert.deepEqual(differing, []);
  });

  test('an export with nothing new pushes no commit', async () => {
    git.createRepository('quiet', { 'README.md': '# Home\n', 'SUMMARY.md': '* [Home](README.md)\n' });
    const space = await buildSpace(t);
    await importRepo(space.id, { url: git.url('quiet'), ref: 'refs/heads/main' });
    for (const message of ['First', 'Second']) {
      await t.api('POST', `/v1/spaces/${space.id}/git/export`, { body: { url: git.url('quiet'), ref: 'refs/heads/out', commitMessage: message } });
      await t.app.jobs.runDue();
    }
    assert.equal(git.headMessage('quiet', 'out'), 'First');
  });

  test('an export changes only the files of the pages edited: the rest of the repository and its layout stay as they were', async () => {
    const docs = {
      '.gitbook.yaml': 'root: ./docs/\n\nstructure:\n  readme: intro.md\n  summary: toc.md\n\nredirects:\n  old: guide.md\n  away: https://example.com/moved/here\n',
      'docs/toc.md': '# Table of contents\n\n* [Intro](intro.md)\n* [Guide](guide.md)\n',
      'docs/intro.md': '# Intro\n\nWelcome. <img src="images/bar.png" alt="Bar">\n',
      'docs/guide.md': '# Guide\n\nThe first version.\n',
      'docs/images/bar.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 1]),
      'docs/.gitbook/assets/agents/y.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 2]),
      'docs/notes.txt': 'not a page\n',
    };
    const own = {
      LICENSE: 'MIT License\n',
      '.github/workflows/ci.yml': 'on: push\njobs: {}\n',
      'src/index.ts': 'export const answer = 42;\n',
      'README.md': '# The project\n\nNot the documentation.\n',
    };
    git.createRepository('owned', { ...docs, ...own });
    const space = await buildSpace(t);
    await importRepo(space.id, { url: git.url('owned'), ref: 'refs/heads/main' });
    assert.equal((await t.api('GET', `/v1/spaces/${space.id}/git/info`)).body.operation.state, 'success');
    const guide = flatten(await pagesOf(space.id)).find((p) => p.title === 'Guide')!;
    await editLive(t, space.id, [{ operation: 'update_page', page: guide.id, document: { markdown: 'The second version.\n' } }]);

    await t.api('POST', `/v1/spaces/${space.id}/git/export`, { body: { url: git.url('owned'), ref: 'refs/heads/main', commitMessage: 'Edit the guide' } });
    await t.app.jobs.runDue();
    assert.equal((await t.api('GET', `/v1/spaces/${space.id}/git/info`)).body.operation.state, 'success');
    assert.equal(git.headMessage('owned', 'main'), 'Edit the guide');
    const after = git.filesOf('owned', 'main');
    const before = new Map(Object.entries({ ...docs, ...own }).map(([path, content]) => [path, Buffer.from(content)]));
    assert.deepEqual([...after.keys()].sort(), [...before.keys()].sort(), 'no file added, moved or deleted');
    assert.deepEqual(
      [...before.keys()].filter((path) => !before.get(path)!.equals(after.get(path)!)),
      ['docs/guide.md'],
    );
    assert.equal(after.get('docs/guide.md')!.toString(), '# Guide\n\nThe second version.\n');
  });

  test('credentials in the URL are used and never stored or shown', async () => {
    git.createRepository('private', { 'README.md': '# Secret\n' });
    git.requireAuth('bot:s3cret');
    try {
      const space = await buildSpace(t);
      await importRepo(space.id, { url: git.url('private').replace('http://', 'http://bot:s3cret@'), ref: 'refs/heads/main' });
      const info = (await t.api('GET', `/v1/spaces/${space.id}/git/info`)).body;
      assert.equal(info.operation.state, 'success', info.operation.error);
      assert.doesNotMatch(JSON.stringify(info), /s3cret/);
      const jobs = await t.db.selectFrom('jobs').select('payload').execute();
      assert.ok(jobs.every((j) => !j.payload.includes('s3cret')));
      const events = await t.db.selectFrom('events').select('payload').where('type', 'like', 'space_gitsync%').execute();
      assert.ok(events.every((e) => !e.payload.includes('s3cret')));

      const refused = await buildSpace(t);
      await importRepo(refused.id, { url: git.url('private'), ref: 'refs/heads/main' });
      const failed = (await t.api('GET', `/v1/spaces/${refused.id}/git/info`)).body.operation;
      assert.equal(failed.state, 'failure');
      assert.match(failed.error, /refused the credentials/);
    } finally {
      git.requireAuth(undefined);
    }
  });

  test('a missing branch or repository ends the operation as a failure, naming it', async () => {
    const space = await buildSpace(t);
    await importRepo(space.id, { url: git.url('docs'), ref: 'refs/heads/nope' });
    const op = (await t.api('GET', `/v1/spaces/${space.id}/git/info`)).body.operation;
    assert.equal(op.state, 'failure');
    assert.match(op.error, /nope/);
    await importRepo(space.id, { url: git.url('missing'), ref: 'refs/heads/main' });
    assert.equal((await t.api('GET', `/v1/spaces/${space.id}/git/info`)).body.operation.state, 'failure');
  });

  test('bad input is refused before anything starts', async () => {
    const space = await buildSpace(t);
    assertError(await t.api('POST', `/v1/spaces/${space.id}/git/import`, { body: { url: 'ftp://example.com/r.git', ref: 'refs/heads/main' } }), 400, /body\/url/);
    assertError(await t.api('POST', `/v1/spaces/${space.id}/git/import`, { body: { url: git.url('docs'), ref: 'refs/tags/v1' } }), 400, /body\/ref/);
    assertError(await t.api('POST', `/v1/spaces/${space.id}/git/import`, { body: { url: git.url('docs') } }), 400, /ref/);
    assertError(await t.api('POST', `/v1/spaces/${space.id}/git/export`, { body: { url: git.url('docs'), ref: 'main', commitMessage: '  ' } }), 400, /commitMessage/);
    assertError(await t.api('GET', `/v1/spaces/${space.id}/git/info`), 404, /not synced/);
  });

  test('only editors may sync; outsiders learn nothing', async () => {
    const space = await buildSpace(t);
    const reader = await t.member('read');
    const outsider = await t.outsider();
    assertError(await t.api('POST', `/v1/spaces/${space.id}/git/import`, { body: { url: git.url('docs'), ref: 'main' }, token: reader.token }), 403, /edit/);
    assertError(await t.api('POST', `/v1/spaces/${space.id}/git/import`, { body: { url: git.url('docs'), ref: 'main' }, token: outsider.token }), 404);
    assertError(await t.api('GET', `/v1/spaces/${space.id}/git/info`, { token: outsider.token }), 404);
  });

  test('a repository on a private address is refused unless the server allows it', async () => {
    const strict = await startServer();
    try {
      const space = await buildSpace(strict);
      const res = await strict.api('POST', `/v1/spaces/${space.id}/git/import`, { body: { url: git.url('docs'), ref: 'main' } });
      assert.equal(res.status, 204);
      await strict.app.jobs.runDue();
      const op = (await strict.api('GET', `/v1/spaces/${space.id}/git/info`)).body.operation;
      assert.equal(op.state, 'failure');
      assert.match(op.error, /loopback/);
    } finally {
      await strict.close();
    }
  });
});
