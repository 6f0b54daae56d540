import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cellHtmlToMarkdown, isWrittenCellHtml } from './cell-html.ts';
import { item, leaf, link, p, resolveRef, t, ul, withoutKeys, writeRef } from './test-fixtures.ts';
import { markdownToDocument } from './to-document.ts';
import { documentToMarkdown } from './to-markdown.ts';
import type { Document, Fragment, Table } from './types.ts';

const read = (markdown: string) => markdownToDocument(markdown, resolveRef);
const write = (document: Document) => documentToMarkdown(document, writeRef);
const tableOf = (document: Document) => document.nodes.find((n) => n.type === 'table') as Table;
const cell = (table: Table, name: string) => withoutKeys(table.fragments.find((f) => f.fragment === name)!).nodes;
/** The document as an editor would give it back: the same content, without the sources kept from the markdown. */
const edited = (document: Document): Document => JSON.parse(JSON.stringify(document, (name, value: unknown) => (name === 'meta' ? undefined : value))) as Document;

const GFM = [
  '| Step | Details |',
  '| ---- | ------- |',
  '| Cluster | <p>Create a cluster with <a href="https://example.com/eks">EKS</a></p><p><strong>Note</strong>: it takes a while.</p> |',
  '| States | <ul><li>Degraded</li><li>Healthy</li></ul> |',
  '| Badge | <a href="https://example.com/build"><img src="https://example.com/badge.svg" height="12"></a> |',
  '| Box | <div class="box">Kept as written</div> |',
  '',
].join('\n');

describe('rich table cells', () => {
  test("HTML blocks in a GFM table's cells become the cell's blocks: paragraphs, links, marks, lists", () => {
    const table = tableOf(read(GFM));
    assert.deepEqual(cell(table, 'r1-c2'), [
      p(t('Create a cluster with '), link({ kind: 'url', url: 'https://example.com/eks' }, 'EKS'), t('')),
      p(t(leaf('Note', 'bold'), ': it takes a while.')),
    ]);
    assert.deepEqual(cell(table, 'r2-c2'), [ul(item(p('Degraded')), item(p('Healthy')))]);
  });

  test('an unchanged table is written back as it was, HTML the blocks cannot hold included', () => {
    const again = write(read(GFM));
    assert.equal(write(read(again)), again);
    assert.match(again, /\| <p>Create a cluster with <a href="https:\/\/example.com\/eks">EKS<\/a><\/p><p><strong>Note<\/strong>: it takes a while.<\/p> \|/);
    assert.match(again, /<ul><li>Degraded<\/li><li>Healthy<\/li><\/ul>/);
    assert.match(again, /<div class="box">Kept as written<\/div>/);
    assert.match(again, /<a href="https:\/\/example.com\/build"><img src="https:\/\/example.com\/badge.svg" height="12"><\/a>/);
  });

  test('an edited rich cell is written as GitBook writes it, and reads back to the same blocks', () => {
    const document = edited(read(GFM));
    const markdown = write(document);
    assert.match(markdown, /\| <p>Create a cluster with <a href="https:\/\/example.com\/eks">EKS<\/a><\/p><p><strong>Note<\/strong>: it takes a while.<\/p> \|/);
    assert.match(markdown, /\| <ul><li>Degraded<\/li><li>Healthy<\/li><\/ul> +\|/);
    const back = tableOf(read(markdown));
    assert.deepEqual(cell(back, 'r1-c2'), cell(tableOf(document), 'r1-c2'));
    assert.deepEqual(cell(back, 'r2-c2'), cell(tableOf(document), 'r2-c2'));
  });

  test("text of a rich cell that looks like markup stays text: it is escaped for markdown and for HTML", () => {
    const table = tableOf(edited(read('| A |\n| - |\n| <p>x</p><p>y</p> |\n')));
    const fragment = table.fragments[0]! as Fragment;
    fragment.nodes = [p('a *b* [c] | <d> & e_f_'), p(t(leaf('code *x*', 'code')))];
    const markdown = write({ object: 'document', data: {}, nodes: [table] });
    assert.deepEqual(cell(tableOf(read(markdown)), fragment.fragment), [p('a *b* [c] | <d> & e_f_'), p(t(leaf('code *x*', 'code')))]);
  });

  test('cells of a GitBook HTML table hold their paragraphs and lists', () => {
    const html =
      '<table><thead><tr><th>Step</th><th>Details</th></tr></thead><tbody><tr><td>Cluster</td><td><p>Create with <a href="https://example.com/eks">EKS</a></p><p>Then wait.</p></td></tr>' +
      '<tr><td>States</td><td><ul><li>Degraded</li><li>Healthy</li></ul></td></tr></tbody></table>\n';
    const document = read(html);
    const table = tableOf(document);
    assert.deepEqual(cell(table, 'r1-c2'), [p(t('Create with '), link({ kind: 'url', url: 'https://example.com/eks' }, 'EKS'), t('')), p('Then wait.')]);
    assert.deepEqual(cell(table, 'r2-c2'), [ul(item(p('Degraded')), item(p('Healthy')))]);
    assert.equal(write(document), html, 'unedited, as it was');
  });

  test("a cell a person wrote, markdown and HTML mixed, holds its blocks and comes back as it was written", () => {
    const markdown = '| Field | Meaning |\n| ----- | ------- |\n| Env   | Define `key/value` by clicking **Add variable**. <ul><li> **Key**: the key.</li><li>**Value**: the value.</li></ul> |\n';
    const document = read(markdown);
    assert.deepEqual(cell(tableOf(document), 'r1-c2').map((b) => b.type), ['paragraph', 'list-unordered']);
    assert.match(write(document), /\| Define `key\/value` by clicking \*\*Add variable\*\*\. <ul><li> \*\*Key\*\*: the key\.<\/li><li>\*\*Value\*\*: the value\.<\/li><\/ul> \|/);
    // The writer's own form is recognised as such: its blocks need no kept source.
    assert.equal(isWrittenCellHtml('<p>Define <code>key/value</code> by <strong>Add</strong>.</p><ul><li>one</li><li>two \\*</li></ul>'), true);
    assert.equal(isWrittenCellHtml('Define **x** <ul><li>one</li></ul>'), false);
    assert.equal(isWrittenCellHtml('<p>a</p> <ul><li>one</li></ul>'), false);
  });

  test('HTML a cell cannot hold as blocks is refused by the converter, nesting is bounded', () => {
    assert.equal(cellHtmlToMarkdown('<div>x</div>'), null);
    assert.equal(cellHtmlToMarkdown('<p>a <a href="x" class="y">b</a></p>'), null);
    assert.equal(cellHtmlToMarkdown('<ol><li>one<ul><li>two</li></ul></li></ol>'), '1. one\n\n   - two');
    assert.equal(cellHtmlToMarkdown(`${'<ul><li>'.repeat(40)}x${'</li></ul>'.repeat(40)}`), null);
  });
});
