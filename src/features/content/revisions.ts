import type { Executor } from '../../db/types.ts';
import type { AppContext } from '../../platform/context.ts';
import { newId } from '../../platform/ids.ts';
import { isoNow } from '../../platform/clock.ts';
import { insertBranch, insertRevisionRow, type BranchRow } from './branch-store.ts';
import { copyHeadVersions, pageAt } from './version-store.ts';
import { pageFromRow, type PageRecord } from './pages.ts';
import { pathOfAncestry } from './snapshot.ts';
import { copySpaceIndex } from '../search/indexing.ts';

/**
 * Content's versioned storage as other features use it (spaces start branches, change requests merge, comments
 * and imports read revisions): the only content module besides service.ts that they import, so that content's
 * stores (branch-store, version-store, document-store) stay its own.
 */
export { findBranch, findRevision, findRevisionAt, lockBranch, type BranchRow, type RevisionRow } from './branch-store.ts';
export { documentIdFor, extractPendingDocumentLinks, getDocument, getDocuments, putDocument } from './document-store.ts';
export { fileAt, filesAt, filesChangedSince, pageAt, pagesAfterAt, pagesAt, pagesChangedSince, type FileVersionRow, type Layer } from './version-store.ts';

/**
 * The main branch of a new space, with its first (empty) revision. A duplicate starts from a copy of the
 * source's current content, its first revision having the source's revision as parent.
 */
export async function startMainBranch(
  ctx: AppContext,
  db: Executor,
  spaceId: string,
  createdBy: string | null,
  copyOf?: { spaceId: string; revisionId: string; variables: string },
): Promise<string> {
  const revisionId = newId();
  const now = isoNow(ctx.clock);
  await insertBranch(db, { id: spaceId, space_id: spaceId, head_seq: 0, head_revision_id: revisionId, base_branch_id: null, base_seq: null, created_at: now });
  await insertRevisionRow(db, {
    id: revisionId,
    space_id: spaceId,
    branch_id: spaceId,
    seq: 0,
    base_branch_id: null,
    base_seq: null,
    parents: JSON.stringify(copyOf ? [copyOf.revisionId] : []),
    type: 'edits',
    variables: copyOf?.variables ?? '{}',
    merged_from: null,
    created_by: createdBy,
    created_at: now,
  });
  if (copyOf) {
    await copyHeadVersions(db, copyOf.spaceId, spaceId);
    await copySpaceIndex(db, copyOf.spaceId, spaceId);
  }
  return revisionId;
}

/**
 * The branch of a new change request, based on main's head, with its first revision (no changes yet: it reads
 * as main at `main.head_seq` until something is written to it). The branch's id is the change request's.
 */
export async function startChangeRequestBranch(
  ctx: AppContext,
  db: Executor,
  changeRequestId: string,
  main: Pick<BranchRow, 'space_id' | 'head_seq' | 'head_revision_id'>,
  variables: string,
  createdBy: string | null,
): Promise<string> {
  const revisionId = newId();
  const now = isoNow(ctx.clock);
  const spaceId = main.space_id;
  await insertBranch(db, { id: changeRequestId, space_id: spaceId, head_seq: 0, head_revision_id: revisionId, base_branch_id: spaceId, base_seq: main.head_seq, created_at: now });
  await insertRevisionRow(db, {
    id: revisionId,
    space_id: spaceId,
    branch_id: changeRequestId,
    seq: 0,
    base_branch_id: spaceId,
    base_seq: main.head_seq,
    parents: JSON.stringify([main.head_revision_id]),
    type: 'edits',
    variables,
    merged_from: null,
    created_by: createdBy,
    created_at: now,
  });
  return revisionId;
}

/**
 * Where pages of a space's current main-line content are: title and path (slugs from the root) of each page
 * asked for that exists. Reads each page's ancestry once however many of the pages share it, so the cost follows
 * the pages asked for and their depth, not the size of the space (search presents its results with it).
 */
export async function mainPagePlaces(db: Executor, spaceId: string, pageIds: readonly string[]): Promise<Map<string, { title: string; path: string }>> {
  const layer = { branchId: spaceId, seq: 0, head: true };
  const known = new Map<string, PageRecord | null>();
  const load = async (id: string) => {
    if (!known.has(id)) {
      const row = await pageAt(db, layer, id);
      known.set(id, row && !row.deleted ? pageFromRow(row) : null);
    }
    return known.get(id) ?? null;
  };
  const places = new Map<string, { title: string; path: string }>();
  for (const id of pageIds) {
    const chain: PageRecord[] = [];
    for (let page = await load(id); page && chain.length < 1000; page = page.parentId ? await load(page.parentId) : null) chain.push(page);
    const page = chain[0];
    if (page) places.set(id, { title: page.title, path: pathOfAncestry(chain) });
  }
  return places;
}
