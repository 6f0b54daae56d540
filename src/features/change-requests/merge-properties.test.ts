import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { PageRecord } from '../content/pages.ts';
import type { MergeConflict } from './merge.ts';
import { changesBetween, edit, merge3, page, removeTree, sortById, type Tree } from '../../../test/merge-scenarios.ts';

/** Documents that edit different paragraphs of `d0`, or the same one, so text merges both succeed and conflict. */
const documents: Record<string, string> = {
  d0: '# Title\n\nOne.\n\nTwo.\n\nThree.\n',
  d1: '# Title\n\nOne, edited.\n\nTwo.\n\nThree.\n',
  d2: '# Title\n\nOne.\n\nTwo.\n\nThree, edited.\n',
  d3: '# Title\n\nOne, rewritten.\n\nTwo.\n\nThree.\n',
};
const DOCUMENT_IDS = [null, 'd0', 'd1', 'd2', 'd3'];
const POSITIONS = ['a0', 'a1', 'a2', 'a3'];
const SLUGS = ['x', 'y', 'z'];

/** A valid tree: every parent exists and comes first, slugs are unique (they are the ids). */
const baseTree: fc.Arbitrary<PageRecord[]> = fc
  .array(fc.record({ parent: fc.option(fc.nat(), { nil: null }), position: fc.constantFrom(...POSITIONS), documentId: fc.constantFrom(...DOCUMENT_IDS) }), {
    minLength: 1,
    maxLength: 7,
  })
  .map((specs) =>
    specs.map((spec, i) =>
      page(`p${i}`, { parentId: spec.parent === null || i === 0 ? null : `p${spec.parent % i}`, position: spec.position, documentId: spec.documentId }),
    ),
  );

type Edit =
  | { type: 'title'; target: number; title: string }
  | { type: 'slug'; target: number; slug: string }
  | { type: 'move'; target: number; parent: number | null; position: string }
  | { type: 'delete'; target: number }
  | { type: 'add'; parent: number | null; slug: string; position: string }
  | { type: 'document'; target: number; documentId: string | null }
  | { type: 'emoji'; target: number; emoji: string | undefined };

const anEdit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ type: fc.constant('title' as const), target: fc.nat(), title: fc.constantFrom('T1', 'T2') }),
  fc.record({ type: fc.constant('slug' as const), target: fc.nat(), slug: fc.constantFrom(...SLUGS) }),
  fc.record({ type: fc.constant('move' as const), target: fc.nat(), parent: fc.option(fc.nat(), { nil: null }), position: fc.constantFrom(...POSITIONS) }),
  fc.record({ type: fc.constant('delete' as const), target: fc.nat() }),
  fc.record({ type: fc.constant('add' as const), parent: fc.option(fc.nat(), { nil: null }), slug: fc.constantFrom(...SLUGS), position: fc.constantFrom(...POSITIONS) }),
  fc.record({ type: fc.constant('document' as const), target: fc.nat(), documentId: fc.constantFrom(...DOCUMENT_IDS) }),
  fc.record({ type: fc.constant('emoji' as const), target: fc.nat(), emoji: fc.constantFrom(undefined, 'e1', 'e2') }),
);
const editScript = fc.array(anEdit, { maxLength: 6 });

function isInside(tree: Tree, id: string, ancestorId: string): boolean {
  for (let current: string | null = id; current !== null; current = tree.find((p) => p.id === current)?.parentId ?? null) if (current === ancestorId) return true;
  return false;
}

const slugFree = (tree: Tree, parentId: string | null, slug: string, except?: string) => !tree.some((p) => p.parentId === parentId && p.slug === slug && p.id !== except);

/** The tree after a script of edits, each kept valid the way the content service keeps it (or skipped). */
function applyEdits(base: Tree, script: readonly Edit[], side: string): PageRecord[] {
  let tree = [...base];
  script.forEach((step, n) => {
    const pick = (i: number) => tree[i % tree.length]!;
    if (step.type === 'add') {
      const parentId = step.parent === null || tree.length === 0 ? null : pick(step.parent).id;
      if (slugFree(tree, parentId, step.slug)) tree.push(page(`${side}${n}`, { parentId, slug: step.slug, position: step.position }));
      return;
    }
    if (tree.length === 0) return;
    const target = pick(step.target);
    if (step.type === 'title') tree = edit(tree, target.id, { title: step.title });
    if (step.type === 'slug' && slugFree(tree, target.parentId, step.slug, target.id)) tree = edit(tree, target.id, { slug: step.slug });
    if (step.type === 'delete') tree = removeTree(tree, target.id);
    if (step.type === 'document') tree = edit(tree, target.id, { documentId: step.documentId });
    if (step.type === 'emoji') tree = edit(tree, target.id, { attributes: step.emoji === undefined ? {} : { emoji: step.emoji } });
    if (step.type === 'move') {
      const parentId = step.parent === null ? null : pick(step.parent).id;
      if ((parentId === null || !isInside(tree, parentId, target.id)) && slugFree(tree, parentId, target.slug, target.id)) {
        tree = edit(tree, target.id, { parentId, position: step.position });
      }
    }
  });
  return tree;
}

/** Every parent exists, no page is inside itself, siblings have different slugs. */
function assertValidTree(tree: Tree): void {
  const ids = new Set(tree.map((p) => p.id));
  const slugs = new Set<string>();
  for (const p of tree) {
    if (p.parentId !== null) assert.ok(ids.has(p.parentId), `${p.id} has a missing parent`);
    assert.ok(p.parentId === null || !isInside(tree, p.parentId, p.id), `${p.id} is inside itself`);
    const key = `${p.parentId}/${p.slug}`;
    assert.ok(!slugs.has(key), `two pages are ${key}`);
    slugs.add(key);
  }
}

const scenario = fc.record({ base: baseTree, ours: editScript, theirs: editScript });

describe('merge properties', () => {
  test('merging into an unchanged main gives the change request exactly', () => {
    fc.assert(
      fc.property(baseTree, editScript, (base, script) => {
        const theirs = applyEdits(base, script, 't');
        const result = merge3({ base, ours: base, theirs, documents });
        assert.deepEqual(result.conflicts, []);
        assert.deepEqual(result.mergedMarkdown.size, 0);
        assert.deepEqual(result.final, sortById(theirs));
      }),
    );
  });

  test('merging an unchanged change request leaves main exactly as it is', () => {
    fc.assert(
      fc.property(baseTree, editScript, (base, script) => {
        const ours = applyEdits(base, script, 'o');
        const result = merge3({ base, ours, theirs: base, documents });
        assert.deepEqual(result.conflicts, []);
        assert.equal(result.pages.size, 0);
        assert.deepEqual(result.final, sortById(ours));
      }),
    );
  });

  test('merging the same changes made on both sides gives them without conflicts', () => {
    fc.assert(
      fc.property(baseTree, editScript, (base, script) => {
        const both = applyEdits(base, script, 'x');
        const result = merge3({ base, ours: both, theirs: both, documents });
        assert.deepEqual(result.conflicts, []);
        assert.equal(result.pages.size, 0);
        assert.deepEqual(result.final, sortById(both));
      }),
    );
  });

  test('a clean merge of any two edit scripts is a valid tree that keeps each side’s own changes', () => {
    fc.assert(
      fc.property(scenario, ({ base, ours: oursScript, theirs: theirsScript }) => {
        const ours = applyEdits(base, oursScript, 'o');
        const theirs = applyEdits(base, theirsScript, 't');
        const result = merge3({ base, ours, theirs, documents });
        if (result.conflicts.length > 0) {
          assert.equal(result.pages.size, 0);
          return;
        }
        assertValidTree(result.final);
        const final = new Map(result.final.map((p) => [p.id, p]));
        const renamed = new Map(result.renamedSlugs.map((r) => [r.pageId, r.to]));
        const oursChanges = changesBetween(base, ours);
        const theirsChanges = changesBetween(base, theirs);
        for (const [id, version] of theirsChanges) {
          if (oursChanges.has(id)) continue;
          const expected = version && { ...version, slug: renamed.get(id) ?? version.slug };
          assert.deepEqual(final.get(id) ?? null, expected, `the change request's change of ${id} is lost`);
        }
        for (const [id, version] of oursChanges) {
          if (!theirsChanges.has(id)) assert.deepEqual(final.get(id) ?? null, version, `main's change of ${id} is lost`);
        }
      }),
      { numRuns: 300 },
    );
  });

  test('two sides conflict whichever of them is merged into the other', () => {
    fc.assert(
      fc.property(scenario, ({ base, ours: oursScript, theirs: theirsScript }) => {
        const ours = applyEdits(base, oursScript, 'o');
        const theirs = applyEdits(base, theirsScript, 't');
        const forward = merge3({ base, ours, theirs, documents });
        const backward = merge3({ base, ours: theirs, theirs: ours, documents });
        const involved = (conflicts: MergeConflict[]) => [...new Set(conflicts.flatMap((c) => c.pageIds ?? [c.pageId]))].sort();
        assert.deepEqual(involved(forward.conflicts), involved(backward.conflicts));
      }),
      { numRuns: 300 },
    );
  });
});
