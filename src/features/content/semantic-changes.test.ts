import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { page } from '../../../test/merge-scenarios.ts';
import { revisionChanges, type RevisionContent } from './semantic-changes.ts';

const content = (pages: RevisionContent['pages'], extra: Partial<RevisionContent> = {}): RevisionContent => ({ pages, reusableContents: [], files: [], variables: {}, ...extra });
const file = (id: string, name = `${id}.png`) => ({ id, name, contentType: 'image/png', downloadURL: `https://files.test/${id}`, size: 10 });
const kinds = (before: RevisionContent, after: RevisionContent) => revisionChanges(before, after).map((c) => `${c.type} ${((c.page ?? c.file ?? c.reusableContent) as { id?: string } | undefined)?.id ?? ''}`.trim());

describe('the semantic changes of a revision against its parent (pure)', () => {
  test('the same trees give nothing, whatever their order or updatedAt', () => {
    const tree = [page('A'), page('B', { parentId: 'A' })];
    assert.deepEqual(revisionChanges(content(tree), content([...tree].reverse().map((p) => ({ ...p, updatedAt: '2030-01-01T00:00:00.000Z' })))), []);
  });

  test('a first revision creates every page, in tree order, with paths', () => {
    const changes = revisionChanges(content([]), content([page('B', { parentId: 'A' }), page('A')]));
    assert.deepEqual(changes, [
      { type: 'page_created', page: { id: 'A', type: 'document', title: 'A', path: 'a' } },
      { type: 'page_created', page: { id: 'B', type: 'document', title: 'B', path: 'a/b' } },
    ]);
  });

  test('a document is compared by its hash: a new one is an edit with both hashes', () => {
    const [change] = revisionChanges(content([page('A', { documentId: 'h1' })]), content([page('A', { documentId: 'h2' })]));
    assert.deepEqual(change, { type: 'page_edited', page: { id: 'A', type: 'document', title: 'A', path: 'a' }, attributes: { document: { before: 'h1', after: 'h2' } } });
  });

  test('a move names both parents; a reorder among siblings is no change', () => {
    const before = content([page('A'), page('B', { position: 'a1' }), page('C', { parentId: 'A' })]);
    const after = content([page('A', { position: 'a2' }), page('B', { position: 'a1' }), page('C', { parentId: 'B' })]);
    const changes = revisionChanges(before, after);
    assert.deepEqual(changes, [
      {
        type: 'page_moved',
        page: { id: 'C', type: 'document', title: 'C', path: 'b/c' },
        parent: { before: { id: 'A', type: 'document', title: 'A' }, after: { id: 'B', type: 'document', title: 'B' } },
      },
    ]);
  });

  test('deleted pages come after the others, with their old paths', () => {
    const changes = revisionChanges(content([page('A'), page('B', { parentId: 'A' })]), content([page('C')]));
    assert.deepEqual(
      changes.map((c) => [c.type, (c.page as { path?: string }).path]),
      [
        ['page_created', 'c'],
        ['page_deleted', 'a'],
        ['page_deleted', 'a/b'],
      ],
    );
  });

  test('files by id, then variables', () => {
    const before = content([], { files: [file('f2'), file('f1')], variables: { version: '1' } });
    const after = content([], { files: [file('f3'), file('f1', 'renamed.png')], variables: { version: '2' } });
    assert.deepEqual(kinds(before, after), ['file_edited f1', 'file_deleted f2', 'file_created f3', 'variables_edited']);
  });

  test('reusable contents: created, edited (title, document) and deleted, after the pages and before the files', () => {
    const rc = (id: string, title: string, documentId: string | null) => ({ id, title, documentId, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' });
    const before = content([page('A')], { reusableContents: [rc('r1', 'One', 'd1'), rc('r2', 'Two', null), rc('r3', 'Three', 'd3')] });
    const after = content([page('A'), page('B')], { reusableContents: [rc('r1', 'One', 'd1'), rc('r2', 'Deux', 'd2'), rc('r4', 'Four', null)], files: [file('f1')] });
    assert.deepEqual(kinds(before, after), ['page_created B', 'reusable_content_edited r2', 'reusable_content_deleted r3', 'reusable_content_created r4', 'file_created f1']);
    const edited = revisionChanges(before, after).find((c) => c.type === 'reusable_content_edited');
    assert.deepEqual(edited, { type: 'reusable_content_edited', reusableContent: { id: 'r2', title: 'Deux', document: 'd2' }, attributes: { title: { before: 'Two', after: 'Deux' }, document: { after: 'd2' } } });
  });
});
