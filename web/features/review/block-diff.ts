import { diffWordsWithSpace } from 'diff';
import type { Document, FlowBlock } from '../../../src/features/content/document/types.ts';
import { blockText } from '../../../src/features/content/document/text.ts';

/*
 * What changed between two versions of a page, block by block, for a reviewer: top-level blocks are matched by
 * their `key` (the document's own identity for a block, kept by the editor, imports and merges), so a block that
 * moved is shown as moved and not as deleted and added. Text is compared word by word with jsdiff: the documents
 * are JSON, not a ProseMirror schema with its steps, which prosemirror-changeset would need us to rebuild first.
 */

export interface TextPart {
  op: 'equal' | 'insert' | 'delete';
  text: string;
}

export type BlockChange =
  | { kind: 'same'; key: string; block: FlowBlock; moved: boolean }
  | { kind: 'added'; key: string; block: FlowBlock }
  | { kind: 'deleted'; key: string; block: FlowBlock }
  | { kind: 'edited'; key: string; before: FlowBlock; after: FlowBlock; moved: boolean; text: TextPart[] | null; attributes: string[] };

export interface DocumentDiff {
  changes: BlockChange[];
  /** How many blocks were added, deleted, edited or moved: 0 when the page reads the same. */
  changed: number;
}

/** A block without a key (older documents) is known by its type and position, which is all there is. */
const keyOf = (block: FlowBlock, index: number): string => block.key ?? `${block.type}#${index}`;

export function diffDocuments(before: Document | null | undefined, after: Document | null | undefined): DocumentDiff {
  const oldBlocks = (before?.nodes ?? []).filter(isBlock);
  const newBlocks = (after?.nodes ?? []).filter(isBlock);
  const oldKeys = oldBlocks.map(keyOf);
  const newKeys = newBlocks.map(keyOf);
  const oldByKey = new Map(oldBlocks.map((b, i) => [oldKeys[i]!, b]));
  const newKeySet = new Set(newKeys);

  // Blocks kept on both sides in the same relative order are those of a longest common subsequence; the others moved.
  const common = newKeys.filter((k) => oldByKey.has(k));
  const stayed = longestIncreasing(common.map((k) => oldKeys.indexOf(k)), common);

  // Deleted blocks are shown where they were: after the block that preceded them on the old side.
  const deletedAfter = new Map<string | null, FlowBlock[]>();
  let previous: string | null = null;
  oldBlocks.forEach((block, i) => {
    const key = oldKeys[i]!;
    if (newKeySet.has(key)) {
      previous = key;
      return;
    }
    const list = deletedAfter.get(previous) ?? [];
    list.push(block);
    deletedAfter.set(previous, list);
  });

  const changes: BlockChange[] = [];
  let changed = 0;
  const pushDeleted = (after: string | null) => {
    for (const block of deletedAfter.get(after) ?? []) {
      changes.push({ kind: 'deleted', key: keyOf(block, oldBlocks.indexOf(block)), block });
      changed++;
    }
    deletedAfter.delete(after);
  };
  pushDeleted(null);
  newBlocks.forEach((block, i) => {
    const key = newKeys[i]!;
    const old = oldByKey.get(key);
    if (!old) {
      changes.push({ kind: 'added', key, block });
      changed++;
    } else {
      const moved = !stayed.has(key);
      const change = compareBlocks(key, old, block, moved);
      if (change.kind === 'edited' || moved) changed++;
      changes.push(change);
    }
    pushDeleted(key);
  });
  // Deleted blocks whose old predecessor is itself in a new place are listed at the end rather than lost.
  for (const key of [...deletedAfter.keys()]) pushDeleted(key);
  return { changes, changed };
}

function isBlock(node: unknown): node is FlowBlock {
  return !!node && typeof node === 'object' && typeof (node as { type?: unknown }).type === 'string';
}

function compareBlocks(key: string, before: FlowBlock, after: FlowBlock, moved: boolean): BlockChange {
  if (JSON.stringify(before) === JSON.stringify(after)) return { kind: 'same', key, block: after, moved };
  const oldText = blockText(before);
  const newText = blockText(after);
  const text = oldText === newText ? null : diffText(oldText, newText);
  return { kind: 'edited', key, before, after, moved, text, attributes: attributeChanges(before, after) };
}

/** Word by word, spaces kept, so that the parts joined give back either side's text. */
export function diffText(before: string, after: string): TextPart[] {
  return diffWordsWithSpace(before, after).map((part) => ({ op: part.added ? 'insert' : part.removed ? 'delete' : 'equal', text: part.value }));
}

const TYPE_NAMES: Record<string, string> = {
  paragraph: 'paragraph',
  'heading-1': 'heading 1',
  'heading-2': 'heading 2',
  'heading-3': 'heading 3',
  'list-ordered': 'numbered list',
  'list-unordered': 'bulleted list',
  'list-tasks': 'task list',
  blockquote: 'quote',
  hint: 'hint',
  code: 'code block',
  tabs: 'tabs',
  expandable: 'expandable',
  table: 'table',
  images: 'image',
};

export const blockName = (block: FlowBlock): string => TYPE_NAMES[block.type] ?? block.type.replace(/-/g, ' ');

const shown = (value: unknown): string => (value === undefined || value === null || value === '' ? 'none' : typeof value === 'string' ? `“${value}”` : JSON.stringify(value));

/** What changed about a block other than its text, in words: its kind, a hint's style, a code block's language, a tab's title. */
export function attributeChanges(before: FlowBlock, after: FlowBlock): string[] {
  const out: string[] = [];
  if (before.type !== after.type) out.push(`Changed from ${blockName(before)} to ${blockName(after)}`);
  const oldData = (before.data ?? {}) as Record<string, unknown>;
  const newData = (after.data ?? {}) as Record<string, unknown>;
  for (const name of [...new Set([...Object.keys(oldData), ...Object.keys(newData)])].sort()) {
    if (JSON.stringify(oldData[name]) === JSON.stringify(newData[name])) continue;
    out.push(attributeSentence(after, name, oldData[name], newData[name]));
  }
  if (before.type === 'tabs' && after.type === 'tabs') out.push(...tabChanges(before, after));
  return out;
}

function attributeSentence(block: FlowBlock, name: string, before: unknown, after: unknown): string {
  const from = shown(before);
  const to = shown(after);
  if (block.type === 'hint' && name === 'style') return `Hint style changed from ${from} to ${to}`;
  if (block.type === 'code' && name === 'syntax') return `Code language changed from ${from} to ${to}`;
  if (block.type === 'code' && name === 'title') return `Code block title changed from ${from} to ${to}`;
  if (block.type === 'code' && name === 'lineNumbers') return after ? 'Line numbers shown' : 'Line numbers hidden';
  if (name === 'align') return `Alignment changed from ${from} to ${to}`;
  if (name === 'start') return `List starts at ${to} instead of ${from}`;
  if (name === 'defaultExpanded') return after ? 'Expanded by default' : 'Collapsed by default';
  return `${blockName(block)[0]!.toUpperCase()}${blockName(block).slice(1)} ${name} changed from ${from} to ${to}`;
}

function tabChanges(before: FlowBlock, after: FlowBlock): string[] {
  type Item = { key?: string; data?: { title?: string } };
  const oldItems = ((before as { nodes?: Item[] }).nodes ?? []);
  const newItems = ((after as { nodes?: Item[] }).nodes ?? []);
  const oldByKey = new Map(oldItems.map((item, i) => [item.key ?? `#${i}`, item]));
  const newKeys = new Set(newItems.map((item, i) => item.key ?? `#${i}`));
  const out: string[] = [];
  newItems.forEach((item, i) => {
    const old = oldByKey.get(item.key ?? `#${i}`);
    const title = item.data?.title ?? '';
    if (!old) out.push(`Tab ${shown(title)} added`);
    else if ((old.data?.title ?? '') !== title) out.push(`Tab ${shown(old.data?.title)} renamed to ${shown(title)}`);
  });
  oldItems.forEach((item, i) => {
    if (!newKeys.has(item.key ?? `#${i}`)) out.push(`Tab ${shown(item.data?.title)} removed`);
  });
  return out;
}

/**
 * The keys (given in new order, with their old positions) of a longest run kept in the same relative order: the
 * blocks that did not move. O(n log n) (patience), so a 300-block page costs nothing noticeable.
 */
function longestIncreasing(positions: number[], keys: string[]): Set<string> {
  const tails: number[] = [];
  const previous = new Array<number>(positions.length).fill(-1);
  for (let i = 0; i < positions.length; i++) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (positions[tails[mid]!]! < positions[i]!) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) previous[i] = tails[lo - 1]!;
    tails[lo] = i;
  }
  const out = new Set<string>();
  for (let i = tails.length > 0 ? tails[tails.length - 1]! : -1; i >= 0; i = previous[i]!) out.add(keys[i]!);
  return out;
}
