import type { Block, Document, FlowBlock, Fragment, InlineContent } from '../types.ts';
import { sameJson, type PMNode } from './editor-json.ts';
import { inlineFromEditor, inlineToEditor, Unrepresentable } from './inline.ts';

/*
 * Blocks <-> ProseMirror nodes (see schema.ts for what the attributes hold). Each flow block is converted, then
 * converted back and compared with itself: a block the mapping cannot give back exactly (a list item that
 * does not start with a paragraph, an empty quote, a code line with marks) becomes an `opaqueBlock` atom with
 * its JSON, shown as a read-only card. So `fromEditor(toEditor(doc))` equals `doc` by construction, and the
 * tests measure how rarely the fallback is taken.
 */

type Json = Record<string, unknown>;
type Children = 'inline' | 'nodes' | 'fragments' | 'code' | 'none';

/** `only`: the one type its children have (a stepper holds steps): another child makes the block a card. */
interface Mapping { pm: string; children: Children; child?: (block: Block) => void; only?: string }

const OURS: Record<string, Mapping> = {
  paragraph: { pm: 'paragraph', children: 'inline' },
  'heading-1': { pm: 'heading', children: 'inline' },
  'heading-2': { pm: 'heading', children: 'inline' },
  'heading-3': { pm: 'heading', children: 'inline' },
  'list-unordered': { pm: 'bulletList', children: 'nodes', only: 'list-item' },
  'list-ordered': { pm: 'orderedList', children: 'nodes', only: 'list-item' },
  'list-tasks': { pm: 'taskList', children: 'nodes', only: 'list-item' },
  blockquote: { pm: 'blockquote', children: 'nodes' },
  hint: { pm: 'hint', children: 'nodes' },
  code: { pm: 'codeBlock', children: 'code' },
  divider: { pm: 'horizontalRule', children: 'none' },
  tabs: { pm: 'tabs', children: 'nodes', only: 'tabs-item' },
  'tabs-item': { pm: 'tabsItem', children: 'nodes' },
  expandable: { pm: 'expandable', children: 'fragments' },
  images: { pm: 'images', children: 'nodes', only: 'image' },
  image: { pm: 'image', children: 'fragments' },
  embed: { pm: 'embed', children: 'fragments' },
  file: { pm: 'file', children: 'fragments' },
  table: { pm: 'table', children: 'none' },
  'content-ref': { pm: 'contentRef', children: 'none' },
  stepper: { pm: 'stepper', children: 'nodes', only: 'stepper-step' },
  'stepper-step': { pm: 'stepperStep', children: 'nodes' },
  columns: { pm: 'columns', children: 'nodes', only: 'column' },
  column: { pm: 'column', children: 'nodes' },
  updates: { pm: 'updates', children: 'nodes', only: 'update' },
  update: { pm: 'update', children: 'nodes' },
  if: { pm: 'conditional', children: 'nodes' },
  prompt: { pm: 'prompt', children: 'nodes' },
};
/** Nodes whose children must not be empty (`block+`, `image+`…). */
const NON_EMPTY = new Set(['blockquote', 'hint', 'tabs', 'tabsItem', 'expandable', 'images', 'bulletList', 'orderedList', 'taskList', 'listItem', 'taskItem', 'fragment',
  'stepper', 'stepperStep', 'columns', 'column', 'updates', 'update', 'conditional', 'prompt']);
const ATOMS = new Set(['horizontalRule', 'table', 'contentRef']);

/**
 * The fresh JSON of a block made in the editor, before its edited fields and children are set; null for a node
 * that cannot be made without its JSON (an image, a table, a card parsed from pasted HTML): it is left out.
 */
export function freshBlock(node: PMNode): Json | null {
  const a = node.attrs ?? {};
  const b = (type: string, data: Json = {}, extra: Json = {}) => ({ object: 'block', type, ...extra, data });
  switch (node.type) {
    case 'paragraph': return b('paragraph');
    case 'heading': return b(`heading-${Number(a.level ?? 1)}`);
    case 'bulletList': return b('list-unordered');
    case 'orderedList': return b('list-ordered');
    case 'taskList': return b('list-tasks');
    case 'listItem': return b('list-item');
    case 'taskItem': return b('list-item', { checked: false });
    case 'blockquote': return b('blockquote');
    case 'hint': return b('hint', { style: 'info' });
    case 'codeBlock': return b('code');
    case 'horizontalRule': return b('divider', {}, { isVoid: true });
    case 'tabs': return b('tabs');
    case 'tabsItem': return b('tabs-item', { title: '' });
    case 'expandable': return b('expandable', {}, { isVoid: true });
    case 'images': return b('images', {}, { isVoid: false });
    case 'stepper': return b('stepper');
    case 'stepperStep': return b('stepper-step');
    case 'columns': return b('columns', {}, { isVoid: false });
    case 'column': return b('column');
    case 'updates': return b('updates', { format: 'full' });
    // GitBook's update always has a date: one made without it (never by the `/` menu) is dated when it is set.
    case 'update': return b('update', { date: '' });
    // GitBook requires both fields: an empty condition shows the content to every visitor, until one is set.
    case 'conditional': return b('if', { expression: '' });
    case 'prompt': return b('prompt', { description: '' });
    default: return null;
  }
}

const lineText = (line: Block) => ((line as { nodes?: InlineContent[] }).nodes ?? []).map((n) => (n.object === 'text' ? n.leaves.map((l) => l.text).join('') : '\u0000')).join('');

function toNode(block: Block, inTasks = false): PMNode {
  const mapping = block.type === 'list-item' ? { pm: inTasks ? 'taskItem' : 'listItem', children: 'nodes' as const } : OURS[block.type];
  if (!mapping) throw new Unrepresentable(`${block.type} is shown as a card`);
  const raw = block as unknown as Json;
  const attrs: Json = {};
  let content: PMNode[] | undefined;
  switch (mapping.children) {
    case 'inline': {
      const inline = inlineToEditor((raw.nodes as InlineContent[] | undefined) ?? []);
      if (!Array.isArray(raw.nodes)) throw new Unrepresentable('inline block without nodes');
      attrs.block = { ...raw, nodes: [] };
      attrs.trailing = inline.trailing;
      content = inline.content;
      break;
    }
    case 'nodes': {
      if (!Array.isArray(raw.nodes)) throw new Unrepresentable('container without nodes');
      attrs.block = { ...raw, nodes: [] };
      const tasks = block.type === 'list-tasks';
      const only = 'only' in mapping ? mapping.only : undefined;
      content = (raw.nodes as Block[]).map((child) => {
        if (!only) return flowToNode(child as FlowBlock);
        if (child?.type !== only) throw new Unrepresentable(`${block.type} holding another block than ${only}`);
        return toNode(child, tasks);
      });
      break;
    }
    case 'fragments': {
      const fragments = raw.fragments as Fragment[] | undefined;
      attrs.block = fragments === undefined ? raw : { ...raw, fragments: [] };
      if ('nodes' in raw) throw new Unrepresentable('a fragment block with nodes');
      content = (fragments ?? []).map((f) => {
        const { nodes, ...rest } = f;
        return { type: 'fragment', attrs: { fragment: { ...rest, nodes: [] } }, content: nodes.map(flowToNode) };
      });
      break;
    }
    case 'code': {
      const lines = (raw.nodes as Block[] | undefined) ?? [];
      attrs.block = { ...raw, nodes: [] };
      attrs.lines = lines;
      const value = lines.map(lineText).join('\n');
      content = value ? [{ type: 'text', text: value }] : [];
      break;
    }
    case 'none':
      attrs.block = raw;
      break;
  }
  if (block.type.startsWith('heading-')) attrs.level = Number(block.type.slice(-1));
  if (block.type === 'list-ordered') attrs.start = (raw.data as Json | undefined)?.start ?? 1;
  if (block.type === 'list-item' && inTasks) attrs.checked = (raw.data as Json | undefined)?.checked === true;
  if (block.type === 'code') attrs.language = (raw.data as Json | undefined)?.syntax ?? null;
  if (NON_EMPTY.has(mapping.pm) && (content ?? []).length === 0) throw new Unrepresentable(`an empty ${block.type}`);
  if ((mapping.pm === 'listItem' || mapping.pm === 'taskItem') && content?.[0]?.type !== 'paragraph') throw new Unrepresentable('a list item not starting with a paragraph');
  return ATOMS.has(mapping.pm) || content === undefined ? { type: mapping.pm, attrs } : { type: mapping.pm, attrs, content };
}

const NON_FLOW = new Set(['list-item', 'code-line', 'image', 'tabs-item', 'stepper-step', 'column', 'update']);
const isFlow = (block: Block) => !NON_FLOW.has(block.type);

/** A flow block as a node, or as an opaque card when the mapping cannot give it back exactly. */
export function flowToNode(block: FlowBlock): PMNode {
  try {
    // A step, column or tab only stands in its own container, never in the flow.
    if (!isFlow(block)) throw new Unrepresentable(`${block.type} outside its container`);
    const node = toNode(block);
    if (sameJson(fromNode(node), block)) return node;
  } catch (error) {
    if (!(error instanceof Unrepresentable)) throw error;
  }
  return { type: 'opaqueBlock', attrs: { block } };
}

const withData = (shell: Json, field: string, value: unknown, fallback: unknown): Json => {
  const data = (shell.data as Json | undefined) ?? undefined;
  if ((data?.[field] ?? fallback) === value) return shell;
  return { ...shell, data: { ...data, [field]: value } };
};

const fitsNode = (shell: Json, pmType: string) =>
  typeof shell.type === 'string' && (OURS[shell.type]?.pm === pmType || (shell.type === 'list-item' && (pmType === 'listItem' || pmType === 'taskItem')));

/** A node back as our block (null for one that cannot be made without its JSON: see freshBlock). */
export function fromNode(node: PMNode): Block | null {
  const attrs = node.attrs ?? {};
  if (node.type === 'opaqueBlock' || ATOMS.has(node.type)) return (attrs.block as Block | null) ?? (freshBlock(node) as Block | null);
  let shell = (attrs.block as Json | null) ?? freshBlock(node);
  if (!shell) return null;
  // TipTap's setNode keeps the attributes of the block it turns into another kind (a paragraph into a code
  // block): the shell of another type is dropped, its key kept (it is the same block for comments and links).
  if (!fitsNode(shell, node.type)) {
    const fresh = freshBlock(node);
    if (!fresh) return null;
    shell = typeof shell.key === 'string' ? { ...fresh, key: shell.key } : fresh;
  }
  const children = node.content ?? [];
  switch (node.type) {
    case 'heading':
      if (shell.type !== `heading-${Number(attrs.level)}`) shell = { ...shell, type: `heading-${Number(attrs.level)}` };
      break;
    case 'orderedList':
      if (((shell.data as Json | undefined)?.start ?? 1) !== attrs.start) shell = { ...shell, data: { ...(shell.data as Json), start: attrs.start } };
      break;
    case 'taskItem':
      shell = withData(shell, 'checked', attrs.checked === true, false);
      break;
    case 'codeBlock':
      shell = withData(shell, 'syntax', attrs.language ?? undefined, undefined);
      if ((shell.data as Json).syntax === undefined) {
        const { syntax: _, ...data } = shell.data as Json;
        shell = { ...shell, data };
      }
      break;
  }
  if (node.type === 'paragraph' || node.type === 'heading') return { ...shell, nodes: inlineFromEditor(children, attrs.trailing ?? null) } as unknown as Block;
  if (node.type === 'codeBlock') return { ...shell, nodes: codeLines(children, attrs.lines as Block[] | null) } as unknown as Block;
  if (OURS[shell.type as string]?.children === 'fragments') {
    const fragments = children.map(fromFragment);
    return ('fragments' in shell || fragments.length > 0 ? { ...shell, fragments } : shell) as unknown as Block;
  }
  return { ...shell, nodes: blocksOf(children) } as unknown as Block;
}

function fromFragment(node: PMNode): Fragment {
  const shell = (node.attrs?.fragment as Json | null) ?? { object: 'fragment', fragment: 'caption', nodes: [] };
  return { ...shell, nodes: blocksOf(node.content ?? []) } as unknown as Fragment;
}

const blocksOf = (nodes: readonly PMNode[]): Block[] => nodes.map(fromNode).filter((block): block is Block => block !== null);

function codeLines(children: readonly PMNode[], lines: Block[] | null): Block[] {
  const value = children.map((c) => c.text ?? '').join('');
  return value.split('\n').map((text, i) => {
    const original = lines?.[i];
    if (original && lineText(original) === text) return original;
    const textKey = ((original as { nodes?: { key?: string }[] } | undefined)?.nodes?.[0]?.key);
    const leaves = [{ object: 'leaf', text, marks: [] }];
    const nodes = [textKey ? { object: 'text', key: textKey, leaves } : { object: 'text', leaves }];
    return (original ? { ...original, nodes } : { object: 'block', type: 'code-line', data: {}, nodes }) as unknown as Block;
  });
}

/** Our document as the editor's JSON. */
export function toEditor(document: Document): PMNode {
  const { nodes, ...rest } = document;
  const content = nodes.map(flowToNode);
  // ProseMirror needs somewhere to put the cursor: an empty document shows one empty paragraph, which comes back as no block while it stays empty.
  if (content.length === 0) content.push({ type: 'paragraph', attrs: { block: { placeholder: true }, trailing: null } });
  return { type: 'doc', attrs: { document: { ...rest, nodes: [] } }, content };
}

/** The editor's JSON as our document; `original(i, node)` may give back a top-level block known to be unchanged. */
export function fromEditor(doc: PMNode, original?: (node: PMNode) => FlowBlock | undefined): Document {
  const shell = (doc.attrs?.document as Json | null) ?? { object: 'document', data: {}, nodes: [] };
  const content = doc.content ?? [];
  const only = content[0];
  if (content.length === 1 && only && (only.attrs?.block as Json | null)?.placeholder === true && (only.content ?? []).length === 0) {
    return { ...shell, nodes: [] } as unknown as Document;
  }
  const nodes = content.map((node) => original?.(node) ?? (fromNode(unplaceholder(node)) as FlowBlock | null)).filter((block): block is FlowBlock => block !== null);
  return { ...shell, nodes } as unknown as Document;
}

const unplaceholder = (node: PMNode): PMNode =>
  (node.attrs?.block as Json | null)?.placeholder === true ? { ...node, attrs: { ...node.attrs, block: null } } : node;
