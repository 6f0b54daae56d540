import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getSchema, type Editor } from '@tiptap/core';
import { schemaExtensions } from '../../../src/features/content/document/editor/schema.ts';
import { isFormula, onFormulaRequest, requestFormulaEditor, takeFormulaRequest } from './formula-requests.ts';

const schema = getSchema(schemaExtensions);
const editor = () => ({}) as Editor;

test('a math block and an inline formula are formulas; another opaque block or inline is not', () => {
  assert.ok(isFormula(schema.nodes.opaqueBlock!.create({ block: { object: 'block', type: 'math', isVoid: true, data: { formula: 'x' } } })));
  assert.ok(isFormula(schema.nodes.inlineAtom!.create({ inline: { object: 'inline', type: 'inline-math', isVoid: true, data: { formula: 'x' } } })));
  assert.ok(!isFormula(schema.nodes.opaqueBlock!.create({ block: { object: 'block', type: 'drawing', isVoid: true, data: {} } })));
  assert.ok(!isFormula(schema.nodes.inlineAtom!.create({ inline: { object: 'inline', type: 'emoji', isVoid: true, data: { code: '1f680' } } })));
  assert.ok(!isFormula(schema.nodes.paragraph!.create()));
  assert.ok(!isFormula(null));
});

test('a request is taken once, by the formula at its position, and tells the views of that editor only', () => {
  const one = editor();
  const other = editor();
  const heard: string[] = [];
  const stop = onFormulaRequest(one, () => heard.push('one'));
  onFormulaRequest(other, () => heard.push('other'));
  requestFormulaEditor(one, 7);
  assert.deepEqual(heard, ['one']);
  assert.equal(takeFormulaRequest(one, 3), false);
  assert.equal(takeFormulaRequest(other, 7), false);
  assert.equal(takeFormulaRequest(one, undefined), false);
  assert.equal(takeFormulaRequest(one, 7), true);
  assert.equal(takeFormulaRequest(one, 7), false, 'taken once');
  stop();
  requestFormulaEditor(one, 1);
  assert.deepEqual(heard, ['one'], 'a view gone hears nothing');
});
