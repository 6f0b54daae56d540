import type { Executor } from '../../db/types.ts';
import type { AppContext } from '../../platform/context.ts';
import { newId } from '../../platform/ids.ts';
import { isoNow } from '../../platform/clock.ts';
import { reindexPages } from '../search/indexing.ts';
import type { Document } from './document/types.ts';
import { getDocuments } from './document-store.ts';
import { advanceBranch, insertRevisionRow, type BranchRow, type RevisionRow } from './branch-store.ts';
import { pageToRow, type PageRecord } from './pages.ts';
import { closeFileVersion, closePageVersion, insertFileVersion, insertPageVersion, type FileVersionRow } from './version-store.ts';

export interface FileChange {
  id: string;
  /** null deletes the file. */
  file: Omit<FileVersionRow, 'branch_id' | 'file_id' | 'from_seq' | 'to_seq' | 'deleted'> | null;
}

export interface Commit {
  pages: ReadonlyMap<string, PageRecord | null>;
  files?: readonly FileChange[];
  variables?: Record<string, string>;
  type: 'edits' | 'merge' | 'update' | 'rollback';
  createdBy: string | null;
  /** Parent revisions besides the branch's head (a merge names the change request's revision). */
  extraParents?: string[];
  mergedFrom?: string;
  /** For a change request updated from main: its new base. */
  rebaseTo?: { branchId: string; seq: number };
}

/**
 * Writes one new revision on a locked branch: only the pages and files that changed get a new version, so the
 * cost follows the change, not the size of the space. On a change request's branch, a deletion is a tombstone
 * version that hides the page of the base.
 */
export async function commitToBranch(ctx: AppContext, db: Executor, branch: BranchRow, head: RevisionRow, commit: Commit): Promise<RevisionRow> {
  const seq = branch.head_seq + 1;
  const overlay = (commit.rebaseTo?.branchId ?? branch.base_branch_id) !== null;
  const now = isoNow(ctx.clock);
  for (const [pageId, page] of commit.pages) {
    await closePageVersion(db, branch.id, pageId, seq);
    if (page) await insertPageVersion(db, pageToRow(page, branch.id, seq));
    else if (overlay) await insertPageVersion(db, { ...tombstone(pageId, branch.id, seq, now) });
  }
  for (const change of commit.files ?? []) {
    await closeFileVersion(db, branch.id, change.id, seq);
    if (change.file) await insertFileVersion(db, { ...change.file, branch_id: branch.id, file_id: change.id, from_seq: seq, to_seq: null, deleted: 0 });
    else if (overlay)
      await insertFileVersion(db, { branch_id: branch.id, file_id: change.id, from_seq: seq, to_seq: null, deleted: 1, name: '', content_type: '', size: 0, blob_hash: '', width: null, height: null, created_at: now });
  }
  const revision: RevisionRow = {
    id: newId(),
    space_id: branch.space_id,
    branch_id: branch.id,
    seq,
    base_branch_id: commit.rebaseTo?.branchId ?? branch.base_branch_id,
    base_seq: commit.rebaseTo?.seq ?? branch.base_seq,
    parents: JSON.stringify([head.id, ...(commit.extraParents ?? [])]),
    type: commit.type,
    variables: commit.variables ? JSON.stringify(commit.variables) : head.variables,
    merged_from: commit.mergedFrom ?? null,
    created_by: commit.createdBy,
    created_at: now,
  };
  await insertRevisionRow(db, revision);
  // The main line's head is what search reads: its index changes with it, in this transaction.
  if (!overlay) await reindexMainPages(db, branch.space_id, commit.pages);
  await advanceBranch(db, branch.id, {
    head_seq: seq,
    head_revision_id: revision.id,
    ...(commit.rebaseTo ? { base_branch_id: commit.rebaseTo.branchId, base_seq: commit.rebaseTo.seq } : {}),
  });
  return revision;
}

async function reindexMainPages(db: Executor, spaceId: string, pages: ReadonlyMap<string, PageRecord | null>): Promise<void> {
  const kept = [...pages.values()].filter((p): p is PageRecord => p !== null);
  const documents = await getDocuments(db, kept.flatMap((p) => (p.documentId ? [p.documentId] : [])));
  await reindexPages(
    db,
    spaceId,
    kept.map((p) => ({ id: p.id, title: p.title, kind: p.kind, document: p.documentId ? (documents.get(p.documentId) as Document | undefined) : undefined })),
    [...pages].filter(([, p]) => p === null).map(([id]) => id),
  );
}

function tombstone(pageId: string, branchId: string, seq: number, now: string) {
  return {
    branch_id: branchId,
    page_id: pageId,
    from_seq: seq,
    to_seq: null,
    deleted: 1,
    parent_id: null,
    position: '',
    kind: 'document',
    title: '',
    slug: '',
    document_id: null,
    attributes: '{}',
    created_at: now,
    updated_at: now,
  };
}
