import type { Executor } from '../../db/types.ts';
import { type AppContext, type Caller, authorOf } from '../../platform/context.ts';
import { ApiError, conflict, notFound } from '../../platform/errors.ts';
import { isoNow } from '../../platform/clock.ts';
import { recordEvent } from '../../platform/events.ts';
import { announcePublication } from '../../platform/publications.ts';
import { changeRequestPolicy } from './policy.ts';
import { updateSpace } from '../spaces/queries.ts';
import { findBranch, findRevision, findRevisionAt, lockBranch, type BranchRow, type RevisionRow } from '../content/revisions.ts';
import { commitToBranch, type FileChange } from '../content/commit-revision.ts';
import { documentIdFor, getDocument, putDocument } from '../content/revisions.ts';
import { documentToMarkdownText, parseMarkdownDocument, resolveFixedHrefOrUrl } from '../content/markdown.ts';
import type { PageRecord } from '../content/pages.ts';
import { Snapshot } from '../content/snapshot.ts';
import { fileAt, filesAt, filesChangedSince, pageAt, pagesAt, pagesChangedSince, type FileVersionRow, type Layer } from '../content/revisions.ts';
import { pageFromRow } from '../content/pages.ts';
import { mergeFiles, mergePages, mergeVariables, type DocumentTexts, type MergeConflict } from './merge.ts';
import { findChangeRequest, updateChangeRequest, type ChangeRequestView } from './store.ts';
import { loadChangeRequest } from './service.ts';
import { findOrganization } from '../organizations/queries.ts';
import { currentReviews } from './review-store.ts';
import { effectiveMergeRules, unmetMergeRules, type ReviewStatus } from './merge-requirements.ts';
import { hasDescription } from './description.ts';
import { baseRevisionOf } from './present.ts';

/** A file version as the merge sees it: an id, a name, and the rest as content. */
type MergeFile = { id: string; name: string; content_type: string; size: number; blob_hash: string; width: number | null; height: number | null; created_at: string };

const toMergeFile = (row: FileVersionRow): MergeFile => ({
  id: row.file_id,
  name: row.name,
  content_type: row.content_type,
  size: row.size,
  blob_hash: row.blob_hash,
  width: row.width,
  height: row.height,
  created_at: row.created_at,
});

/** What one side changed since the common ancestor: page and file versions (null: deleted) and variables. */
interface SideChanges {
  pages: Map<string, PageRecord | null>;
  files: Map<string, MergeFile | null>;
  variables: Record<string, string>;
  /** Reads the side's current state, for the pages around the changes. */
  snapshot: Snapshot;
  head: RevisionRow;
}

async function mainChanges(db: Executor, main: BranchRow, baseSeq: number): Promise<SideChanges> {
  const head = (await findRevision(db, main.head_revision_id))!;
  const layer: Layer = { branchId: main.id, seq: main.head_seq, head: true };
  const pages = new Map<string, PageRecord | null>();
  for (const id of await pagesChangedSince(db, main.id, baseSeq)) {
    const row = await pageAt(db, layer, id);
    pages.set(id, row && !row.deleted ? pageFromRow(row) : null);
  }
  const files = new Map<string, MergeFile | null>();
  for (const id of await filesChangedSince(db, main.id, baseSeq)) {
    const row = await fileAt(db, layer, id);
    files.set(id, row && !row.deleted ? toMergeFile(row) : null);
  }
  return { pages, files, variables: JSON.parse(head.variables), snapshot: await Snapshot.of(db, head), head };
}

/** A change request's own versions are exactly what it changed against its base. */
async function changeRequestChangesOf(db: Executor, branch: BranchRow): Promise<SideChanges> {
  const head = (await findRevision(db, branch.head_revision_id))!;
  const layer: Layer = { branchId: branch.id, seq: branch.head_seq, head: true };
  const pages = new Map<string, PageRecord | null>((await pagesAt(db, layer)).map((row) => [row.page_id, row.deleted ? null : pageFromRow(row)]));
  const files = new Map<string, MergeFile | null>((await filesAt(db, layer)).map((row) => [row.file_id, row.deleted ? null : toMergeFile(row)]));
  return { pages, files, variables: JSON.parse(head.variables), snapshot: await Snapshot.of(db, head), head };
}

interface ThreeWayOutcome {
  pages: Map<string, PageRecord | null>;
  /** The documents of pages merged as text, which the pages name and the transaction stores. */
  documents: unknown[];
  files: FileChange[];
  variables: Record<string, string>;
  conflicts: MergeConflictReport[];
}

/** A conflict as the API reports it: what kind of thing (page, file, variable), which conflict, and why. */
export interface MergeConflictReport {
  type: 'page' | 'file' | 'variable';
  kind: string;
  message: string;
  [field: string]: unknown;
}

/**
 * The three-way merge of `theirs` into `ours` against the base revision. Only the changed pages, their parents
 * and their siblings are read; pure rules (merge.ts) decide.
 */
async function threeWay(db: Executor, base: RevisionRow, ours: SideChanges, theirs: SideChanges, labels: { ours: string; theirs: string }, renameSide: 'ours' | 'theirs', now: string): Promise<ThreeWayOutcome> {
  const baseSnapshot = await Snapshot.of(db, base);
  const ids = new Set([...ours.pages.keys(), ...theirs.pages.keys()]);
  const basePages = new Map<string, PageRecord>();
  for (const id of ids) {
    // Reusable contents are page versions too: they merge as pages do.
    const page = await baseSnapshot.entry(id);
    if (page) basePages.set(id, page);
  }

  // The pure merge looks around synchronously: load ours' pages near the changes (ancestors and siblings) first.
  const known = new Map<string, PageRecord | undefined>();
  const children = new Map<string | null, PageRecord[]>();
  const parents = new Set<string | null>();
  for (const id of ids) {
    parents.add(id);
    for (const version of [basePages.get(id), ours.pages.get(id), theirs.pages.get(id)]) if (version) parents.add(version.parentId);
  }
  let frontier = [...parents].filter((p): p is string => p !== null);
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const id of frontier) {
      if (known.has(id)) continue;
      const page = await ours.snapshot.entry(id);
      known.set(id, page);
      if (page?.parentId && !known.has(page.parentId)) next.push(page.parentId);
    }
    frontier = next;
  }
  for (const parent of parents) children.set(parent, await ours.snapshot.children(parent));

  // Documents edited on both sides are merged as markdown text.
  const texts = new Map<string, DocumentTexts>();
  const markdownOf = async (documentId: string | null | undefined) => {
    if (!documentId) return '';
    const document = await getDocument(db, documentId);
    return document ? await documentToMarkdownText(document) : '';
  };
  for (const id of ids) {
    const o = ours.pages.get(id);
    const t = theirs.pages.get(id);
    const b = basePages.get(id);
    if (!o || !t || o.documentId === t.documentId || o.documentId === (b?.documentId ?? null) || t.documentId === (b?.documentId ?? null)) continue;
    texts.set(id, { base: await markdownOf(b?.documentId), ours: await markdownOf(o.documentId), theirs: await markdownOf(t.documentId) });
  }

  const result = mergePages(
    {
      base: basePages,
      ours: ours.pages,
      theirs: theirs.pages,
      lookup: (id) => (known.has(id) ? known.get(id) : ours.pages.get(id) ?? undefined),
      childrenOf: (parentId) => children.get(parentId) ?? [],
    },
    (id) => texts.get(id) ?? {},
    { labels, renameSide },
  );
  const baseFiles = new Map<string, MergeFile>();
  for (const id of new Set([...ours.files.keys(), ...theirs.files.keys()])) {
    const file = await baseSnapshot.file(id);
    if (file) baseFiles.set(id, toMergeFile(file));
  }
  const files = mergeFiles({ base: baseFiles, ours: ours.files, theirs: theirs.files }, labels);
  const variables = mergeVariables(JSON.parse(base.variables), ours.variables, theirs.variables, labels);

  const conflicts = [
    ...result.conflicts.map((c: MergeConflict) => ({ ...c, type: 'page' as const })),
    ...files.conflicts.map((c) => ({ ...c, type: 'file' as const })),
    ...variables.conflicts.map((c) => ({ ...c, type: 'variable' as const })),
  ];
  if (conflicts.length > 0) return { pages: new Map(), documents: [], files: [], variables: ours.variables, conflicts };

  const documents: unknown[] = [];
  for (const [id, markdown] of result.mergedMarkdown) {
    const page = result.pages.get(id);
    if (!page) continue;
    const document = markdown.trim() === '' ? null : await parseMarkdownDocument(markdown, resolveFixedHrefOrUrl);
    if (document) documents.push(document);
    result.pages.set(id, { ...page, documentId: document ? documentIdFor(document) : null, updatedAt: now });
  }
  return {
    pages: result.pages,
    documents,
    files: [...files.files].map(([id, file]) => ({ id, file: file ? { name: file.name, content_type: file.content_type, size: file.size, blob_hash: file.blob_hash, width: file.width, height: file.height, created_at: file.created_at } : null })),
    variables: variables.variables,
    conflicts: [],
  };
}

function assertMergeable(status: string): void {
  if (status === 'merged') throw conflict('The change request is already merged');
  if (status === 'archived') throw conflict('The change request is archived; reopen it (status "open") before merging or updating it');
}

/** The two branches a merge joins, and the sequence on main the change request is based on. */
interface Sides {
  main: BranchRow;
  branch: BranchRow;
  baseSeq: number;
}

/** Which way a three-way merge goes: the change request into main (merge), or main into the change request (update). */
export type Direction = { into: 'main' | 'change-request'; number: number };

interface MergeComputation {
  outcome: ThreeWayOutcome;
  /** The head of the side the merge writes to. */
  oursHead: RevisionRow;
}

/** Locks the space's main branch, then the change request's: always in that order, so two operations never wait on each other. */
async function lockBoth(db: Executor, spaceId: string, changeRequestId: string): Promise<Sides> {
  const main = await lockBranch(db, spaceId);
  const branch = await lockBranch(db, changeRequestId);
  if (!main || !branch || branch.base_seq === null) throw notFound('No content for this change request');
  return { main, branch, baseSeq: branch.base_seq };
}

/** The three-way merge of one side into the other, read through `db`. */
async function mergeSides(db: Executor, { main, branch, baseSeq }: Sides, direction: Direction, now: string): Promise<MergeComputation> {
  const base = await baseRevision(db, main.id, baseSeq);
  const mainSide = await mainChanges(db, main, baseSeq);
  const changeRequestSide = await changeRequestChangesOf(db, branch);
  const label = `change request #${direction.number}`;
  const outcome =
    direction.into === 'main'
      ? await threeWay(db, base, mainSide, changeRequestSide, { ours: 'main', theirs: label }, 'theirs', now)
      : await threeWay(db, base, changeRequestSide, mainSide, { ours: label, theirs: 'main' }, 'ours', now);
  return { outcome, oursHead: direction.into === 'main' ? mainSide.head : changeRequestSide.head };
}

/** A merge computed before the write transaction, from the heads it names. */
interface MergedAhead {
  mainHead: string;
  branchHead: string;
  baseSeq: number;
  computed: MergeComputation;
}

/**
 * Computes the merge before the transaction opens: merging pages as text and converting the result takes seconds
 * on a 1 MB page, and in the transaction it would hold both branch locks (and, on SQLite, the one connection every
 * request shares) all that time. Any write to either side moves its head, so the transaction takes this merge only
 * while both heads are the ones it was computed from (stillValid), and merges again otherwise. Nothing here
 * decides the answer: a failure is left for the transaction to meet again.
 */
export async function mergeAhead(ctx: AppContext, spaceId: string, changeRequestId: string, direction: Direction, now: string): Promise<MergedAhead | undefined> {
  const main = await findBranch(ctx.db, spaceId);
  const branch = await findBranch(ctx.db, changeRequestId);
  if (!main || !branch || branch.base_seq === null) return undefined;
  if (direction.into === 'change-request' && branch.base_seq === main.head_seq) return undefined;
  try {
    const computed = await mergeSides(ctx.db, { main, branch, baseSeq: branch.base_seq }, direction, now);
    return { mainHead: main.head_revision_id, branchHead: branch.head_revision_id, baseSeq: branch.base_seq, computed };
  } catch (error) {
    if (error instanceof ApiError) return undefined;
    throw error;
  }
}

export function stillValid(ahead: MergedAhead | undefined, sides: Sides): MergeComputation | undefined {
  if (!ahead || ahead.mainHead !== sides.main.head_revision_id || ahead.branchHead !== sides.branch.head_revision_id || ahead.baseSeq !== sides.baseSeq) return undefined;
  return ahead.computed;
}

/**
 * The merge rules of the space (or of its organization, which it inherits by default) must all pass: checked
 * before the merge is computed, and again under the branch locks, where reviews and the base cannot move.
 */
async function assertMergeRulesMet(db: Executor, space: { organization_id: string; merge_rules: string }, cr: ChangeRequestView, mergerId: string, outdated: boolean): Promise<void> {
  const organization = await findOrganization(db, space.organization_id);
  const rules = effectiveMergeRules(JSON.parse(space.merge_rules), organization ? JSON.parse(organization.merge_rules) : { type: 'none' });
  if (rules.type !== 'rules') return;
  const reviews = (await currentReviews(db, cr.id)).map((r) => ({ reviewerId: r.reviewer_id, status: r.status as ReviewStatus }));
  const unmet = unmetMergeRules(rules, { mergerId, subject: cr.subject, described: hasDescription(cr.description), outdated, reviews });
  if (unmet.length > 0) throw conflict(`Merging change request #${cr.number} is refused by the merge rules: ${unmet.join('; ')}`);
}

/**
 * mergeChangeRequest: the change request's changes, merged three-way with what main gained since its base, become
 * one `merge` revision of the space. With a conflict, nothing changes and the conflicts are described.
 */
export async function mergeChangeRequest(ctx: AppContext, caller: Caller, spaceId: string, changeRequestId: string) {
  const { space, role, cr } = await loadChangeRequest(ctx, caller, spaceId, changeRequestId);
  changeRequestPolicy.assert({ role, editMode: space.edit_mode }, 'merge', 'Merging a change request');
  assertMergeable(cr.status);
  await assertMergeRulesMet(ctx.db, space, cr, authorOf(caller), baseRevisionOf(cr) !== space.revision_id);
  const now = isoNow(ctx.clock);
  const direction = { into: 'main', number: cr.number } as const;
  const ahead = await mergeAhead(ctx, space.id, cr.id, direction, now);
  const merged = await ctx.db.transaction().execute(async (trx) => {
    const sides = await lockBoth(trx, space.id, cr.id);
    const { main, branch } = sides;
    const current = await findChangeRequest(trx, space.id, cr.id);
    assertMergeable(current!.status);
    await assertMergeRulesMet(trx, space, current!, authorOf(caller), sides.baseSeq !== main.head_seq);
    const { outcome, oursHead } = stillValid(ahead, sides) ?? (await mergeSides(trx, sides, direction, now));
    if (outcome.conflicts.length > 0) return { revision: main.head_revision_id, result: 'conflicts' as const, conflicts: outcome.conflicts };
    for (const document of outcome.documents) await putDocument(trx, document, now);
    const revision = await commitToBranch(ctx, trx, main, oursHead, {
      pages: outcome.pages,
      files: outcome.files,
      variables: outcome.variables,
      type: 'merge',
      createdBy: authorOf(caller),
      extraParents: [branch.head_revision_id],
      mergedFrom: cr.id,
    });
    await updateSpace(trx, space.id, { revision_id: revision.id, updated_at: now });
    await updateChangeRequest(trx, cr.id, { status: 'merged', revision_merged: revision.id, merged_at: now, updated_at: now });
    await recordEvent(trx, ctx.clock, 'change_request_merged', space.organization_id, { spaceId: space.id, changeRequestId: cr.id, revisionId: revision.id });
    return { revision: revision.id, result: 'merge' as const };
  });
  if (merged.result === 'merge') announcePublication(ctx.db, { kind: 'space', organizationId: space.organization_id, spaceId: space.id, revisionId: merged.revision });
  return merged;
}

/**
 * updateChangeRequest: brings main's newer content into the change request by the same three-way merge; the change
 * request is then based on main's current revision (no longer outdated).
 */
export async function updateChangeRequestFromMain(ctx: AppContext, caller: Caller, spaceId: string, changeRequestId: string) {
  const { space, role, cr } = await loadChangeRequest(ctx, caller, spaceId, changeRequestId);
  changeRequestPolicy.assert({ role, editMode: space.edit_mode }, 'update', 'Updating a change request');
  assertMergeable(cr.status);
  const now = isoNow(ctx.clock);
  const direction = { into: 'change-request', number: cr.number } as const;
  const ahead = await mergeAhead(ctx, space.id, cr.id, direction, now);
  return ctx.db.transaction().execute(async (trx) => {
    const sides = await lockBoth(trx, space.id, cr.id);
    const { main, branch, baseSeq } = sides;
    const current = await findChangeRequest(trx, space.id, cr.id);
    assertMergeable(current!.status);
    if (baseSeq === main.head_seq) return { revision: branch.head_revision_id, result: 'update' as const };
    const { outcome, oursHead } = stillValid(ahead, sides) ?? (await mergeSides(trx, sides, direction, now));
    if (outcome.conflicts.length > 0) return { revision: branch.head_revision_id, result: 'conflicts' as const, conflicts: outcome.conflicts };
    for (const document of outcome.documents) await putDocument(trx, document, now);
    const revision = await commitToBranch(ctx, trx, branch, oursHead, {
      pages: outcome.pages,
      files: outcome.files,
      variables: outcome.variables,
      type: 'update',
      createdBy: authorOf(caller),
      extraParents: [main.head_revision_id],
      rebaseTo: { branchId: main.id, seq: main.head_seq },
    });
    await updateChangeRequest(trx, cr.id, { revision_merged_ancestor: main.head_revision_id, updated_at: now });
    await recordEvent(trx, ctx.clock, 'change_request_updated_from_main', space.organization_id, { spaceId: space.id, changeRequestId: cr.id, revisionId: revision.id });
    return { revision: revision.id, result: 'update' as const };
  });
}

async function baseRevision(db: Executor, mainId: string, seq: number): Promise<RevisionRow> {
  const row = await findRevisionAt(db, mainId, seq);
  if (!row) throw notFound('The base revision of the change request no longer exists');
  return row;
}
