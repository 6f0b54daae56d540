import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeDocumentBlocks, type MergeableDocument } from './merge-blocks.ts';

/** A document of paragraphs, each written `key:text`. */
function doc(...blocks: string[]): MergeableDocument {
  return {
    object: 'document',
    data: {},
    nodes: blocks.map((b) => {
      const [key, text] = b.split(':');
      return { object: 'block', type: 'paragraph', key, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] };
    }),
  };
}
const shown = (d: MergeableDocument) => d.nodes.map((n) => `${n.key}:${(n.nodes as { leaves: { text: string }[] }[])[0]!.leaves[0]!.text}`);

describe('block merge of an editor save', () => {
  const base = doc('a:one', 'b:two', 'c:three');

  test('edits of different blocks are both kept', () => {
    const merged = mergeDocumentBlocks(base, doc('a:ONE', 'b:two', 'c:three'), doc('a:one', 'b:two', 'c:THREE'));
    assert.equal(merged.conflict, false);
    assert.deepEqual(shown(merged.document), ['a:ONE', 'b:two', 'c:THREE']);
  });

  test('two different edits of one block are a conflict naming it, with each version', () => {
    const merged = mergeDocumentBlocks(base, doc('a:one', 'b:mine', 'c:three'), doc('a:one', 'b:theirs', 'c:three'));
    assert.equal(merged.conflict, true);
    assert.ok(merged.conflict);
    assert.deepEqual(
      merged.conflicts.map((c) => [c.key, c.kind]),
      [['b', 'edited']],
    );
    assert.deepEqual(shown(merged.document), ['a:one', 'b:mine', 'c:three']);
  });

  test('the same edit on both sides is no conflict', () => {
    const merged = mergeDocumentBlocks(base, doc('a:one', 'b:same', 'c:three'), doc('a:one', 'b:same', 'c:three'));
    assert.equal(merged.conflict, false);
  });

  test('a block deleted on one side and edited on the other is a conflict', () => {
    const merged = mergeDocumentBlocks(base, doc('a:one', 'c:three'), doc('a:one', 'b:changed', 'c:three'));
    assert.ok(merged.conflict);
    assert.deepEqual(merged.conflicts.map((c) => [c.key, c.kind, c.ours]), [['b', 'deleted', null]]);
    assert.deepEqual(shown(merged.document), ['a:one', 'b:changed', 'c:three']);
  });

  test('a block deleted on one side and untouched on the other is gone', () => {
    const merged = mergeDocumentBlocks(base, doc('a:one', 'c:three'), doc('a:one', 'b:two', 'c:THREE'));
    assert.deepEqual(shown(merged.document), ['a:one', 'c:THREE']);
  });

  test('blocks inserted at one place by both sides are all kept, theirs first', () => {
    const merged = mergeDocumentBlocks(base, doc('a:one', 'x:mine', 'b:two', 'c:three'), doc('a:one', 'y:theirs', 'b:two', 'c:three', 'z:end'));
    assert.deepEqual(shown(merged.document), ['a:one', 'y:theirs', 'x:mine', 'b:two', 'c:three', 'z:end']);
  });

  test('a block ours moved goes where ours put it, with theirs edits kept', () => {
    const merged = mergeDocumentBlocks(base, doc('c:three', 'a:one', 'b:two'), doc('a:one', 'b:TWO', 'c:three'));
    assert.deepEqual(shown(merged.document), ['c:three', 'a:one', 'b:TWO']);
  });

  test('blocks without keys match by content', () => {
    const unkeyed = (d: MergeableDocument) => ({ ...d, nodes: d.nodes.map(({ key: _key, ...n }) => n) });
    const merged = mergeDocumentBlocks(unkeyed(base), unkeyed(doc('a:one', 'b:two', 'c:three', 'd:four')), unkeyed(doc('a:zero', 'a:one', 'b:two', 'c:three')));
    assert.equal(merged.conflict, false);
    assert.equal(merged.document.nodes.length, 5);
  });

  test('a key an old client copied to the new half of a split is a conflict naming it, whose text is kept', () => {
    const split = doc('a:Alpha ', 'a:paragraph. NEW SENTENCE FROM A.', 'b:two', 'c:three');
    const merged = mergeDocumentBlocks(base, doc('a:Alpha paragraph. Extra from B.', 'b:two', 'c:three'), split);
    assert.ok(merged.conflict);
    assert.deepEqual([...new Set(merged.conflicts.map((c) => c.key))], ['a']);
    assert.deepEqual(shown(merged.document), ['a:Alpha paragraph. Extra from B.', 'a:paragraph. NEW SENTENCE FROM A.', 'b:two', 'c:three']);
  });

  test('the blocks of a key held twice are taken from the one side that changed them', () => {
    const twice = doc('a:one', 'a:copy', 'b:two');
    const theirs = mergeDocumentBlocks(twice, doc('a:one', 'a:copy', 'b:TWO'), doc('a:copy'));
    assert.deepEqual(shown(theirs.document), ['a:copy', 'b:TWO']);
    // Each side deleted one of the two: which one cannot be told, so both sides are asked.
    const both = mergeDocumentBlocks(twice, doc('a:one', 'b:two'), doc('a:copy', 'b:two'));
    assert.ok(both.conflict);
    assert.deepEqual(both.conflicts.map((c) => c.key), ['a']);
  });

  test('a node each side moved to a different block is a conflict, not a node held twice', () => {
    const list = (key: string, ...items: string[]) => ({
      object: 'block', type: 'list-unordered', key,
      nodes: items.map((item) => ({ object: 'block', type: 'list-item', key: item, nodes: doc(`${item}p:${item}`).nodes })),
    });
    const lists = (...blocks: ReturnType<typeof list>[]): MergeableDocument => ({ object: 'document', data: {}, nodes: blocks });
    const merged = mergeDocumentBlocks(lists(list('x', 'i', 'j'), list('y'), list('z')), lists(list('x', 'j'), list('y', 'i'), list('z')), lists(list('x', 'j'), list('y'), list('z', 'i')));
    assert.ok(merged.conflict);
    assert.deepEqual(merged.conflicts.map((c) => c.key), ['z']);
  });

  test('a save over an empty page, or of an empty page, merges like any other', () => {
    assert.deepEqual(shown(mergeDocumentBlocks(null, doc('a:new'), null).document), ['a:new']);
    assert.deepEqual(shown(mergeDocumentBlocks(base, base, null).document), []);
  });
});
