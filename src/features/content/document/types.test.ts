import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Ajv } from 'ajv';
import { Type } from 'typebox';
import { code, doc, expandable, h, hint, image, images, item, link, p, t, tab, table, tabs, task, tasks, ul } from './test-fixtures.ts';
import { DocumentSchema } from './types.ts';

// Compiled the way Fastify compiles a body: the document as a property of a larger schema.
const validate = new Ajv({ strict: false }).compile(Type.Object({ document: DocumentSchema }));
const accepts = (document: unknown) => assert.ok(validate({ document }), JSON.stringify(validate.errors));
const rejects = (document: unknown) => assert.equal(validate({ document }), false, JSON.stringify(document));
const block = (fields: Record<string, unknown>) => ({ object: 'document', nodes: [{ object: 'block', ...fields }] });

describe('the document schema for writes', () => {
  test('accepts every supported block', () => {
    accepts(
      doc(
        h(1, 'T'),
        p(t('a'), link({ kind: 'page', page: 'p' }, 'b'), t()),
        ul(item(p('x'), code(['y'], { syntax: 'js' }))),
        tasks(task(true, p('done'))),
        hint('danger', p('careful')),
        tabs(tab('A', p('a'))),
        expandable('More', p('body')),
        images(image({ kind: 'file', file: 'f' }, 'alt', 'caption')),
        table([{ title: 'A', align: 'center' }], [[[t('cell')]]]),
        { object: 'block', type: 'divider', isVoid: true, data: {} },
        { object: 'block', type: 'embed', isVoid: true, data: { url: 'https://x' } },
      ),
    );
  });

  test('accepts what GitBook leaves out or adds: no data on a paragraph, no marks on a leaf, keys on texts', () => {
    accepts({ object: 'document', data: { schemaVersion: 1 }, nodes: [{ object: 'block', type: 'paragraph', key: 'k', nodes: [{ object: 'text', key: 'tk', leaves: [{ object: 'leaf', text: 'x' }] }] }] });
  });

  test('accepts blocks and inlines of the spec that Quire keeps as they are', () => {
    accepts(block({ type: 'math', data: { formula: 'x^2' }, isVoid: true }));
    accepts(block({ type: 'openapi-operation', data: { ref: { kind: 'openapi' } } }));
    accepts(block({ type: 'paragraph', nodes: [{ object: 'inline', type: 'emoji', isVoid: true, data: { code: '1f600' } }] }));
  });

  test('rejects a block type the spec does not have', () => {
    rejects(block({ type: 'marquee', nodes: [] }));
    rejects(block({ type: 'heading-4', data: {}, nodes: [] }));
  });

  test('rejects blocks out of their place', () => {
    rejects(block({ type: 'list-unordered', nodes: [p('not an item')] }));
    rejects(block({ type: 'code', data: {}, nodes: [p('not a line')] }));
    rejects(block({ type: 'tabs', nodes: [p('not a tab')] }));
    rejects(block({ type: 'images', isVoid: false, data: {}, nodes: [p('not an image')] }));
    rejects(block({ type: 'list-item', nodes: [] }));
  });

  test('rejects malformed fields', () => {
    rejects(block({ type: 'hint', data: { style: 'tip' }, nodes: [] }));
    rejects(block({ type: 'heading-1', data: { id: 'Not An Id' }, nodes: [] }));
    rejects(block({ type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 1 }] }] }));
    rejects(block({ type: 'paragraph', nodes: [{ object: 'inline', type: 'link', nodes: [], data: {} }] }));
    rejects(block({ type: 'paragraph', nodes: [{ object: 'inline', type: 'link', nodes: [], data: { ref: { kind: 'planet', planet: 'x' } } }] }));
    rejects(block({ type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'x', marks: [{ object: 'mark', type: 'blink' }] }] }] }));
    rejects({ object: 'document' });
    rejects({ object: 'page', nodes: [] });
  });
});
