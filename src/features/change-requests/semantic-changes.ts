import type { AppContext, Caller } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import { findRevision } from '../content/revisions.ts';
import type { PageRecord } from '../content/pages.ts';
import { pageFromRow } from '../content/pages.ts';
import { Snapshot } from '../content/snapshot.ts';
import { filesAt, pagesAt, type FileVersionRow } from '../content/revisions.ts';
import { fileDownloadUrl } from '../files/service.ts';
import { fileChanges, pageChanges, reusableContentChanges, variableChanges, type FileSide, type SemanticChange } from '../content/semantic-changes.ts';
import { isReusableContent, reusableContentOfPage } from '../content/reusable-contents.ts';
import { baseRevisionOf } from './present.ts';
import { loadChangeRequest } from './service.ts';

/**
 * getChangeRequestChanges: what the change request changes compared with the revision it is based on. The
 * change request's own versions are exactly what it changed, so this reads only those, not the whole space.
 */
export async function changeRequestChanges(ctx: AppContext, caller: Caller, spaceId: string, changeRequestId: string, limit: number) {
  const { cr } = await loadChangeRequest(ctx, caller, spaceId, changeRequestId);
  const head = await findRevision(ctx.db, cr.head_revision_id ?? cr.revision_initial);
  const baseRevision = await findRevision(ctx.db, baseRevisionOf(cr));
  if (!head || !baseRevision) throw notFound(`No content for change request ${changeRequestId}`);
  const after = await Snapshot.of(ctx.db, head);
  const before = await Snapshot.of(ctx.db, baseRevision);
  const changes: SemanticChange[] = [];

  // In the order the change request made them (then by id), so a `limit` cuts the list at the same place each time.
  const inOrder = <R extends { from_seq: number }>(rows: R[], id: (r: R) => string) =>
    rows.sort((a, b) => a.from_seq - b.from_seq || (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0));
  for (const row of inOrder(await pagesAt(ctx.db, after.own), (r) => r.page_id)) {
    // Reusable contents are page versions too (reusable-contents.ts); a tombstone is either kind.
    const content = await before.reusableContent(row.page_id);
    if (isReusableContent(row) || content) {
      changes.push(...reusableContentChanges(content, row.deleted ? undefined : reusableContentOfPage(pageFromRow(row))));
      continue;
    }
    const previous: PageRecord | undefined = await before.page(row.page_id);
    const next = row.deleted ? undefined : pageFromRow(row);
    changes.push(
      ...pageChanges({
        before: previous,
        after: next,
        ...(previous ? { pathBefore: await before.path(previous.id) } : {}),
        ...(next ? { pathAfter: await after.path(next.id) } : {}),
        ...(previous?.parentId ? { parentBefore: await before.page(previous.parentId) } : {}),
        ...(next?.parentId ? { parentAfter: await after.page(next.parentId) } : {}),
      }),
    );
  }
  const side = (f: FileVersionRow | undefined): FileSide | undefined =>
    f && !f.deleted ? { id: f.file_id, name: f.name, contentType: f.content_type, downloadURL: fileDownloadUrl(ctx.config, f.blob_hash, f.name), size: f.size } : undefined;
  for (const row of inOrder(await filesAt(ctx.db, after.own), (r) => r.file_id)) changes.push(...fileChanges(side(await before.file(row.file_id)), side(row)));
  changes.push(...variableChanges(JSON.parse(baseRevision.variables), JSON.parse(head.variables)));

  return { changes: changes.slice(0, limit), ...(changes.length > limit ? { more: changes.length - limit } : {}) };
}
