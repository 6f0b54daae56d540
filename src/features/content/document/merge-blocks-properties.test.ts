import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { mergeDocumentBlocks, type MergeableBlock, type MergeableDocument } from './merge-blocks.ts';

/*
 * The block merge of editor saves, on random documents edited the way an editor edits them (split, join,
 * insert, delete, move, edit text, duplicate, move a list item), by clients that keep keys unique and by old
 * ones that copied a block's key to the new half of a split or to a duplicate; the base may hold such copies
 * too, as documents stored before keys were checked do. Whatever the sides hold, what either side wrote is in
 * the merged document or in a conflict naming the block: never dropped.
 */

interface Para { key: string; text: string }
interface Item { key: string; para: Para }
type Block = { type: 'p'; para: Para } | { type: 'list'; key: string; items: Item[] };

type Edit =
  | { op: 'split'; at: number; cut: number; sameKey: boolean }
  | { op: 'join'; at: number }
  | { op: 'insert'; at: number }
  | { op: 'delete'; at: number }
  | { op: 'move'; at: number; to: number }
  | { op: 'edit'; at: number }
  | { op: 'duplicate'; at: number; sameKey: boolean }
  | { op: 'moveItem'; at: number; to: number };

/** Old clients' slips (a key copied to a new block) are rarer than the edits around them. */
const slip = fc.boolean().chain((b) => (b ? fc.boolean() : fc.constant(false)));
const anEdit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ op: fc.constant('split' as const), at: fc.nat(), cut: fc.nat(), sameKey: slip }),
  fc.record({ op: fc.constant('join' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('insert' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('move' as const), at: fc.nat(), to: fc.nat() }),
  fc.record({ op: fc.constant('edit' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('duplicate' as const), at: fc.nat(), sameKey: slip }),
  fc.record({ op: fc.constant('moveItem' as const), at: fc.nat(), to: fc.nat() }),
);
const script = fc.array(anEdit, { maxLength: 8 });
const shape = fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3 })), { minLength: 1, maxLength: 6 });

/** Fresh keys and words, unique across the whole case: every text an edit writes is one nothing else holds. */
class Names {
  private n = 0;
  constructor(private readonly side: string) {}
  key(): string {
    return `${this.side}k${this.n++}`;
  }
  words(count: number): string {
    return Array.from({ length: count }, () => `${this.side}w${this.n++}`).join(' ');
  }
}

function initial(lists: readonly number[], names: Names): Block[] {
  return lists.map((items) =>
    items === 0
      ? { type: 'p', para: { key: names.key(), text: names.words(3) } }
      : { type: 'list', key: names.key(), items: Array.from({ length: items }, () => ({ key: names.key(), para: { key: names.key(), text: names.words(2) } })) },
  );
}

const copy = (blocks: readonly Block[]): Block[] => structuredClone(blocks) as Block[];

function rekeyed(block: Block, names: Names): Block {
  if (block.type === 'p') return { type: 'p', para: { key: names.key(), text: block.para.text } };
  return { type: 'list', key: names.key(), items: block.items.map((item) => ({ key: names.key(), para: { key: names.key(), text: item.para.text } })) };
}

/** Every paragraph, top-level or in a list item, with a way to put a new one after it. */
function paragraphs(blocks: Block[]): { para: Para; after(block: Para, sameKey: boolean, names: Names): void }[] {
  const out: { para: Para; after(block: Para, sameKey: boolean, names: Names): void }[] = [];
  blocks.forEach((block) => {
    if (block.type === 'p') {
      out.push({ para: block.para, after: (para) => blocks.splice(blocks.indexOf(block) + 1, 0, { type: 'p', para }) });
      return;
    }
    for (const item of block.items) {
      out.push({
        para: item.para,
        after: (para, sameKey, names) => block.items.splice(block.items.indexOf(item) + 1, 0, { key: sameKey ? item.key : names.key(), para }),
      });
    }
  });
  return out;
}

function applyEdits(base: readonly Block[], edits: readonly Edit[], names: Names): Block[] {
  const blocks = copy(base);
  for (const edit of edits) {
    const pick = <T>(list: readonly T[], i: number): T | undefined => list[i % Math.max(list.length, 1)];
    switch (edit.op) {
      case 'split': {
        const target = pick(paragraphs(blocks), edit.at);
        const words = target?.para.text.split(' ') ?? [];
        if (!target || words.length < 2) break;
        const cut = 1 + (edit.cut % (words.length - 1));
        target.para.text = words.slice(0, cut).join(' ');
        target.after({ key: edit.sameKey ? target.para.key : names.key(), text: words.slice(cut).join(' ') }, edit.sameKey, names);
        break;
      }
      case 'join': {
        const i = edit.at % Math.max(blocks.length, 1);
        const [first, second] = [blocks[i], blocks[i + 1]];
        if (first?.type !== 'p' || second?.type !== 'p') break;
        first.para.text = `${first.para.text} ${second.para.text}`;
        blocks.splice(i + 1, 1);
        break;
      }
      case 'insert':
        blocks.splice(edit.at % (blocks.length + 1), 0, { type: 'p', para: { key: names.key(), text: names.words(2) } });
        break;
      case 'delete':
        if (blocks.length > 0) blocks.splice(edit.at % blocks.length, 1);
        break;
      case 'move': {
        if (blocks.length === 0) break;
        const [moved] = blocks.splice(edit.at % blocks.length, 1);
        blocks.splice(edit.to % (blocks.length + 1), 0, moved!);
        break;
      }
      case 'edit': {
        const target = pick(paragraphs(blocks), edit.at);
        if (target) target.para.text = `${target.para.text} ${names.words(1)}`;
        break;
      }
      case 'duplicate': {
        const i = edit.at % Math.max(blocks.length, 1);
        const block = blocks[i];
        if (block) blocks.splice(i + 1, 0, edit.sameKey ? copy([block])[0]! : rekeyed(block, names));
        break;
      }
      case 'moveItem': {
        const lists = blocks.filter((b): b is Extract<Block, { type: 'list' }> => b.type === 'list');
        const from = pick(lists, edit.at);
        const to = pick(lists, edit.to);
        if (!from || !to || from.items.length < 2) break;
        const [item] = from.items.splice(edit.at % from.items.length, 1);
        to.items.splice(edit.to % (to.items.length + 1), 0, item!);
        break;
      }
    }
  }
  return blocks;
}

const paragraphJson = (para: Para): MergeableBlock => ({
  object: 'block',
  type: 'paragraph',
  key: para.key,
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: para.text, marks: [] }] }],
});

function documentOf(blocks: readonly Block[]): MergeableDocument {
  return {
    object: 'document',
    data: {},
    nodes: blocks.map((block) =>
      block.type === 'p'
        ? paragraphJson(block.para)
        : { object: 'block', type: 'list-unordered', key: block.key, nodes: block.items.map((item) => ({ object: 'block', type: 'list-item', key: item.key, nodes: [paragraphJson(item.para)] })) },
    ),
  };
}

/** The paragraphs in some JSON (a document, a block, a list of conflicts), as `key:text`. */
function paragraphsOf(value: unknown): string[] {
  const out: string[] = [];
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(walk);
    const n = node as { type?: string; key?: string; nodes?: { leaves?: { text: string }[] }[] };
    if (n.type === 'paragraph') out.push(`${n.key}:${(n.nodes ?? []).flatMap((t) => t.leaves ?? []).map((l) => l.text).join('')}`);
    else Object.values(node).forEach(walk);
  };
  walk(value);
  return out;
}

const textOf = (paragraph: string) => paragraph.slice(paragraph.indexOf(':') + 1);

function counts(list: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const item of list) out.set(item, (out.get(item) ?? 0) + 1);
  return out;
}

/** Keys held by more than one node, at any depth. */
function repeatedKeys(document: MergeableDocument): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  const walk = (nodes: unknown[] | undefined) => {
    for (const node of nodes ?? []) {
      const n = node as { key?: string; nodes?: unknown[] };
      if (typeof n.key === 'string') {
        if (seen.has(n.key)) repeated.add(n.key);
        seen.add(n.key);
      }
      walk(n.nodes);
    }
  };
  walk(document.nodes);
  return [...repeated];
}

const aCase = fc.record({ shape, history: script, ours: script, theirs: script });

describe('block merge: properties over random edits of one base', () => {
  test('every text either side wrote, and every text both kept, is merged or in a conflict naming its block', () => {
    fc.assert(
      fc.property(aCase, ({ shape: lists, history, ours: ourEdits, theirs: theirEdits }) => {
        const start = initial(lists, new Names('b'));
        // The base may come from old clients: `history` is edited with their slips too.
        const baseBlocks = applyEdits(start, history, new Names('h'));
        const [base, ours, theirs] = [baseBlocks, applyEdits(baseBlocks, ourEdits, new Names('o')), applyEdits(baseBlocks, theirEdits, new Names('t'))].map(documentOf) as [
          MergeableDocument, MergeableDocument, MergeableDocument,
        ];
        const merged = mergeDocumentBlocks(base, ours, theirs);
        const [was, mine, other] = [paragraphsOf(base), paragraphsOf(ours), paragraphsOf(theirs)];
        const result = paragraphsOf(merged.document);
        const named = new Set(merged.conflict ? paragraphsOf(merged.conflicts.map((c) => [c.ours, c.theirs])).map(textOf) : []);
        const story = () => JSON.stringify({ base: was, ours: mine, theirs: other, merged: result });
        // What a side wrote: a text the base does not hold (every edit writes words of its own).
        const written = new Set(was.map(textOf));
        const found = new Set(result.map(textOf));
        for (const text of [...mine, ...other].map(textOf)) if (!written.has(text)) assert.ok(found.has(text) || named.has(text), `"${text}" is lost: ${story()}`);
        // What both kept: a paragraph (key and text) as many times as the side that kept fewest of it.
        const [inBase, inOurs, inTheirs, inResult] = [counts(was), counts(mine), counts(other), counts(result)];
        for (const [paragraph, n] of inBase) {
          const kept = Math.min(n, inOurs.get(paragraph) ?? 0, inTheirs.get(paragraph) ?? 0);
          if (kept > 0 && !named.has(textOf(paragraph))) assert.ok((inResult.get(paragraph) ?? 0) >= kept, `"${paragraph}" is lost: ${story()}`);
        }
        if (merged.conflict) for (const c of merged.conflicts) assert.ok(typeof c.key === 'string' && c.key !== '');
      }),
      { numRuns: 1000 },
    );
  });

  test('sides whose keys are unique merge into a document whose keys are unique, or into a conflict', () => {
    fc.assert(
      fc.property(aCase, ({ shape: lists, ours: ourEdits, theirs: theirEdits }) => {
        const unique = (edits: Edit[]) => edits.map((e) => ('sameKey' in e ? { ...e, sameKey: false } : e));
        const baseBlocks = initial(lists, new Names('b'));
        const merged = mergeDocumentBlocks(documentOf(baseBlocks), documentOf(applyEdits(baseBlocks, unique(ourEdits), new Names('o'))), documentOf(applyEdits(baseBlocks, unique(theirEdits), new Names('t'))));
        if (!merged.conflict) assert.deepEqual(repeatedKeys(merged.document), []);
      }),
      { numRuns: 1000 },
    );
  });
});
