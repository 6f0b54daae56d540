import type { AppContext, Caller } from '../../platform/context.ts';
import { findChangeRequest } from '../change-requests/queries.ts';
import { presentChangeRequest } from '../change-requests/present.ts';
import { openCommentsOfChangeRequest } from '../comments/queries.ts';
import { fileDownloadUrl } from '../files/service.ts';
import { findRevision, type RevisionRow } from './branch-store.ts';
import { revisionChanges, type RevisionContent } from './semantic-changes.ts';
import { openContent } from './service.ts';
import { Snapshot } from './snapshot.ts';

/** The pages and reusable contents (document hashes, not documents), files and variables of a revision: what its changes are computed from. */
async function contentOf(ctx: AppContext, revision: RevisionRow | undefined): Promise<RevisionContent> {
  if (!revision) return { pages: [], reusableContents: [], files: [], variables: {} };
  const snapshot = await Snapshot.of(ctx.db, revision);
  const [pages, reusableContents, files] = await Promise.all([snapshot.pages(), snapshot.reusableContents(), snapshot.files()]);
  return {
    pages,
    reusableContents,
    files: files.map((f) => ({ id: f.file_id, name: f.name, contentType: f.content_type, downloadURL: fileDownloadUrl(ctx.config, f.blob_hash, f.name), size: f.size })),
    variables: JSON.parse(revision.variables) as Record<string, string>,
  };
}

/**
 * getRevisionSemanticChanges: what a revision of the space (main line or change request) changed compared with its
 * first parent (for a merge, the main line before it); a first revision is compared with nothing. A merge
 * revision names the change request it came from.
 */
export async function readRevisionChanges(ctx: AppContext, caller: Caller, spaceId: string, revisionId: string, limit: number) {
  const { revision, spaceRevision } = await openContent(ctx, caller, { kind: 'revision', spaceId, revisionId });
  const parentId = (JSON.parse(revision.parents) as string[])[0];
  const parent = parentId === undefined ? undefined : await findRevision(ctx.db, parentId);
  const [before, after] = await Promise.all([contentOf(ctx, parent), contentOf(ctx, revision)]);
  const changes = revisionChanges(before, after);
  const mergedFrom = revision.merged_from ? await findChangeRequest(ctx.db, revision.space_id, revision.merged_from) : undefined;
  return {
    ...(mergedFrom ? { mergedFrom: presentChangeRequest(ctx.config, mergedFrom, spaceRevision, await openCommentsOfChangeRequest(ctx.db, mergedFrom.id)) } : {}),
    changes: changes.slice(0, limit),
    ...(changes.length > limit ? { more: changes.length - limit } : {}),
  };
}
