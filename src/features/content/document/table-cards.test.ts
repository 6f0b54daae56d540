import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cardCover, cardsLayout, cardTarget, cardTitleField, shownColumns, valueRefs } from './table-cards.ts';
import { resolveRef } from './test-fixtures.ts';
import { markdownToDocument } from './to-document.ts';
import type { Table } from './types.ts';

// GitBook's cards as its markdown writes them: a title and a text shown, the link and the cover hidden.
const CARDS = [
  '<table data-view="cards" data-card-size="large"><thead><tr><th></th><th></th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="files"></th><th data-hidden>Notes</th></tr></thead><tbody>',
  '<tr><td><strong>Guide</strong></td><td>Read it.</td><td><a href="guide.md">guide.md</a></td><td><a href=".gitbook/assets/diagram.png">diagram.png</a></td><td>Not shown</td></tr>',
  '<tr><td></td><td>No title, no link.</td><td></td><td></td><td></td></tr>',
  '</tbody></table>',
  '',
].join('');

const table = () => markdownToDocument(CARDS, resolveRef).nodes[0] as Table;

describe('table-cards: what a cards view shows', () => {
  test('the fields are the listed columns less the cover and the link; the size is the view\'s', () => {
    const { data } = table();
    const layout = cardsLayout(data);
    assert.deepEqual(layout.fields.map((c) => c.id), ['c1', 'c2']);
    assert.equal(layout.target?.id, 'c3');
    assert.equal(layout.cover?.id, 'c4');
    assert.equal(layout.size, 'large');
    // Listed, the cover and the link are still no fields.
    const listed = cardsLayout({ ...data, view: { ...data.view, columns: ['c3', 'c1', 'c4'] } });
    assert.deepEqual(listed.fields.map((c) => c.id), ['c1']);
    assert.equal(cardsLayout({ ...data, view: { type: 'cards', columns: ['c1'], cardSize: 'medium' } }).cover, undefined);
  });

  test('a view listing no column shows all of them; one naming a missing column skips it', () => {
    const { data } = table();
    assert.deepEqual(shownColumns({ ...data, view: { ...data.view, columns: [] } }).map((c) => c.id), ['c1', 'c2', 'c3', 'c4', 'c5']);
    assert.deepEqual(shownColumns({ ...data, view: { ...data.view, columns: ['gone', 'c2'] } }).map((c) => c.id), ['c2']);
  });

  test('a card\'s cover, link and title field; a card without them has none', () => {
    const block = table();
    const layout = cardsLayout(block.data);
    const fragments = new Map(block.fragments.map((f) => [f.fragment, f]));
    const [first, second] = [block.data.records.r1!, block.data.records.r2!];
    assert.deepEqual(cardCover(layout, first), { kind: 'file', file: 'diagram.png' });
    assert.deepEqual(cardTarget(layout, first), { kind: 'page', page: 'guide' });
    assert.equal(cardTitleField(layout, first, fragments)?.id, 'c1');
    assert.equal(cardCover(layout, second), undefined);
    assert.equal(cardTarget(layout, second), undefined);
    // Its first text field is empty: the card is named by the next that has words.
    assert.equal(cardTitleField(layout, second, fragments)?.id, 'c2');
    assert.equal(cardTitleField({ ...layout, fields: layout.fields.slice(0, 1) }, second, fragments), undefined);
  });

  test('cover values in every form GitBook and imports store: file ids, a reference, `{ ref, objectFit }`', () => {
    assert.deepEqual(valueRefs(['a', 'b']), [{ kind: 'file', file: 'a' }, { kind: 'file', file: 'b' }]);
    assert.deepEqual(valueRefs({ kind: 'url', url: '/cover.png' }), [{ kind: 'url', url: '/cover.png' }]);
    assert.deepEqual(valueRefs({ ref: { kind: 'file', file: 'c' }, objectFit: 'cover' }), [{ kind: 'file', file: 'c' }]);
    assert.deepEqual(valueRefs(undefined), []);
    assert.deepEqual(valueRefs(''), []);
    assert.deepEqual(valueRefs(3), []);
    // A page is no picture: a cover column holding one has no cover.
    const layout = cardsLayout({ definition: { i: { id: 'i', title: '', type: 'image' } }, view: { type: 'cards', columns: [], cardSize: 'medium', coverDefinition: 'i' } });
    assert.equal(cardCover(layout, { orderIndex: 'a0', values: { i: { kind: 'page', page: 'p' } } }), undefined);
  });
});
