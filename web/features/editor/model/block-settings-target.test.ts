import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Editor, type JSONContent } from '@tiptap/core';
import { NodeSelection, TextSelection } from '@tiptap/pm/state';
import { schemaExtensions } from '../../../../src/features/content/document/editor/schema.ts';
import { blockWithData, setNodeAttrs, settingsTarget } from './block-settings-target.ts';

const block = (type: string, data: Record<string, unknown> = {}) => ({ object: 'block', type, key: `k-${type}`, data });
const paragraph = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });

function editorWith(content: JSONContent[]): Editor {
  return new Editor({ extensions: schemaExtensions, content: { type: 'doc', content } });
}

/** The position of the first text `words` (inside it). */
const at = (editor: Editor, words: string): number => {
  let found = -1;
  editor.state.doc.descendants((node, pos) => {
    if (found < 0 && node.isText && node.text?.includes(words)) found = pos + 1;
  });
  return found;
};

test('the caret in a hint inside a tab configures the hint; in the tab itself, the tabs block and that tab', () => {
  const editor = editorWith([
    { type: 'tabs', attrs: { block: block('tabs') }, content: [
      { type: 'tabsItem', attrs: { block: block('tabs-item', { title: 'One' }) }, content: [paragraph('in the tab'), { type: 'hint', attrs: { block: block('hint', { style: 'info' }) }, content: [paragraph('in the hint')] }] },
    ] },
  ]);
  const inHint = settingsTarget(TextSelection.create(editor.state.doc, at(editor, 'in the hint')));
  assert.equal(inHint?.kind, 'hint');
  const inTab = settingsTarget(TextSelection.create(editor.state.doc, at(editor, 'in the tab')));
  assert.equal(inTab?.kind, 'tabs');
  assert.equal(inTab?.pos, 0);
  assert.equal(inTab?.parent?.index, 0);
  assert.equal(inTab?.parent?.node.type.name, 'tabsItem');
  editor.destroy();
});

test('plain text has no settings; a selected image has, with its images block for alignment', () => {
  const editor = editorWith([
    paragraph('plain'),
    { type: 'images', attrs: { block: block('images') }, content: [{ type: 'image', attrs: { block: block('image', { ref: { kind: 'url', url: 'https://example.org/a.png' } }) } }] },
  ]);
  assert.equal(settingsTarget(TextSelection.create(editor.state.doc, at(editor, 'plain'))), null);
  const imagePos = editor.state.doc.child(0).nodeSize + 1;
  const target = settingsTarget(NodeSelection.create(editor.state.doc, imagePos));
  assert.equal(target?.kind, 'image');
  assert.equal(target?.parent?.node.type.name, 'images');
  editor.destroy();
});

test('a setting changes the data it names and keeps the rest; the selected block stays selected', () => {
  const editor = editorWith([{ type: 'embed', attrs: { block: block('embed', { url: 'https://a.example' }) } }, paragraph('after')]);
  editor.view.dispatch(editor.state.tr.setSelection(NodeSelection.create(editor.state.doc, 0)));
  const node = editor.state.doc.nodeAt(0)!;
  editor.view.dispatch(setNodeAttrs(editor.state.tr, 0, { block: blockWithData(node, 'embed', { url: 'https://b.example', caption: undefined }) }));
  assert.deepEqual(editor.state.doc.nodeAt(0)!.attrs.block, { object: 'block', type: 'embed', key: 'k-embed', data: { url: 'https://b.example' } });
  assert.ok(editor.state.selection instanceof NodeSelection && editor.state.selection.from === 0);
  editor.destroy();
});

test('a code block still holding the JSON of the paragraph it was made from starts afresh, keeping its key', () => {
  const editor = editorWith([{ type: 'codeBlock', attrs: { block: block('paragraph', { align: 'center' }) }, content: [{ type: 'text', text: 'x' }] }]);
  assert.deepEqual(blockWithData(editor.state.doc.child(0), 'code', { title: 'Start' }), { object: 'block', type: 'code', key: 'k-paragraph', data: { title: 'Start' }, nodes: [] });
  editor.destroy();
});

test('an OpenAPI operation selected as a whole has settings; another kept block (a drawing) has none', () => {
  const editor = editorWith([
    { type: 'opaqueBlock', attrs: { block: { ...block('openapi-operation', { ref: { kind: 'openapi', spec: 'pets' }, method: 'get', path: '/pets' }), isVoid: true } } },
    { type: 'opaqueBlock', attrs: { block: { ...block('drawing'), isVoid: true } } },
  ]);
  const operation = settingsTarget(NodeSelection.create(editor.state.doc, 0));
  assert.equal(operation?.kind, 'openapi');
  assert.equal(operation?.pos, 0);
  const drawingPos = editor.state.doc.child(0).nodeSize;
  assert.equal(settingsTarget(NodeSelection.create(editor.state.doc, drawingPos)), null);
  // Its data changed keeps the rest of the block (its key).
  const changed = blockWithData(editor.state.doc.child(0), 'openapi-operation', { method: 'post' });
  assert.equal(changed.key, 'k-openapi-operation');
  assert.equal(changed.data?.method, 'post');
});

test('a swagger block (a spec by its address), a webhook and an integration block selected as a whole have their settings', () => {
  const kept = (type: string, data: Record<string, unknown>) => ({ type: 'opaqueBlock', attrs: { block: { ...block(type, data), isVoid: true } } });
  const editor = editorWith([
    kept('swagger', { ref: { kind: 'url', url: 'https://x/openapi.json' }, method: 'get', path: '/pets' }),
    kept('openapi-webhook', { ref: { kind: 'openapi', spec: 'pets' }, name: 'newPet', method: 'post' }),
    kept('integration', { integration: 'figma', block: 'frame', props: {} }),
  ]);
  const kinds: (string | undefined)[] = [];
  let pos = 0;
  editor.state.doc.forEach((node) => {
    kinds.push(settingsTarget(NodeSelection.create(editor.state.doc, pos))?.kind);
    pos += node.nodeSize;
  });
  assert.deepEqual(kinds, ['openapi', 'webhook', 'integration']);
  // A swagger block's operation changed stays a swagger block, its address kept.
  const changed = blockWithData(editor.state.doc.child(0), 'swagger', { method: 'post' });
  assert.deepEqual([changed.type, changed.key, changed.data?.ref, changed.data?.method], ['swagger', 'k-swagger', { kind: 'url', url: 'https://x/openapi.json' }, 'post']);
  editor.destroy();
});
