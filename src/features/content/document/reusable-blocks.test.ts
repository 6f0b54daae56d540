import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Document } from './types.ts';
import { expandReusableBlocks, includedReusableContents, loadIncludedDocuments, MAX_INCLUDE_DEPTH } from './reusable-blocks.ts';

const paragraph = (text: string) => ({ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text }] }] });
const include = (id: string, space?: string) => ({
  object: 'block',
  type: 'reusable-content',
  isVoid: true,
  data: { ref: { kind: 'reusable-content', reusableContent: id, ...(space ? { space } : {}) } },
});
const doc = (...nodes: unknown[]) => ({ object: 'document', data: {}, nodes }) as unknown as Document;
const texts = (nodes: readonly unknown[]): string[] =>
  (nodes as { type: string; nodes?: unknown[]; leaves?: { text: string }[] }[]).flatMap((n) => (n.leaves ? [n.leaves.map((l) => l.text).join('')] : n.nodes ? texts(n.nodes) : []));

describe('reusable blocks', () => {
  test('a reusable-content block shows the blocks of what it includes, in place', () => {
    const page = doc(paragraph('Before.'), include('a'), paragraph('After.'));
    const expanded = expandReusableBlocks(page, new Map([['a', doc(paragraph('One.'), paragraph('Two.'))]]));
    assert.deepEqual(texts(expanded.nodes), ['Before.', 'One.', 'Two.', 'After.']);
    assert.deepEqual(texts(page.nodes), ['Before.', 'After.'], 'the document read is left as it was');
  });

  test('blocks inside containers are expanded too; a document without includes comes back as it is', () => {
    const hint = { object: 'block', type: 'hint', data: { style: 'info' }, nodes: [include('a')] };
    const expanded = expandReusableBlocks(doc(hint), new Map([['a', doc(paragraph('Inside.'))]]));
    assert.deepEqual(texts(expanded.nodes), ['Inside.']);
    assert.equal((expanded.nodes[0] as { type: string }).type, 'hint');
    const plain = doc(paragraph('Plain.'));
    assert.equal(expandReusableBlocks(plain, new Map()), plain);
  });

  test('what the revision does not hold, or another space holds, shows nothing', () => {
    const expanded = expandReusableBlocks(doc(include('gone'), include('a', 'other-space'), paragraph('Kept.')), new Map([['a', doc(paragraph('Not here.'))]]));
    assert.deepEqual(texts(expanded.nodes), ['Kept.']);
  });

  test('a reusable content including itself, directly or through another, shows nothing past the first time', () => {
    const included = new Map([
      ['self', doc(paragraph('Self.'), include('self'))],
      ['a', doc(paragraph('A.'), include('b'))],
      ['b', doc(paragraph('B.'), include('a'))],
    ]);
    assert.deepEqual(texts(expandReusableBlocks(doc(include('self')), included).nodes), ['Self.']);
    assert.deepEqual(texts(expandReusableBlocks(doc(include('a')), included).nodes), ['A.', 'B.']);
  });

  test('nesting stops after a few levels', () => {
    const levels = new Map<string, Document>();
    for (let i = 0; i < 10; i++) levels.set(`l${i}`, doc(paragraph(`Level ${i}.`), include(`l${i + 1}`)));
    const shown = texts(expandReusableBlocks(doc(include('l0')), levels).nodes);
    assert.equal(shown.length, MAX_INCLUDE_DEPTH);
    assert.deepEqual(shown, ['Level 0.', 'Level 1.', 'Level 2.'].slice(0, MAX_INCLUDE_DEPTH));
  });

  test('loading reads each included document once, down to the same depth, and nothing for a document that includes nothing', async () => {
    const stored = new Map<string, Document>([
      ['a', doc(include('b'), include('a'))],
      ['b', doc(paragraph('B.'), include('c'))],
      ['c', doc(include('d'))],
      ['d', doc(paragraph('Too deep.'))],
    ]);
    const asked: string[] = [];
    const load = async (id: string) => {
      asked.push(id);
      return stored.get(id);
    };
    const found = await loadIncludedDocuments(doc(include('a'), include('a'), include('missing')), load);
    assert.deepEqual(asked, ['a', 'missing', 'b', 'c']);
    assert.equal(found.get('missing'), undefined);
    assert.deepEqual(texts(expandReusableBlocks(doc(include('a')), found).nodes), ['B.']);
    assert.deepEqual(includedReusableContents([paragraph('x')]), []);
    asked.length = 0;
    await loadIncludedDocuments(doc(paragraph('x')), load);
    assert.deepEqual(asked, []);
  });
});
