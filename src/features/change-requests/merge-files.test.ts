import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeFiles } from './merge-files.ts';

interface File {
  id: string;
  name: string;
  contentType: string;
  size: number;
  blobHash: string;
  createdAt: string;
}

const file = (id: string, fields: Partial<File> = {}): File => ({ id, name: `${id}.png`, contentType: 'image/png', size: 10, blobHash: `hash-${id}`, createdAt: '2024-01-01T00:00:00.000Z', ...fields });
const changes = (...entries: Array<[string, File | null]>) => new Map(entries);

describe('merging files', () => {
  test('a file added, changed or deleted on one side only is taken as it is', () => {
    const a = file('a');
    const b = file('b');
    const base = new Map([['a', a], ['b', b]]);
    const added = file('c');
    const renamed = { ...a, name: 'logo.png' };
    const result = mergeFiles({ base, ours: new Map(), theirs: changes(['a', renamed], ['b', null], ['c', added]) });
    assert.deepEqual(result.conflicts, []);
    assert.deepEqual(result.files, changes(['a', renamed], ['b', null], ['c', added]));
  });

  test('a file changed on main only leaves nothing to write', () => {
    const a = file('a');
    const result = mergeFiles({ base: new Map([['a', a]]), ours: changes(['a', { ...a, name: 'x.png' }]), theirs: new Map() });
    assert.deepEqual(result, { files: new Map(), conflicts: [] });
  });

  test('a rename on one side and new content on the other are combined', () => {
    const a = file('a');
    const ours = { ...a, name: 'logo.png' };
    const theirs = { ...a, blobHash: 'hash-new', size: 20 };
    const result = mergeFiles({ base: new Map([['a', a]]), ours: changes(['a', ours]), theirs: changes(['a', theirs]) });
    assert.deepEqual(result.files.get('a'), { ...a, name: 'logo.png', blobHash: 'hash-new', size: 20 });
  });

  test('the same rename on both sides is not a conflict', () => {
    const a = file('a');
    const renamed = { ...a, name: 'logo.png' };
    assert.deepEqual(mergeFiles({ base: new Map([['a', a]]), ours: changes(['a', renamed]), theirs: changes(['a', renamed]) }), { files: new Map(), conflicts: [] });
  });

  test('two different renames are a rename conflict', () => {
    const a = file('a', { name: 'image.png' });
    const result = mergeFiles({ base: new Map([['a', a]]), ours: changes(['a', { ...a, name: 'logo.png' }]), theirs: changes(['a', { ...a, name: 'icon.png' }]) });
    assert.deepEqual(
      result.conflicts.map((c) => [c.fileId, c.kind, c.message]),
      [['a', 'rename', 'Main renamed the file "image.png" to "logo.png" and the change request to "icon.png".']],
    );
    assert.equal(result.files.size, 0);
  });

  test('two different new contents are a content conflict', () => {
    const a = file('a');
    const result = mergeFiles({ base: new Map([['a', a]]), ours: changes(['a', { ...a, blobHash: 'x' }]), theirs: changes(['a', { ...a, blobHash: 'y' }]) });
    assert.deepEqual(
      result.conflicts.map((c) => c.kind),
      ['content'],
    );
  });

  test('a file deleted on one side and changed on the other is a conflict', () => {
    const a = file('a', { name: 'diagram.svg' });
    const base = new Map([['a', a]]);
    const deletedOnMain = mergeFiles({ base, ours: changes(['a', null]), theirs: changes(['a', { ...a, name: 'flow.svg' }]) });
    assert.deepEqual(
      deletedOnMain.conflicts.map((c) => [c.kind, c.message]),
      [['delete-modify', 'Main deleted the file "flow.svg" and the change request changed it.']],
    );
    const deletedInRequest = mergeFiles({ base, ours: changes(['a', { ...a, name: 'flow.svg' }]), theirs: changes(['a', null]) });
    assert.deepEqual(
      deletedInRequest.conflicts.map((c) => c.kind),
      ['modify-delete'],
    );
  });

  test('a file deleted on both sides is deleted', () => {
    const a = file('a');
    assert.deepEqual(mergeFiles({ base: new Map([['a', a]]), ours: changes(['a', null]), theirs: changes(['a', null]) }), { files: new Map(), conflicts: [] });
  });
});
