import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getSchema } from '@tiptap/core';
import { Node } from '@tiptap/pm/model';
import { EditorState, TextSelection } from '@tiptap/pm/state';
import { fromEditor, toEditor } from '../../../../src/features/content/document/editor/blocks.ts';
import { schemaExtensions } from '../../../../src/features/content/document/editor/schema.ts';
import type { Document } from '../../../../src/features/content/document/types.ts';
import { annotationNote, annotationWords, matchIcons, newAnnotation, selectedWords, variableChoices, variableExpression, withNote } from './inline-authoring.ts';

const schema = getSchema(schemaExtensions);
const leaf = (text: string, marks: unknown[] = []) => ({ object: 'leaf', text, marks });
const page = (nodes: unknown[]): Document => ({ object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', key: 'p1', data: {}, nodes }] }) as unknown as Document;

/** The state of the page with the characters from..to of its first paragraph selected. */
function selecting(document: Document, from: number, to: number): EditorState {
  const doc = Node.fromJSON(schema, toEditor(document));
  return EditorState.create({ doc, selection: TextSelection.create(doc, 1 + from, 1 + to) });
}

test('selected words become an annotation of GitBook\'s shape: new texts keeping their marks, a note in its body', () => {
  const state = selecting(page([{ object: 'text', key: 't1', leaves: [leaf('Hello '), leaf('big', [{ object: 'mark', type: 'bold' }]), leaf(' world')] }]), 4, 9);
  const words = selectedWords(state)!;
  assert.deepEqual(words, [{ object: 'text', leaves: [leaf('o '), leaf('big', [{ object: 'mark', type: 'bold' }])] }], 'no key of the text they were cut from');
  const annotation = newAnnotation(words, 'A note\nof two lines');
  assert.deepEqual(annotation.fragments, [
    { object: 'fragment', fragment: 'annotation-body', type: 'annotation-body', nodes: [
      { object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [leaf('A note')] }] },
      { object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [leaf('of two lines')] }] },
    ] },
  ]);
  assert.equal(annotationWords(annotation), 'o big');
  assert.equal(annotationNote(annotation), 'A note\nof two lines');

  // Put in the page in place of the words, it is saved between the texts around it.
  const { from, to } = state.selection;
  const tr = state.tr.replaceWith(from, to, schema.nodes.inlineAtom!.create({ inline: annotation, leading: null }));
  const saved = fromEditor(tr.doc.toJSON()) as unknown as { nodes: { nodes: unknown[] }[] };
  assert.deepEqual(saved.nodes[0]!.nodes, [{ object: 'text', key: 't1', leaves: [leaf('Hell')] }, annotation, { object: 'text', key: 't1', leaves: [leaf(' world')] }]);
});

test('only words of one block, without links or inlines, may be annotated', () => {
  const link = { object: 'inline', type: 'link', data: { ref: { kind: 'url', url: 'https://example.com' } }, nodes: [{ object: 'text', leaves: [leaf('here')] }] };
  const document = page([{ object: 'text', leaves: [leaf('Go ')] }, link, { object: 'text', leaves: [leaf(' now')] }]);
  assert.equal(selectedWords(selecting(document, 0, 2)) !== null, true);
  assert.equal(selectedWords(selecting(document, 1, 5)), null, 'a link in the selection');
  assert.equal(selectedWords(selecting(document, 1, 1)), null, 'nothing selected');
  const code = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'code', data: {}, nodes: [{ object: 'block', type: 'code-line', data: {}, nodes: [{ object: 'text', leaves: [leaf('let x = 1;')] }] }] }] } as unknown as Document;
  const doc = Node.fromJSON(schema, toEditor(code));
  assert.equal(selectedWords(EditorState.create({ doc, selection: TextSelection.create(doc, 2, 5) })), null, 'words of a code block');
});

test('an annotation\'s note edited keeps the rest of the inline, and an unchanged note keeps it whole', () => {
  const existing = {
    object: 'inline', type: 'annotation', key: 'a1', isVoid: false, data: {},
    nodes: [{ object: 'text', key: 'w', leaves: [leaf('term')] }],
    fragments: [{ object: 'fragment', key: 'f1', fragment: 'annotation-body', type: 'annotation-body', nodes: [{ object: 'block', type: 'paragraph', key: 'b', data: {}, nodes: [{ object: 'text', leaves: [leaf('Its '), leaf('meaning', [{ object: 'mark', type: 'italic' }])] }] }] }],
  };
  assert.equal(withNote(existing, 'Its meaning'), existing, 'the same object: the round trip stays exact');
  const edited = withNote(existing, 'Another meaning') as typeof existing;
  assert.equal(edited.key, 'a1');
  assert.deepEqual(edited.nodes, existing.nodes);
  assert.equal(edited.fragments[0]!.key, 'f1');
  assert.equal(annotationNote(edited), 'Another meaning');
});

test('variables are offered as the expressions that name them, the page\'s first', () => {
  assert.equal(variableExpression('space', 'version'), 'space.vars.version');
  assert.equal(variableExpression('page', 'api-host'), 'page.vars["api-host"]');
  assert.deepEqual(variableChoices({ space: { version: '2.1', beta: true }, page: { 'api-host': 'api.example.com' } }).map((c) => [c.expression, c.value]), [
    ['page.vars["api-host"]', 'api.example.com'],
    ['space.vars.beta', 'true'],
    ['space.vars.version', '2.1'],
  ]);
  assert.deepEqual(variableChoices({}), []);
});

test('icons are found by the words of their names, the closest first', () => {
  const names = ['arrow-right', 'arrow-right-long', 'circle-arrow-right', 'star', 'star-half'];
  assert.deepEqual(matchIcons(names, 'arrow right'), ['arrow-right', 'arrow-right-long', 'circle-arrow-right']);
  assert.deepEqual(matchIcons(names, 'star'), ['star', 'star-half']);
  assert.deepEqual(matchIcons(names, '', 2), ['arrow-right', 'arrow-right-long']);
  assert.deepEqual(matchIcons(names, 'nothing'), []);
});
