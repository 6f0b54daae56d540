// @sqlite-run-only: the editor's model only; no database.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { getSchema } from '@tiptap/core';
import { Node } from '@tiptap/pm/model';
import fc from 'fast-check';
import { documentArbitrary, doc, p, t, leaf, link, hint, ul, item, code, expandable, table } from '../../src/features/content/document/test-fixtures.ts';
import type { Document, FlowBlock } from '../../src/features/content/document/types.ts';
import { fromEditor, toEditor } from '../../src/features/content/document/editor/blocks.ts';
import type { PMNode } from '../../src/features/content/document/editor/editor-json.ts';
import { schemaExtensions } from '../../src/features/content/document/editor/schema.ts';
import { corpusDocuments } from './corpus-documents.ts';

const schema = getSchema(schemaExtensions);

/** Through the editor's JSON and ProseMirror's own node (checked against the real schema) and back. */
function roundTrip(document: Document): { back: Document; json: PMNode } {
  const json = toEditor(document);
  const node = Node.fromJSON(schema, json);
  node.check();
  return { back: fromEditor(node.toJSON() as PMNode), json };
}

const cards = (json: PMNode): string[] => {
  const found: string[] = [];
  const walk = (node: PMNode) => {
    if (node.type === 'opaqueBlock') found.push(String((node.attrs?.block as { type?: string }).type));
    node.content?.forEach(walk);
  };
  walk(json);
  return found;
};
const OPAQUE = new Set(['math', 'drawing', 'if', 'openapi', 'openapi-operation', 'openapi-schemas', 'openapi-webhook', 'integration', 'reusable-content', 'swagger']);

describe('the editor model', () => {
  test('any document of the model comes back identical, and only opaque types become cards', () => {
    fc.assert(
      fc.property(documentArbitrary(), (document) => {
        const { back, json } = roundTrip(document);
        assert.deepStrictEqual(back, document);
        assert.deepEqual(cards(json).filter((type) => !OPAQUE.has(type)), []);
      }),
      { numRuns: 300 },
    );
  });

  test('text keys, leaf boundaries, bare leaves, empty texts around inlines and mark data are kept', () => {
    const document: Document = {
      object: 'document',
      data: { custom: 1 },
      nodes: [
        {
          object: 'block', type: 'paragraph', key: 'p1', meta: { markdown: 'x', digest: 'y' }, data: { align: 'center' },
          nodes: [
            { object: 'text', key: 'ta', leaves: [{ object: 'leaf', text: 'a' }, { object: 'leaf', text: 'b', marks: [] }, leaf('c', 'bold')] },
            { object: 'text', key: 'tb', leaves: [{ object: 'leaf', text: 'd', marks: [{ object: 'mark', type: 'color', data: { text: 'red', background: 'default' } }] }] },
            link({ kind: 'page', page: 'x' }, 'go'),
            t(),
            { object: 'inline', type: 'emoji', key: 'e', data: { code: '1f600' } } as never,
            t(),
          ],
        },
        { object: 'block', type: 'math', key: 'm', data: { formula: 'x^2' } } as unknown as FlowBlock,
        { object: 'block', type: 'paragraph', nodes: [] } as never,
      ],
    };
    const { back, json } = roundTrip(document);
    assert.deepStrictEqual(back, document);
    assert.deepEqual(cards(json), ['math']);
  });

  test('every page of the corpus gives valid editor JSON and comes back identical, keys included', () => {
    const pages = corpusDocuments();
    assert.ok(pages.length >= 20);
    const shown = new Map<string, number>();
    for (const { file, document } of pages) {
      const { back, json } = roundTrip(document);
      assert.deepStrictEqual(back, document, file);
      for (const type of cards(json)) shown.set(type, (shown.get(type) ?? 0) + 1);
    }
    // A card is an opaque type of GitBook (kept exactly) or a block the mapping cannot hold: name the latter.
    assert.deepEqual([...shown.keys()].filter((type) => !OPAQUE.has(type)), []);
  });

  test('editing one block leaves the JSON of every other block byte-identical', () => {
    const document = doc(p('first'), hint('info', p('inside')), ul(item(p('one'))), code(['a', 'b'], { syntax: 'js' }), expandable('T', p('body')),
      table([{ title: 'A' }], [[[t('1')]]]), p('last'));
    const json = toEditor(document);
    const edited = structuredClone(json);
    edited.content![0]!.content![0]!.text = 'first, edited';
    const back = fromEditor(Node.fromJSON(schema, edited).toJSON() as PMNode);
    assert.equal(JSON.stringify(back.nodes[0]).includes('first, edited'), true);
    back.nodes.slice(1).forEach((block, i) => assert.equal(JSON.stringify(block), JSON.stringify(document.nodes[i + 1])));
    // Nested: a paragraph inside the hint changes the hint only.
    const nested = structuredClone(json);
    nested.content![1]!.content![0]!.content![0]!.text = 'changed';
    const again = fromEditor(Node.fromJSON(schema, nested).toJSON() as PMNode);
    assert.equal(JSON.stringify(again.nodes[0]), JSON.stringify(document.nodes[0]));
    assert.equal(JSON.stringify(again.nodes[2]), JSON.stringify(document.nodes[2]));
  });

  test('steppers, columns and updates are edited in place, in every shape GitBook writes them, and come back identical', () => {
    const block = (type: string, data: Record<string, unknown>, nodes: unknown[], extra: Record<string, unknown> = {}) => ({ object: 'block', type, ...extra, data, nodes }) as unknown as FlowBlock;
    const document = doc(
      block('stepper', {}, [block('stepper-step', { icon: 'rocket' }, [p('one')], { key: 's1' }), block('stepper-step', {}, [hint('info', p('two')), p('more')])], { key: 'st' }),
      // GitBook's own stepper may have no data at all (`data?: object`).
      { object: 'block', type: 'stepper', nodes: [block('stepper-step', {}, [p('only')])] } as unknown as FlowBlock,
      block('columns', { fullWidth: true }, [block('column', { width: { value: 50, unit: '%' }, verticalAlignment: 'middle' }, [p('left')]), block('column', {}, [p('right')])], { isVoid: false }),
      block('columns', {}, [block('column', { width: 30 }, [p('a')]), block('column', {}, [p('b')]), block('column', {}, [p('c')])]),
      block('updates', { format: 'short' }, [block('update', { date: '2025-12-25', tags: [{ kind: 'tag', tag: 'beta' }] }, [p('new')]), block('update', { date: '2024-01-01' }, [ul(item(p('x')))])]),
    );
    const { back, json } = roundTrip(document);
    assert.deepStrictEqual(back, document);
    assert.deepEqual(cards(json), []);
    assert.deepEqual(json.content!.map((node) => node.type), ['stepper', 'stepper', 'columns', 'columns', 'updates']);
    assert.deepEqual(json.content![0]!.content!.map((node) => node.type), ['stepperStep', 'stepperStep']);
  });

  test('a stepper, columns or updates holding something else, or a step out of its stepper, is kept as a card', () => {
    const block = (type: string, nodes: unknown[]) => ({ object: 'block', type, data: {}, nodes }) as unknown as FlowBlock;
    const document = doc(block('stepper', [p('not a step')]), block('columns', []), block('updates', [block('stepper-step', [p('x')])]), block('column', [p('alone')]), block('stepper', [block('stepper-step', [])]));
    const { back, json } = roundTrip(document);
    assert.deepStrictEqual(back, document);
    assert.deepEqual(cards(json), ['stepper', 'columns', 'updates', 'column', 'stepper']);
  });

  test('steppers, columns and updates made in the editor get GitBook\'s shape', () => {
    const para = { type: 'paragraph', content: [{ type: 'text', text: 'x' }] };
    const json: PMNode = { type: 'doc', content: [
      { type: 'stepper', content: [{ type: 'stepperStep', content: [para] }] },
      { type: 'columns', content: [{ type: 'column', content: [para] }, { type: 'column', content: [para] }] },
      { type: 'updates', content: [{ type: 'update', content: [para] }] },
    ] };
    const back = fromEditor(Node.fromJSON(schema, json).toJSON() as PMNode);
    assert.deepStrictEqual(back.nodes, [
      { object: 'block', type: 'stepper', data: {}, nodes: [{ object: 'block', type: 'stepper-step', data: {}, nodes: [p('x')] }] },
      { object: 'block', type: 'columns', isVoid: false, data: {}, nodes: [{ object: 'block', type: 'column', data: {}, nodes: [p('x')] }, { object: 'block', type: 'column', data: {}, nodes: [p('x')] }] },
      { object: 'block', type: 'updates', data: { format: 'full' }, nodes: [{ object: 'block', type: 'update', data: { date: '' }, nodes: [p('x')] }] },
    ]);
  });

  test('conditional content and prompts are edited in place, every field of their data kept, and come back identical', () => {
    const block = (type: string, data: Record<string, unknown> | undefined, nodes: unknown[], extra: Record<string, unknown> = {}) =>
      ({ object: 'block', type, ...extra, ...(data ? { data } : {}), nodes }) as unknown as FlowBlock;
    const document = doc(
      block('if', { expression: 'visitor.claims.unsigned.beta == true' }, [p('for beta'), hint('info', p('inside'))], { key: 'if1', isVoid: false }),
      // Older GitBook exports name it `condition`; both are kept as they are.
      block('if', { condition: '!visitor.claims.isPartner', extra: 1 }, [ul(item(p('x')))]),
      block('prompt', { description: 'Summarize', icon: 'rectangle-terminal', openInAIProviders: true, defaultExpanded: 'full' }, [code(['Summarize this.'], { syntax: 'markdown' })], { key: 'pr' }),
      block('prompt', { description: '' }, [p('a'), p('b')]),
      // A condition inside a step, a prompt inside a condition.
      block('stepper', {}, [block('stepper-step', {}, [block('if', { expression: 'x' }, [block('prompt', { description: 'd' }, [p('deep')])])])]),
    );
    const { back, json } = roundTrip(document);
    assert.deepStrictEqual(back, document);
    assert.deepEqual(cards(json), []);
    assert.deepEqual(json.content!.map((node) => node.type), ['conditional', 'conditional', 'prompt', 'prompt', 'stepper']);
  });

  test('an empty or malformed condition or prompt, and every drawing, are kept as cards; a stray block in a condition is one itself', () => {
    const document = doc(
      { object: 'block', type: 'if', data: { expression: 'x' }, nodes: [] } as unknown as FlowBlock,
      { object: 'block', type: 'prompt', data: { description: 'no nodes' } } as unknown as FlowBlock,
      { object: 'block', type: 'if', data: { expression: 'x' }, nodes: [{ object: 'block', type: 'column', data: {}, nodes: [p('a')] }] } as unknown as FlowBlock,
      { object: 'block', type: 'drawing', key: 'd', isVoid: true, data: { ref: { kind: 'file', file: 'f1' } } } as unknown as FlowBlock,
    );
    const { back, json } = roundTrip(document);
    assert.deepStrictEqual(back, document);
    assert.deepEqual(cards(json), ['if', 'prompt', 'column', 'drawing']);
  });

  test('conditional content and prompts made in the editor get GitBook\'s shape', () => {
    const para = { type: 'paragraph', content: [{ type: 'text', text: 'x' }] };
    const json: PMNode = { type: 'doc', content: [{ type: 'conditional', content: [para] }, { type: 'prompt', content: [para] }] };
    const back = fromEditor(Node.fromJSON(schema, json).toJSON() as PMNode);
    assert.deepStrictEqual(back.nodes, [
      { object: 'block', type: 'if', data: { expression: '' }, nodes: [p('x')] },
      { object: 'block', type: 'prompt', data: { description: '' }, nodes: [p('x')] },
    ]);
  });

  test('blocks made in the editor get the model shape, and split halves do not share a key', () => {
    const json: PMNode = { type: 'doc', content: [
      { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Title', marks: [{ type: 'bold' }] }] },
      { type: 'taskList', content: [{ type: 'taskItem', attrs: { checked: true }, content: [{ type: 'paragraph', content: [{ type: 'text', text: 'do' }] }] }] },
      { type: 'codeBlock', attrs: { language: 'ts' }, content: [{ type: 'text', text: 'a\nb' }] },
      { type: 'horizontalRule' },
      // A paragraph turned into a code block by TipTap keeps its attributes: the block becomes code, its key stays.
      { type: 'codeBlock', attrs: { language: null, block: { object: 'block', type: 'paragraph', key: 'kp', data: { align: 'center' }, nodes: [] } }, content: [{ type: 'text', text: 'x' }] },
    ] };
    const back = fromEditor(Node.fromJSON(schema, json).toJSON() as PMNode);
    assert.deepStrictEqual(back.nodes, [
      { object: 'block', type: 'heading-2', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Title', marks: [{ object: 'mark', type: 'bold' }] }] }] },
      { object: 'block', type: 'list-tasks', data: {}, nodes: [{ object: 'block', type: 'list-item', data: { checked: true }, nodes: [p('do')] }] },
      { object: 'block', type: 'code', data: { syntax: 'ts' }, nodes: ['a', 'b'].map((line) => ({ object: 'block', type: 'code-line', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: line, marks: [] }] }] })) },
      { object: 'block', type: 'divider', isVoid: true, data: {} },
      { object: 'block', type: 'code', data: {}, key: 'kp', nodes: [{ object: 'block', type: 'code-line', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'x', marks: [] }] }] }] },
    ]);
  });
});
