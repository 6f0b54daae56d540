import type { Mark, Node as PMNode } from '@tiptap/pm/model';
import { Plugin, type EditorState, type Transaction } from '@tiptap/pm/state';
import { Mapping, type Mappable } from '@tiptap/pm/transform';

/*
 * A key is one node's (src/features/content/document/keys.ts), but ProseMirror copies a node's attributes
 * whole: to both halves of a split (Enter in the middle of a paragraph, at the start of a list item), to a
 * node dragged with the copy modifier, to a block duplicated. `keepOnSplit: false` covers only the split at a
 * block's end. So after every change the keys the editor holds are checked, and a key held a second time is
 * given a new one: the holder that stayed as it was keeps it (the original of a copy dropped above it), else
 * the first by position (the part before the caret).
 *
 * Keys live in a node's JSON attributes (`block`, `fragment`, a code block's `lines`, an inline's `inline`, the
 * empty Texts of `leading` and `trailing`: a table or a card holds its whole JSON), and on text as marks: a
 * Text's key on its `textref` runs, a link's in its `link` mark. A run of text nodes sharing a Text (or a
 * link) holds its key once, as the conversion (editor/inline.ts) reads them back into one node.
 */

type Json = Record<string, unknown>;

/** The keys of a JSON node and of the nodes inside it (through `fragments`, then `nodes`), in document order. */
function jsonKeys(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) {
    for (const item of value) jsonKeys(item, out);
    return out;
  }
  if (!value || typeof value !== 'object') return out;
  const node = value as Json;
  if (typeof node.key === 'string' && node.key !== '') out.push(node.key);
  jsonKeys(node.fragments, out);
  jsonKeys(node.nodes, out);
  return out;
}

/** The JSON with the `nth` key of jsonKeys' order replaced (copied along the way; the rest is shared). */
function withNthKey(value: unknown, nth: number, key: string): unknown {
  let seen = 0;
  const visit = (v: unknown): unknown => {
    if (Array.isArray(v)) {
      let changed = false;
      const out = v.map((item) => {
        const next = visit(item);
        changed ||= next !== item;
        return next;
      });
      return changed ? out : v;
    }
    if (!v || typeof v !== 'object') return v;
    let node = v as Json;
    if (typeof node.key === 'string' && node.key !== '' && seen++ === nth) node = { ...node, key };
    for (const field of ['fragments', 'nodes'] as const) {
      const next = visit(node[field]);
      if (next !== node[field]) node = { ...node, [field]: next };
    }
    return node;
  };
  return visit(value);
}

/** One place a key is held, and how to give it another. */
interface Holder {
  key: string;
  /** The top-level block it is in was not changed by the transaction. */
  untouched: boolean;
  rename(tr: Transaction, key: string): void;
}

const textref = (node: PMNode) => node.marks.find((m) => m.type.name === 'textref');
const link = (node: PMNode) => node.marks.find((m) => m.type.name === 'link');

/** The holders inside a top-level block at `at`, in document order. */
function holdersOf(top: PMNode, at: number, untouched: boolean): Holder[] {
  const out: Holder[] = [];
  const inAttrs = (node: PMNode, pos: number) => {
    for (const [name, value] of Object.entries(node.attrs)) {
      if (!value || typeof value !== 'object') continue;
      jsonKeys(value).forEach((key, nth) =>
        out.push({ key, untouched, rename: (tr, fresh) => void tr.setNodeAttribute(pos, name, withNthKey(tr.doc.nodeAt(pos)!.attrs[name], nth, fresh)) }),
      );
    }
  };
  const inline = (parent: PMNode, start: number) => {
    let text: { id: unknown; key: string | null; nodes: { pos: number; node: PMNode }[] } | null = null;
    let linked: { mark: Mark; from: number; to: number } | null = null;
    let linkAttrs = '';
    const closeText = () => {
      const run = text;
      text = null;
      if (!run?.key) return;
      out.push({
        key: run.key,
        untouched,
        rename: (tr, fresh) => {
          for (const { pos, node } of run.nodes) {
            const ref = textref(node);
            if (ref?.attrs.key === run.key) tr.addMark(pos, pos + node.nodeSize, ref.type.create({ ...ref.attrs, key: fresh }));
          }
        },
      });
    };
    const closeLink = () => {
      const run = linked;
      linked = null;
      if (!run) return;
      for (const [name, value] of Object.entries(run.mark.attrs)) {
        jsonKeys(value).forEach((key, nth) =>
          out.push({
            key,
            untouched,
            rename: (tr, fresh) => {
              const mark = link(tr.doc.nodeAt(run.from)!)!;
              tr.addMark(run.from, run.to, mark.type.create({ ...mark.attrs, [name]: withNthKey(mark.attrs[name], nth, fresh) }));
            },
          }),
        );
      }
    };
    parent.forEach((child, offset) => {
      const pos = start + offset;
      const mark = link(child);
      const attrs = mark ? JSON.stringify(mark.attrs) : '';
      if (attrs !== linkAttrs) {
        closeText();
        closeLink();
        linkAttrs = attrs;
        if (mark) linked = { mark, from: pos, to: pos };
      }
      if (linked) linked.to = pos + child.nodeSize;
      if (!child.isText) {
        closeText();
        inAttrs(child, pos);
        return;
      }
      const ref = textref(child);
      const id = ref?.attrs.id ?? null;
      if (!text || (id !== null && text.id !== null && id !== text.id)) {
        closeText();
        text = { id, key: typeof ref?.attrs.key === 'string' ? ref.attrs.key : null, nodes: [] };
      } else if (text.id === null) text.id = id;
      text.nodes.push({ pos, node: child });
    });
    closeText();
    closeLink();
  };
  const visit = (node: PMNode, pos: number) => {
    inAttrs(node, pos);
    if (node.isTextblock) inline(node, pos + 1);
    else node.forEach((child, offset) => visit(child, pos + 1 + offset));
  };
  visit(top, at);
  return out;
}

/** Keys of each top-level block, kept while the block is the same node (ProseMirror reuses the ones not changed). */
const keysOfBlock = new WeakMap<PMNode, string[]>();

/** A top-level block's keys (its holders' keys do not depend on where it is: only their renaming does). */
function keysOf(top: PMNode): string[] {
  let keys = keysOfBlock.get(top);
  if (!keys) keysOfBlock.set(top, (keys = holdersOf(top, 0, false).map((h) => h.key)));
  return keys;
}

/** How many holders each key of a document has, and how many keys have more than one. */
interface KeyCount {
  holders: Map<string, number>;
  repeated: number;
}

/*
 * The count of the last document checked, by document. A key typed on a 2,000-block page walked every block's keys
 * (cached per block, but still some 5,000 keys counted a key); the count now follows the blocks a transaction
 * replaced. It moves from the document before to the one after, being changed in place: a document met again
 * without one (a state built aside and dropped, say) is counted whole.
 */
const countOfDoc = new WeakMap<PMNode, KeyCount>();

function count(into: KeyCount, keys: readonly string[], by: 1 | -1): void {
  for (const key of keys) {
    const was = into.holders.get(key) ?? 0;
    const now = was + by;
    if (now === 0) into.holders.delete(key);
    else into.holders.set(key, now);
    if (was <= 1 && now > 1) into.repeated += 1;
    else if (was > 1 && now <= 1) into.repeated -= 1;
  }
}

/** The key count of `doc`, from that of `before` where it is known: only the top-level blocks that differ are read. */
function keyCountOf(doc: PMNode, before: PMNode): KeyCount {
  const known = countOfDoc.get(doc);
  if (known) return known;
  const previous = countOfDoc.get(before);
  let counted: KeyCount;
  if (previous) {
    countOfDoc.delete(before);
    counted = previous;
    // The blocks before the first and after the last that differ are the same nodes (ProseMirror reuses them).
    let start = 0;
    let endBefore = before.childCount;
    let endAfter = doc.childCount;
    while (start < endBefore && start < endAfter && before.child(start) === doc.child(start)) start += 1;
    while (endBefore > start && endAfter > start && before.child(endBefore - 1) === doc.child(endAfter - 1)) {
      endBefore -= 1;
      endAfter -= 1;
    }
    for (let i = start; i < endBefore; i += 1) count(counted, keysOf(before.child(i)), -1);
    for (let i = start; i < endAfter; i += 1) count(counted, keysOf(doc.child(i)), 1);
  } else {
    counted = { holders: new Map(), repeated: 0 };
    doc.forEach((top) => count(counted, keysOf(top), 1));
  }
  countOfDoc.set(doc, counted);
  return counted;
}

/**
 * The transaction that gives a new key (from `newKey`) to every holder of a key held before it in `state`, or
 * null when every key is held once. `before` is the document before the changes and `mapping` maps its positions
 * to `state`'s: a top-level block that is the same node at the position its old one maps to was not changed
 * (ProseMirror reuses the nodes a change does not touch; a copy of a block is the same node elsewhere).
 */
export function uniqueKeysTransaction(before: PMNode, mapping: Mappable, state: EditorState, newKey: () => string): Transaction | null {
  const counted = keyCountOf(state.doc, before);
  if (counted.repeated === 0) return null;
  const held = new Set(counted.holders.keys());

  const unchanged = new Map<PMNode, Set<number>>();
  before.forEach((top, at) => {
    const places = unchanged.get(top) ?? new Set<number>();
    places.add(mapping.map(at, 1));
    unchanged.set(top, places);
  });
  const byKey = new Map<string, Holder[]>();
  state.doc.forEach((top, at) => {
    for (const holder of holdersOf(top, at, unchanged.get(top)?.has(at) === true)) {
      const list = byKey.get(holder.key);
      if (list) list.push(holder);
      else byKey.set(holder.key, [holder]);
    }
  });
  const tr = state.tr;
  for (const holders of byKey.values()) {
    if (holders.length < 2) continue;
    const keeper = holders.find((h) => h.untouched) ?? holders[0]!;
    for (const holder of holders) {
      if (holder === keeper) continue;
      let fresh: string;
      do fresh = newKey();
      while (held.has(fresh));
      held.add(fresh);
      holder.rename(tr, fresh);
    }
  }
  return tr;
}

/** Checks the keys after every change that touched the document (typing included: it costs a walk of the blocks changed). */
export function uniqueKeysPlugin(newKey: () => string): Plugin {
  return new Plugin({
    appendTransaction(transactions, before, state) {
      if (!transactions.some((tr) => tr.docChanged)) return null;
      const mapping = new Mapping();
      for (const tr of transactions) mapping.appendMapping(tr.mapping);
      return uniqueKeysTransaction(before.doc, mapping, state, newKey);
    },
  });
}
