import { compareSiblings, type PageRecord } from '../src/features/content/pages.ts';
import { mergePages, type MergeOptions, type MergeResult } from '../src/features/change-requests/merge.ts';
import { sameValue } from '../src/features/change-requests/merge-values.ts';

/** Test scaffolding for the page merge: whole trees in, whole trees out. */

export const T0 = '2024-01-01T00:00:00.000Z';
export const T1 = '2024-01-02T00:00:00.000Z';
export const T2 = '2024-01-03T00:00:00.000Z';

export type Tree = readonly PageRecord[];

/** A page with readable defaults: its slug is its id in lower case, at the top level. */
export function page(id: string, fields: Partial<PageRecord> = {}): PageRecord {
  return { id, parentId: null, position: 'a0', kind: 'document', title: id, slug: id.toLowerCase(), documentId: null, attributes: {}, createdAt: T0, updatedAt: T0, ...fields };
}

/** The tree with one page changed (and its `updatedAt` moved on). */
export function edit(tree: Tree, id: string, fields: Partial<PageRecord>, at = T1): PageRecord[] {
  if (!tree.some((p) => p.id === id)) throw new Error(`no page ${id}`);
  return tree.map((p) => (p.id === id ? { ...p, updatedAt: at, ...fields } : p));
}

/** The tree without a page and everything inside it, as deleting a page does. */
export function removeTree(tree: Tree, id: string): PageRecord[] {
  const gone = new Set([id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of tree) {
      if (p.parentId && gone.has(p.parentId) && !gone.has(p.id)) {
        gone.add(p.id);
        grew = true;
      }
    }
  }
  return tree.filter((p) => !gone.has(p.id));
}

/** The tree without exactly these pages (what is inside them stays). */
export function removeOnly(tree: Tree, ...ids: string[]): PageRecord[] {
  return tree.filter((p) => !ids.includes(p.id));
}

/** Which pages changed from one tree to the other, as the store reports them: new versions, null when deleted. */
export function changesBetween(from: Tree, to: Tree): Map<string, PageRecord | null> {
  const before = new Map(from.map((p) => [p.id, p]));
  const after = new Map(to.map((p) => [p.id, p]));
  const changes = new Map<string, PageRecord | null>();
  for (const id of new Set([...before.keys(), ...after.keys()])) {
    const next = after.get(id) ?? null;
    if (!sameValue(before.get(id) ?? null, next)) changes.set(id, next);
  }
  return changes;
}

export interface Scenario {
  base: Tree;
  ours: Tree;
  theirs: Tree;
  /** Markdown of each document id. */
  documents?: Record<string, string>;
  options?: MergeOptions;
}

export interface ScenarioResult extends MergeResult {
  /** Ours with the result written (ours unchanged when there are conflicts), sorted by id. */
  final: PageRecord[];
  /** The markdown of a page of `final`. */
  textOf(id: string): string | undefined;
  /** Titles of the children of a page of `final`, in order. */
  childrenTitles(parentId: string | null): string[];
  /** How many times the merge asked for documents. */
  documentReads: number;
}

/** Merges theirs into ours the way a service would: passing only what changed, and lookups of ours. */
export function merge3(scenario: Scenario): ScenarioResult {
  const { base, ours, theirs, documents = {} } = scenario;
  const oursChanges = changesBetween(base, ours);
  const theirsChanges = changesBetween(base, theirs);
  const byId = (tree: Tree) => new Map(tree.map((p) => [p.id, p]));
  const [baseById, oursById, theirsById] = [byId(base), byId(ours), byId(theirs)];
  const baseOfChanged = new Map<string, PageRecord>();
  for (const id of [...oursChanges.keys(), ...theirsChanges.keys()]) {
    const version = baseById.get(id);
    if (version) baseOfChanged.set(id, version);
  }
  const textOfDocument = (documentId: string | null | undefined) => (documentId ? documents[documentId] : undefined);
  let documentReads = 0;
  const result = mergePages(
    {
      base: baseOfChanged,
      ours: oursChanges,
      theirs: theirsChanges,
      lookup: (id) => oursById.get(id),
      childrenOf: (parentId) => ours.filter((p) => p.parentId === parentId),
    },
    (id) => {
      documentReads++;
      return {
        base: textOfDocument(baseById.get(id)?.documentId),
        ours: textOfDocument(oursById.get(id)?.documentId),
        theirs: textOfDocument(theirsById.get(id)?.documentId),
      };
    },
    scenario.options,
  );
  const written = new Map(oursById);
  for (const [id, version] of result.pages) {
    if (version) written.set(id, version);
    else written.delete(id);
  }
  const final = [...written.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  return {
    ...result,
    final,
    documentReads,
    textOf: (id) => result.mergedMarkdown.get(id) ?? textOfDocument(written.get(id)?.documentId),
    childrenTitles: (parentId) =>
      final
        .filter((p) => p.parentId === parentId)
        .sort(compareSiblings)
        .map((p) => p.title),
  };
}

export function sortById(tree: Tree): PageRecord[] {
  return [...tree].sort((a, b) => (a.id < b.id ? -1 : 1));
}
