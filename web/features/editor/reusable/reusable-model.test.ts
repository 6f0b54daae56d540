import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { findReusable, pagesIncluding, reusableBlock, reusableRefOf, suggestedTitle, usageLabel } from './reusable-model.ts';

const paragraph = (text: string) => ({ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] });
const doc = (...nodes: unknown[]) => ({ nodes }) as never;

describe('reusable content in the editor', () => {
  test('the block names the reusable content as GitBook writes it, and is read back', () => {
    const block = reusableBlock('warn');
    assert.deepEqual(block, { object: 'block', type: 'reusable-content', isVoid: true, data: { ref: { kind: 'reusable-content', reusableContent: 'warn' } } });
    assert.deepEqual(reusableRefOf(block as never), { id: 'warn' });
    assert.deepEqual(reusableRefOf({ type: 'reusable-content', data: { ref: { kind: 'reusable-content', reusableContent: 'x', space: 's2' } } }), { id: 'x', space: 's2' });
    assert.equal(reusableRefOf({ type: 'paragraph' }), undefined);
    assert.equal(reusableRefOf({ type: 'reusable-content', data: {} }), undefined);
  });

  test('the pages using it are those including it at any depth, in the order given', () => {
    const hint = { object: 'block', type: 'hint', data: { style: 'info' }, nodes: [reusableBlock('warn')] };
    const pages = [
      { id: 'a', title: 'A', document: doc(paragraph('no')) },
      { id: 'b', title: 'B', document: doc(hint) },
      { id: 'c', title: 'C' },
      { id: 'd', title: 'D', document: doc(reusableBlock('other'), reusableBlock('warn')) },
    ];
    assert.deepEqual(pagesIncluding(pages, 'warn').map((p) => p.id), ['b', 'd']);
    assert.deepEqual(pagesIncluding(pages, 'none'), []);
  });

  test('a search finds reusable contents by title, all of them for none', () => {
    const entries = [{ id: '1', title: 'Support contact' }, { id: '2', title: 'Warning about billing' }, { id: '3', title: 'Install steps' }];
    assert.deepEqual(findReusable(entries, '').map((e) => e.id), ['1', '2', '3']);
    assert.deepEqual(findReusable(entries, 'bill').map((e) => e.id), ['2']);
    assert.deepEqual(findReusable(entries, 'zzz'), []);
  });

  test('usage and a suggested title read as people say them', () => {
    assert.equal(usageLabel(0), 'Not used in any page yet');
    assert.equal(usageLabel(1), 'Used in 1 page');
    assert.equal(usageLabel(4), 'Used in 4 pages');
    assert.equal(suggestedTitle('  Mind the gap.\nMore'), 'Mind the gap.');
    assert.equal(suggestedTitle('x'.repeat(80)).length, 60);
  });
});
