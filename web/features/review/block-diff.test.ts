import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Document, FlowBlock } from '../../../src/features/content/document/types.ts';
import { attributeChanges, diffDocuments, diffText } from './block-diff.ts';

const text = (value: string) => ({ object: 'text' as const, leaves: [{ object: 'leaf' as const, text: value }] });
const p = (key: string, value: string): FlowBlock => ({ object: 'block', type: 'paragraph', key, nodes: [text(value)] }) as FlowBlock;
const hint = (key: string, style: string, value: string): FlowBlock => ({ object: 'block', type: 'hint', key, data: { style }, nodes: [p(`${key}p`, value)] }) as unknown as FlowBlock;
const code = (key: string, syntax: string, value: string): FlowBlock =>
  ({ object: 'block', type: 'code', key, data: { syntax }, nodes: [{ object: 'block', type: 'code-line', data: {}, nodes: [text(value)] }] }) as unknown as FlowBlock;
const tabs = (key: string, titles: [string, string][]): FlowBlock =>
  ({ object: 'block', type: 'tabs', key, nodes: titles.map(([k, title]) => ({ object: 'block', type: 'tabs-item', key: k, data: { title }, nodes: [p(`${k}p`, 'x')] })) }) as unknown as FlowBlock;
const doc = (...nodes: FlowBlock[]): Document => ({ object: 'document', data: {}, nodes });
const kinds = (d: Document, e: Document) => diffDocuments(d, e).changes.map((c) => `${c.kind}:${c.key}${'moved' in c && c.moved ? ':moved' : ''}`);

describe('the diff of two versions of a page, block by block', () => {
  test('the same page has no change', () => {
    const page = doc(p('a', 'One'), p('b', 'Two'));
    assert.equal(diffDocuments(page, structuredClone(page)).changed, 0);
    assert.deepEqual(kinds(page, page), ['same:a', 'same:b']);
  });

  test('an added block and a deleted block are shown where they are and were', () => {
    assert.deepEqual(kinds(doc(p('a', 'One'), p('b', 'Two'), p('c', 'Three')), doc(p('a', 'One'), p('n', 'New'), p('c', 'Three'))), ['same:a', 'deleted:b', 'added:n', 'same:c']);
  });

  test('a page that did not exist is all added, a deleted page all deleted', () => {
    assert.deepEqual(kinds(doc(), doc(p('a', 'One'))), ['added:a']);
    assert.deepEqual(diffDocuments(doc(p('a', 'One')), null).changes.map((c) => c.kind), ['deleted']);
  });

  test('blocks are matched by key: a moved block is moved, not deleted and added', () => {
    const result = diffDocuments(doc(p('a', 'One'), p('b', 'Two'), p('c', 'Three')), doc(p('c', 'Three'), p('a', 'One'), p('b', 'Two')));
    assert.deepEqual(result.changes.map((c) => `${c.kind}:${c.key}:${'moved' in c ? c.moved : ''}`), ['same:c:true', 'same:a:false', 'same:b:false']);
    assert.equal(result.changed, 1);
  });

  test('edited text is diffed by word, and the parts give back both sides', () => {
    const [change] = diffDocuments(doc(p('a', 'Run the old installer now')), doc(p('a', 'Run the new installer now'))).changes;
    assert.equal(change?.kind, 'edited');
    if (change?.kind !== 'edited') return;
    assert.deepEqual(change.text?.filter((t) => t.op !== 'equal'), [{ op: 'delete', text: 'old' }, { op: 'insert', text: 'new' }]);
    assert.equal(change.text!.filter((t) => t.op !== 'insert').map((t) => t.text).join(''), 'Run the old installer now');
    assert.equal(change.text!.filter((t) => t.op !== 'delete').map((t) => t.text).join(''), 'Run the new installer now');
  });

  test('an edited block that also moved says both', () => {
    assert.deepEqual(kinds(doc(p('a', 'One'), p('b', 'Two')), doc(p('b', 'Two!'), p('a', 'One'))), ['edited:b:moved', 'same:a']);
  });

  test('changed attributes are said in words: hint style, code language, tab title, block kind', () => {
    assert.deepEqual(attributeChanges(hint('h', 'info', 'x'), hint('h', 'warning', 'x')), ['Hint style changed from “info” to “warning”']);
    assert.deepEqual(attributeChanges(code('c', 'js', 'x'), code('c', 'ts', 'x')), ['Code language changed from “js” to “ts”']);
    assert.deepEqual(attributeChanges(tabs('t', [['1', 'macOS'], ['2', 'Linux']]), tabs('t', [['1', 'macOS'], ['2', 'Ubuntu'], ['3', 'Windows']])), [
      'Tab “Linux” renamed to “Ubuntu”',
      'Tab “Windows” added',
    ]);
    const heading = { ...p('a', 'Title'), type: 'heading-2' } as FlowBlock;
    assert.deepEqual(attributeChanges(p('a', 'Title'), heading), ['Changed from paragraph to heading 2']);
  });

  test('a block whose only change is an attribute has no text diff', () => {
    const [change] = diffDocuments(doc(hint('h', 'info', 'Careful')), doc(hint('h', 'danger', 'Careful'))).changes;
    assert.equal(change?.kind === 'edited' && change.text, null);
  });

  test('blocks without keys are matched by kind and position', () => {
    const keyless = (value: string) => ({ object: 'block', type: 'paragraph', nodes: [text(value)] }) as FlowBlock;
    assert.deepEqual(diffDocuments(doc(keyless('a')), doc(keyless('b'))).changes.map((c) => c.kind), ['edited']);
  });

  // How fast is the review bench's (bench/review.ts): a test's clock measures the machine's load, not the code.
  test('a 300-block page reversed, one block in ten edited, is diffed whole', () => {
    const before = doc(...Array.from({ length: 300 }, (_, i) => p(`k${i}`, `Paragraph ${i} with a few words in it to compare`)));
    const after = doc(...before.nodes.map((b, i) => (i % 10 === 0 ? p(b.key!, `Paragraph ${i} with some other words in it to compare`) : b)).reverse());
    const result = diffDocuments(before, after);
    assert.equal(result.changes.length, 300);
    assert.equal(result.changes.filter((c) => c.kind === 'edited').length, 30);
  });

  test('word diff of empty and whole texts', () => {
    assert.deepEqual(diffText('', 'New words'), [{ op: 'insert', text: 'New words' }]);
  });
});
