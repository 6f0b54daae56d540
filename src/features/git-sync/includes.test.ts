import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { buildSpace } from '../../../test/factories.ts';
import type { Document } from '../content/document/types.ts';
import { getDocument } from '../content/document-store.ts';
import { findSpace } from '../spaces/queries.ts';
import { findRevision } from '../content/branch-store.ts';
import { Snapshot } from '../content/snapshot.ts';
import type { PageRecord } from '../content/pages.ts';
import type { ReusableContentRecord } from '../content/reusable-contents.ts';
import { exportLayout } from './export-repository.ts';
import { prepareRepositoryImport } from './import-repository.ts';
import { includePaths, readInclude, writeInclude } from './includes.ts';
import { exportFiles, importFiles } from './service.ts';

/*
 * Reusable contents in a Git Sync repository (issue 46): files of `.gitbook/includes/`, included by pages with
 * `{% include "<path relative to the page>" %}`. The GitBook corpus (../shared/corpus) has no includes folder: its
 * one `{% include %}` is inside a code block of the page about them, so these repositories are made here.
 */

const repository = (files: Record<string, string>) => new Map(Object.entries(files).map(([path, text]) => [path, Buffer.from(text, 'utf8')]));

const REPO = {
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide/README.md)\n  * [Setup](guide/setup.md)\n',
  'README.md': '# Welcome\n\n{% include ".gitbook/includes/warning.md" %}\n',
  'guide/README.md': '# Guide\n\nThe guide.\n',
  'guide/setup.md': '# Setup\n\nBefore.\n\n{% include "../.gitbook/includes/warning.md" %}\n\nAfter.\n',
  '.gitbook/includes/warning.md': '---\ntitle: Mind the gap\n---\n\n# A heading of its own\n\nRead [the setup](../../guide/setup.md) first.\n',
  '.gitbook/includes/no-front-matter.md': 'Plain words.\n',
};

type Block = { type: string; data?: { ref?: { kind: string; reusableContent?: string; page?: string } }; nodes?: Block[] };

function includesOf(document: unknown): string[] {
  const out: string[] = [];
  const visit = (nodes: Block[] = []) => {
    for (const node of nodes) {
      if (node.type === 'reusable-content') out.push(node.data!.ref!.reusableContent!);
      visit(node.nodes);
    }
  };
  visit((document as { nodes: Block[] } | null)?.nodes);
  return out;
}

describe('Git Sync includes: files and paths', () => {
  test('an include file: the title in front matter, else its name; a leading heading is content', () => {
    assert.deepEqual(readInclude('---\ntitle: Mind the gap\n---\n\n# Heading\n\nText.\n', '.gitbook/includes/warning.md'), { title: 'Mind the gap', body: '# Heading\n\nText.\n' });
    assert.deepEqual(readInclude('Plain.\n', '.gitbook/includes/no-front-matter.md'), { title: 'No front matter', body: 'Plain.\n' });
    assert.equal(writeInclude('Mind the gap', 'Text.'), '---\ntitle: Mind the gap\n---\n\nText.\n');
  });

  test('each reusable content keeps the file it came from while it is free, others are named after their titles', () => {
    const paths = includePaths([
      { id: 'a', title: 'Warning', git: { path: '.gitbook/includes/old-name.md' } },
      { id: 'b', title: 'Warning' },
      { id: 'c', title: 'Warning', git: { path: '.gitbook/includes/OLD-NAME.md' } },
      { id: 'd', title: 'Outside', git: { path: '../escape.md' } },
    ]);
    assert.deepEqual(Object.fromEntries(paths), {
      a: '.gitbook/includes/old-name.md',
      b: '.gitbook/includes/warning.md',
      c: '.gitbook/includes/warning-2.md',
      d: '.gitbook/includes/outside.md',
    });
  });

  test('an import reads each include file as a reusable content, and resolves includes from any folder to its id', async () => {
    const prepared = await prepareRepositoryImport(repository(REPO), {});
    const byPath = new Map(prepared.reusableContents.map((r) => [r.path, r]));
    assert.deepEqual([...byPath.keys()].sort(), ['.gitbook/includes/no-front-matter.md', '.gitbook/includes/warning.md']);
    const warning = byPath.get('.gitbook/includes/warning.md')!;
    assert.equal(warning.title, 'Mind the gap');
    assert.equal(byPath.get('.gitbook/includes/no-front-matter.md')!.title, 'No front matter');
    assert.deepEqual(
      prepared.pages.map((p) => p.title),
      ['Welcome', 'Guide', 'Setup'],
      'include files are no pages',
    );
    const setup = prepared.pages.find((p) => p.title === 'Setup')!;
    const welcome = prepared.pages.find((p) => p.title === 'Welcome')!;
    assert.deepEqual(includesOf(setup.document), [warning.id]);
    assert.deepEqual(includesOf(welcome.document), [warning.id]);
    // The include's own links are relative to its file.
    const json = JSON.stringify(warning.document);
    assert.ok(json.includes(`"page":"${setup.id}"`), json);
    assert.ok(json.includes('A heading of its own'));

    // Imported again over the same content, each keeps its id.
    const again = await prepareRepositoryImport(repository(REPO), { existing: { pages: new Map(), files: new Map(), reusableContents: new Map([['.gitbook/includes/warning.md', 'kept-id']]) } });
    assert.equal(again.reusableContents.find((r) => r.path === '.gitbook/includes/warning.md')!.id, 'kept-id');
    assert.deepEqual(includesOf(again.pages.find((p) => p.title === 'Setup')!.document), ['kept-id']);
  });

  test('an export writes each reusable content to its file and each include as a path from the page', () => {
    const now = '2026-01-01T00:00:00.000Z';
    const page = (id: string, title: string, slug: string, parentId: string | null, documentId: string | null, position: string): PageRecord => ({
      id,
      parentId,
      position,
      kind: 'document',
      title,
      slug,
      documentId,
      attributes: {},
      createdAt: now,
      updatedAt: now,
    });
    const include = (id: string) => ({ object: 'block', type: 'reusable-content', isVoid: true, data: { ref: { kind: 'reusable-content', reusableContent: id } } });
    const paragraph = (text: string) => ({ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text }] }] });
    const documents = new Map<string, unknown>([
      ['d-home', { object: 'document', data: {}, nodes: [paragraph('Home.')] }],
      ['d-guide', { object: 'document', data: {}, nodes: [paragraph('Guide.')] }],
      ['d-setup', { object: 'document', data: {}, nodes: [paragraph('Before.'), include('rc1'), include('unknown')] }],
      ['d-rc1', { object: 'document', data: {}, nodes: [paragraph('Mind the gap.')] }],
    ]);
    const contents: ReusableContentRecord[] = [{ id: 'rc1', title: 'Mind the gap', documentId: 'd-rc1', createdAt: now, updatedAt: now }];
    const layout = exportLayout({
      pages: [page('home', 'Home', 'home', null, 'd-home', 'a'), page('guide', 'Guide', 'guide', null, 'd-guide', 'b'), page('setup', 'Setup', 'setup', 'guide', 'd-setup', 'a')],
      reusableContents: contents,
      documents,
      files: [],
      redirects: [],
    });
    assert.equal(layout.texts.get('.gitbook/includes/mind-the-gap.md'), '---\ntitle: Mind the gap\n---\n\nMind the gap.\n');
    const setup = layout.texts.get('guide/setup.md')!;
    assert.match(setup, /\{% include "\.\.\/\.gitbook\/includes\/mind-the-gap\.md" %\}/);
    assert.match(setup, /\{% include "unknown" %\}/, 'an include of what the revision does not hold keeps its id');
  });
});

describe('Git Sync includes: a space imported from a repository and exported back', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  async function snapshotOf(spaceId: string) {
    const space = await findSpace(t.app.ctx.db, spaceId);
    return Snapshot.of(t.app.ctx.db, (await findRevision(t.app.ctx.db, space!.revision_id))!);
  }

  test('the space holds the reusable contents, pages include them, an export writes the same files, a re-import keeps ids and drops removed ones', async () => {
    const space = await buildSpace(t, { title: 'Synced' });
    await importFiles(t.app.ctx, space.id, t.admin.userId, repository(REPO), {});
    const snapshot = await snapshotOf(space.id);
    const contents = await snapshot.reusableContents();
    assert.deepEqual(contents.map((c) => c.title).sort(), ['Mind the gap', 'No front matter']);
    const warning = contents.find((c) => c.title === 'Mind the gap')!;
    assert.equal(warning.git?.path, '.gitbook/includes/warning.md');
    const setup = (await snapshot.pages()).find((p) => p.title === 'Setup')!;
    assert.deepEqual(includesOf(await getDocument(t.app.ctx.db, setup.documentId!)), [warning.id]);
    assert.equal(((await getDocument(t.app.ctx.db, warning.documentId!)) as Document).object, 'document');

    const exported = await exportFiles(t.app.ctx, space.id);
    const text = (path: string) => exported.get(path)?.toString('utf8');
    assert.equal(text('.gitbook/includes/warning.md'), '---\ntitle: Mind the gap\n---\n\n# A heading of its own\n\nRead [the setup](../../guide/setup.md) first.\n');
    assert.match(text('guide/setup.md')!, /\{% include "\.\.\/\.gitbook\/includes\/warning\.md" %\}/);
    assert.match(text('README.md')!, /\{% include "\.gitbook\/includes\/warning\.md" %\}/);

    // The repository loses one include file: imported again, the other keeps its id and the lost one is deleted.
    const { ['.gitbook/includes/no-front-matter.md']: _gone, ...rest } = REPO;
    await importFiles(t.app.ctx, space.id, t.admin.userId, repository(rest), {});
    const after = await (await snapshotOf(space.id)).reusableContents();
    assert.deepEqual(
      after.map((c) => [c.id, c.title]),
      [[warning.id, 'Mind the gap']],
    );
  });
});
