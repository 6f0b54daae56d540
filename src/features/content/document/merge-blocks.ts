/*
 * Three-way merge of a page's document block by block, for saves from an editor: a person edits a document read
 * at some revision (the base) while someone else saved the page meanwhile (theirs); what the person sends is
 * ours. Top-level blocks are matched by their `key`, which the editor keeps, so the merged document keeps every
 * block's key and bytes: unlike the markdown merge of change requests, nothing is converted.
 *
 * A block changed on one side only takes that side's version; changed on both to different versions (or
 * edited on one side and deleted on the other) it is a conflict, named by its key. The order of blocks is
 * merged as a sequence of keys: blocks both sides inserted at the same place are kept, theirs first.
 *
 * A key names one node, but documents of old clients (which copied a block's key to the new half of a split)
 * and documents stored before keys were checked may hold one key on several top-level blocks. Which of them is
 * which cannot be told, so the blocks of such a key are merged as one: taken from the one side that changed
 * any of them, a conflict naming the key when both did. And two sides that each moved one node to a different
 * place would merge into a document holding it twice: that is a conflict on the block it was moved into last.
 */

/** A top-level block as the merge sees it: any JSON object, told apart by its `key`. */
export interface MergeableBlock {
  key?: string;
  [field: string]: unknown;
}

export interface MergeableDocument {
  nodes: MergeableBlock[];
  [field: string]: unknown;
}

export interface BlockConflict {
  /** The block's key (or, for a block without one, a name derived from its content). */
  key: string;
  /** `edited`: both sides changed it differently; `deleted`: one side deleted it, the other changed it; `added`: both added it differently. */
  kind: 'edited' | 'deleted' | 'added';
  /** Each side's version; null where the block is absent. */
  base: MergeableBlock | null;
  ours: MergeableBlock | null;
  theirs: MergeableBlock | null;
}

export type BlockMerge =
  | { conflict: false; document: MergeableDocument }
  /** `document` holds every merged block, with ours' version (or theirs', where ours deleted it) of each conflicting one. */
  | { conflict: true; document: MergeableDocument; conflicts: BlockConflict[] };

export function mergeDocumentBlocks(base: MergeableDocument | null, ours: MergeableDocument | null, theirs: MergeableDocument | null): BlockMerge {
  const empty: MergeableDocument = { object: 'document', data: {}, nodes: [] };
  const [b, o, t] = [base ?? empty, ours ?? empty, theirs ?? empty];
  if (sameJson(o, t) || sameJson(t, b)) return { conflict: false, document: o };
  if (sameJson(o, b)) return { conflict: false, document: t };

  const [baseKeys, ourKeys, theirKeys] = [keyed(b.nodes), keyed(o.nodes), keyed(t.nodes)];
  const shared = sharedKeyRule(b.nodes, o.nodes, t.nodes);
  const chosen = new Map<string, MergeableBlock | null>();
  const conflicts: BlockConflict[] = [];
  for (const key of new Set([...baseKeys.keys(), ...ourKeys.keys(), ...theirKeys.keys()])) {
    const was = baseKeys.get(key) ?? null;
    const mine = ourKeys.get(key) ?? null;
    const other = theirKeys.get(key) ?? null;
    const name = nameOf((mine ?? other ?? was)!);
    const rule = shared.get(name);
    if (rule === 'ours' || (!rule && (sameJson(mine, other) || sameJson(other, was)))) chosen.set(key, mine);
    else if (rule === 'theirs' || (!rule && sameJson(mine, was))) chosen.set(key, other);
    else {
      // Of a shared key's blocks in conflict, each one the sides hold differently is named, so none is lost.
      if (!sameJson(mine, other)) {
        conflicts.push({ key: name, kind: was === null ? 'added' : mine === null || other === null ? 'deleted' : 'edited', base: was, ours: mine, theirs: other });
      }
      chosen.set(key, mine ?? other);
    }
  }

  const nodes: MergeableBlock[] = [];
  const names: string[] = [];
  const placed = new Set<string>();
  for (const key of mergeOrder([...baseKeys.keys()], [...ourKeys.keys()], [...theirKeys.keys()])) {
    const block = chosen.get(key);
    if (!block || placed.has(key)) continue;
    placed.add(key);
    nodes.push(block);
    names.push(key);
  }
  const named = new Set(conflicts.map((c) => c.key));
  for (const at of twiceHeld(nodes, [o.nodes, t.nodes])) {
    const key = names[at]!;
    const block = nodes[at]!;
    if (named.has(nameOf(block))) continue;
    named.add(nameOf(block));
    conflicts.push({ key: nameOf(block), kind: 'edited', base: baseKeys.get(key) ?? null, ours: ourKeys.get(key) ?? null, theirs: theirKeys.get(key) ?? null });
  }
  // The document's own fields (data) follow the same rule as a block; ours wins a conflict there, it is not content.
  const fields = sameJson({ ...o, nodes: [] }, { ...b, nodes: [] }) ? { ...t } : { ...o };
  const document = { ...fields, nodes };
  return conflicts.length > 0 ? { conflict: true, document, conflicts } : { conflict: false, document };
}

/** A block's key; for a block without one, a name derived from its content. */
const nameOf = (node: MergeableBlock): string => (typeof node.key === 'string' && node.key !== '' ? node.key : `~${JSON.stringify(node)}`);

/**
 * Blocks by key, in order. A block without a key is named by its content (and its rank among equal ones), so an
 * unchanged one still matches and a changed one reads as deleted and added. A key held again is named by its rank
 * too, so that every block has a name of its own; sharedKeyRule then decides for all of them at once.
 */
function keyed(nodes: readonly MergeableBlock[]): Map<string, MergeableBlock> {
  const out = new Map<string, MergeableBlock>();
  for (const node of nodes) {
    let key = nameOf(node);
    for (let n = 2; out.has(key); n++) key = `${key}#${n}`;
    out.set(key, node);
  }
  return out;
}

/**
 * For each key held by more than one top-level block on some side: which side's blocks of that key the merge
 * takes, or 'conflict'. Blocks without a key are left out: equal content is all that names them, so telling
 * two of them apart loses nothing.
 */
function sharedKeyRule(base: readonly MergeableBlock[], ours: readonly MergeableBlock[], theirs: readonly MergeableBlock[]): Map<string, 'ours' | 'theirs' | 'conflict'> {
  const repeated = new Set<string>();
  for (const side of [base, ours, theirs]) {
    const seen = new Set<string>();
    for (const node of side) {
      if (typeof node.key !== 'string' || node.key === '') continue;
      if (seen.has(node.key)) repeated.add(node.key);
      seen.add(node.key);
    }
  }
  const rules = new Map<string, 'ours' | 'theirs' | 'conflict'>();
  for (const key of repeated) {
    const [was, mine, other] = [base, ours, theirs].map((side) => side.filter((node) => node.key === key));
    rules.set(key, sameJson(mine, was) ? 'theirs' : sameJson(other, was) || sameJson(mine, other) ? 'ours' : 'conflict');
  }
  return rules;
}

/**
 * The positions of merged blocks that hold a key (their own or a nested node's) an earlier merged block holds,
 * where no side held that key twice: the merge made the copy, from a node each side moved somewhere else.
 */
function twiceHeld(nodes: readonly MergeableBlock[], sides: readonly (readonly MergeableBlock[])[]): number[] {
  const repeatedIn = (blocks: readonly MergeableBlock[]) => {
    const seen = new Set<string>();
    const repeated = new Set<string>();
    blocks.forEach((block) => forEachKey(block, (key) => (seen.has(key) ? repeated.add(key) : seen.add(key))));
    return repeated;
  };
  const already = new Set(sides.flatMap((side) => [...repeatedIn(side)]));
  const held = new Set<string>();
  const out = new Set<number>();
  nodes.forEach((block, at) =>
    forEachKey(block, (key) => {
      if (!held.has(key)) held.add(key);
      else if (!already.has(key)) out.add(at);
    }),
  );
  return [...out];
}

/** Calls `visit` with the key of a block and of every node inside it (through `nodes` and `fragments`). */
function forEachKey(block: MergeableBlock, visit: (key: string) => void): void {
  const stack: unknown[] = [block];
  while (stack.length > 0) {
    const node = stack.pop() as { key?: unknown; nodes?: unknown; fragments?: unknown } | null;
    if (!node || typeof node !== 'object') continue;
    if (typeof node.key === 'string' && node.key !== '') visit(node.key);
    for (const children of [node.nodes, node.fragments]) if (Array.isArray(children)) for (const child of children) stack.push(child);
  }
}

/**
 * The merged order of keys. Walks the base: each base key is a stable anchor where both sides kept it; what a
 * side inserted before an anchor comes before it, theirs first. A block moved by one side only is placed where
 * that side put it (it is then absent from the unmoved side's run at its old place, since `placed` skips it).
 */
function mergeOrder(base: readonly string[], ours: readonly string[], theirs: readonly string[]): string[] {
  // Sets and maps throughout: a 300-block page is merged on every save, so nothing here may be quadratic.
  const [inOurs, inTheirs, inBase] = [new Set(ours), new Set(theirs), new Set(base)];
  const inBoth = new Set(base.filter((k) => inOurs.has(k) && inTheirs.has(k)));
  const runs = (side: readonly string[]) => {
    const before = new Map<string, string[]>();
    let run: string[] = [];
    for (const key of side) {
      if (inBoth.has(key)) {
        before.set(key, run);
        run = [];
      } else run.push(key);
    }
    return { before, tail: run };
  };
  const o = runs(ours);
  const t = runs(theirs);
  const moved = movedBlocks(base, ours, inBase, inOurs);
  const out: string[] = [];
  for (const key of base) {
    if (!inBoth.has(key)) continue;
    out.push(...(t.before.get(key) ?? []), ...(o.before.get(key) ?? []));
    if (!moved.has(key)) out.push(key);
  }
  out.push(...t.tail, ...o.tail);
  if (moved.size === 0) return out;
  // A block ours moved is placed by ours' order: before the next block that follows it in ours.
  const oursAt = new Map(ours.map((k, i) => [k, i]));
  for (const key of base.filter((k) => inBoth.has(k) && moved.has(k))) {
    const placed = new Set(out);
    const next = ours.slice(oursAt.get(key)! + 1).find((k) => placed.has(k));
    out.splice(next === undefined ? out.length : out.indexOf(next), 0, key);
  }
  return out;
}

/** The blocks ours put after a different kept neighbour than the base had (a move, not a neighbour's edit). */
function movedBlocks(base: readonly string[], ours: readonly string[], inBase: ReadonlySet<string>, inOurs: ReadonlySet<string>): Set<string> {
  const previous = (list: readonly string[], keep: ReadonlySet<string>) => {
    const out = new Map<string, string | undefined>();
    let last: string | undefined;
    for (const key of list) {
      if (!keep.has(key)) continue;
      out.set(key, last);
      last = key;
    }
    return out;
  };
  const inBoth = new Set(base.filter((k) => inOurs.has(k)));
  const [before, after] = [previous(base, inBoth), previous(ours, inBase)];
  const moved = new Set<string>();
  for (const [key, was] of before) if (after.has(key) && after.get(key) !== was) moved.add(key);
  return moved;
}

/** Equality of JSON values whatever the order of object keys. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((item, i) => sameJson(item, (b as unknown[])[i]));
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of keys) if (!sameJson(left[key], right[key])) return false;
  return true;
}
