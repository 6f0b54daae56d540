import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getSchema } from '@tiptap/core';
import { Node } from '@tiptap/pm/model';
import { EditorState, TextSelection, type Command } from '@tiptap/pm/state';
import { fromEditor } from '../../../../src/features/content/document/editor/blocks.ts';
import type { PMNode } from '../../../../src/features/content/document/editor/editor-json.ts';
import { schemaExtensions } from '../../../../src/features/content/document/editor/schema.ts';
import { conditionalFitsIn, newConditional, newPrompt, promptFitsIn } from './conditional-blocks.ts';
import { backspaceAtFrameStart, leaveFrame, leavePromptCode } from './conditional-keys.ts';
import { claimsOf, comparisonOf, conditionField, describeCondition, mergeClaims, valueFor, writeComparison } from './conditions.ts';

const schema = getSchema(schemaExtensions);

const adaptiveSchema = {
  type: 'object',
  properties: {
    isPartner: { type: 'boolean', description: 'Works for a partner' },
    plan: { type: 'string', enum: ['free', 'pro'], description: 'Plan' },
    seats: { type: 'number', description: 'Seats' },
    roles: { type: 'array', items: { type: 'string' }, description: 'Roles' },
    unsigned: { type: 'object', description: 'Unsigned claims of the site visitor.', properties: { beta: { type: 'boolean', description: 'Joined the beta' } }, additionalProperties: false },
  },
  additionalProperties: false,
};

test('the claims of an adaptive schema, nested ones by their path, arrays left to the raw expression', () => {
  assert.deepEqual(claimsOf(adaptiveSchema), [
    { path: 'visitor.claims.isPartner', type: 'boolean', description: 'Works for a partner' },
    { path: 'visitor.claims.plan', type: 'string', description: 'Plan', options: ['free', 'pro'] },
    { path: 'visitor.claims.seats', type: 'number', description: 'Seats' },
    { path: 'visitor.claims.unsigned.beta', type: 'boolean', description: 'Joined the beta' },
  ]);
  assert.deepEqual(claimsOf(null), []);
  assert.deepEqual(claimsOf({ properties: { 'not a name': { type: 'boolean' } } }), []);
  const merged = mergeClaims([claimsOf(adaptiveSchema), [{ path: 'visitor.claims.plan', type: 'string', description: 'Other' }, { path: 'visitor.claims.x', type: 'number', description: '' }]]);
  assert.deepEqual(merged.map((c) => `${c.path} ${c.description}`).slice(1), ['visitor.claims.plan Plan', 'visitor.claims.seats Seats', 'visitor.claims.unsigned.beta Joined the beta', 'visitor.claims.x ']);
});

test('a comparison is read from a condition and written back; anything else is no comparison', () => {
  assert.deepEqual(comparisonOf('visitor.claims.plan == "pro"'), { path: 'visitor.claims.plan', operator: '==', value: 'pro' });
  assert.deepEqual(comparisonOf(" visitor.claims.plan !== 'pro' "), { path: 'visitor.claims.plan', operator: '!=', value: 'pro' });
  assert.deepEqual(comparisonOf('visitor.claims.seats === 3'), { path: 'visitor.claims.seats', operator: '==', value: 3 });
  assert.deepEqual(comparisonOf('visitor.claims.unsigned.example_attribute_A'), { path: 'visitor.claims.unsigned.example_attribute_A', operator: '==', value: true });
  assert.deepEqual(comparisonOf('!visitor.claims.unsigned.example_attribute_A'), { path: 'visitor.claims.unsigned.example_attribute_A', operator: '==', value: false });
  for (const other of ['visitor.claims.a && visitor.claims.b', 'visitor.claims.roles.includes("admin")', 'window.x == 1', 'visitor.claims == 1', '']) assert.equal(comparisonOf(other), null, other);
  assert.equal(writeComparison({ path: 'visitor.claims.plan', operator: '==', value: 'pro "x"' }), 'visitor.claims.plan == "pro \\"x\\""');
  assert.equal(writeComparison({ path: 'visitor.claims.unsigned.beta', operator: '!=', value: true }), 'visitor.claims.unsigned.beta != true');
  for (const value of ['pro', 'a "b"', 3, false]) {
    const written = writeComparison({ path: 'visitor.claims.x', operator: '==', value });
    assert.deepEqual(comparisonOf(written)?.value, value);
  }
  assert.equal(valueFor({ type: 'number' }, '12'), 12);
  assert.equal(valueFor({ type: 'number' }, 'twelve'), 'twelve');
  assert.equal(valueFor({ type: 'boolean' }, 'false'), false);
  assert.equal(valueFor(undefined, 'x'), 'x');
});

test('a conditional block\'s header says its condition in words, or shows the expression as it is', () => {
  assert.equal(describeCondition('visitor.claims.plan == "pro"'), 'plan is pro');
  assert.equal(describeCondition('visitor.claims.unsigned.beta != true'), 'unsigned.beta is not true');
  assert.equal(describeCondition('!visitor.claims.isPartner'), 'isPartner is false');
  assert.equal(describeCondition(' visitor.claims.a || visitor.claims.b '), 'visitor.claims.a || visitor.claims.b');
  assert.equal(describeCondition(''), 'no condition (every visitor)');
  assert.equal(conditionField({ expression: 'x' }), 'expression');
  assert.equal(conditionField({ condition: 'x' }), 'condition');
  assert.equal(conditionField({}), 'expression');
});

test('conditional content and a prompt inserted from the `/` menu are valid, and saved in GitBook\'s shape', () => {
  const doc = Node.fromJSON(schema, { type: 'doc', content: [newConditional(), newPrompt()] });
  doc.check();
  const [conditional, prompt] = fromEditor(doc.toJSON() as PMNode).nodes as unknown as Record<string, unknown>[];
  assert.deepEqual(conditional, { object: 'block', type: 'if', data: { expression: '' }, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: '', marks: [] }] }] }] });
  assert.deepEqual(prompt!.data, { description: '' });
  assert.deepEqual((prompt!.nodes as { type: string; data: unknown }[]).map((b) => [b.type, b.data]), [['code', { syntax: 'markdown' }]]);
});

/** A document of blocks, the caret at the start of its `n`th paragraph. */
function at(blocks: unknown[], n: number): EditorState {
  const doc = Node.fromJSON(schema, { type: 'doc', content: blocks });
  let seen = -1;
  let caret = 0;
  doc.descendants((node, pos) => {
    if (node.type.name === 'paragraph' && ++seen === n) caret = pos + 1;
    return seen < n;
  });
  return EditorState.create({ doc, selection: TextSelection.create(doc, caret) });
}
const run = (state: EditorState, command: Command) => {
  let next = state;
  const handled = command(state, (tr) => (next = state.apply(tr)));
  return { handled, shape: JSON.stringify(shapeOf(next.doc)), caretIn: next.selection.$from.node(-1).type.name };
};
const shapeOf = (node: Node): unknown => (node.isTextblock ? node.textContent || '_' : { [node.type.name]: node.content.content.map(shapeOf) });
const para = (text?: string) => ({ type: 'paragraph', content: text ? [{ type: 'text', text }] : [] });

test('Enter on an empty last line leaves conditional content or a prompt; elsewhere it makes a line', () => {
  const out = run(at([{ type: 'conditional', content: [para('shown'), para()] }], 1), leaveFrame);
  assert.equal(out.shape, '{"doc":[{"conditional":["shown"]},"_"]}');
  assert.equal(out.caretIn, 'doc');
  assert.equal(run(at([{ type: 'prompt', content: [para('a'), para()] }, para('after')], 1), leaveFrame).shape, '{"doc":[{"prompt":["a"]},"_","after"]}');
  assert.equal(run(at([{ type: 'conditional', content: [para()] }], 0), leaveFrame).handled, false, 'the only line stays');
  assert.equal(run(at([{ type: 'conditional', content: [para(), para('b')] }], 0), leaveFrame).handled, false, 'an empty line before others');
  assert.equal(run(at([{ type: 'conditional', content: [{ type: 'hint', content: [para('a'), para()] }] }], 1), leaveFrame).handled, false, 'a line of a hint inside');
});

test('Backspace at the start of conditional content moves nothing; an empty one goes', () => {
  const kept = run(at([para('above'), { type: 'conditional', content: [para('one')] }], 1), backspaceAtFrameStart);
  assert.equal(kept.handled, true);
  assert.equal(kept.shape, '{"doc":["above",{"conditional":["one"]}]}');
  assert.equal(run(at([{ type: 'prompt', content: [para()] }], 0), backspaceAtFrameStart).shape, '{"doc":["_"]}');
  assert.equal(run(at([{ type: 'conditional', content: [para('a'), para('b')] }], 1), backspaceAtFrameStart).handled, false, 'a later line joins the one before');
});

test('conditional content goes only in the page\'s flow; a prompt also in tabs, steps, columns, updates and expandables', () => {
  assert.equal(conditionalFitsIn(['doc', 'paragraph']), true);
  assert.equal(conditionalFitsIn(['doc', 'conditional', 'paragraph']), true);
  assert.equal(conditionalFitsIn(['doc', 'stepper', 'stepperStep', 'paragraph']), false);
  assert.equal(conditionalFitsIn(['doc', 'hint', 'paragraph']), false);
  assert.equal(promptFitsIn(['doc', 'conditional', 'paragraph']), true);
  assert.equal(promptFitsIn(['doc', 'columns', 'column', 'paragraph']), true);
  assert.equal(promptFitsIn(['doc', 'expandable', 'fragment', 'paragraph']), true);
  assert.equal(promptFitsIn(['doc', 'hint', 'paragraph']), false);
  assert.equal(promptFitsIn(['doc', 'prompt', 'paragraph']), false);
  assert.equal(promptFitsIn(['doc', 'bulletList', 'listItem', 'paragraph']), false);
});

test('Enter on a third empty line at the end of a prompt\'s code leaves the prompt, not just the code', () => {
  const codeBlock = (text: string) => ({ type: 'codeBlock', content: [{ type: 'text', text }] });
  const doc = Node.fromJSON(schema, { type: 'doc', content: [{ type: 'prompt', content: [codeBlock('Summarize.\n\n')] }, para('after')] });
  const end = 1 + 1 + 'Summarize.\n\n'.length;
  const state = EditorState.create({ doc, selection: TextSelection.create(doc, end) });
  const out = run(state, leavePromptCode);
  assert.equal(out.shape, '{"doc":[{"prompt":["Summarize."]},"_","after"]}');
  assert.equal(out.caretIn, 'doc');
  const notYet = Node.fromJSON(schema, { type: 'doc', content: [{ type: 'prompt', content: [codeBlock('Summarize.\n')] }] });
  assert.equal(run(EditorState.create({ doc: notYet, selection: TextSelection.create(notYet, 2 + 'Summarize.\n'.length) }), leavePromptCode).handled, false, 'one empty line: a new line');
  const alone = Node.fromJSON(schema, { type: 'doc', content: [codeBlock('x\n\n')] });
  assert.equal(run(EditorState.create({ doc: alone, selection: TextSelection.create(alone, 1 + 3) }), leavePromptCode).handled, false, 'a code block of the page: TipTap\'s own exit');
});
