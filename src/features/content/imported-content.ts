import type { Executor } from '../../db/types.ts';
import type { AppContext } from '../../platform/context.ts';
import { conflict, forbidden, notFound } from '../../platform/errors.ts';
import { isoNow } from '../../platform/clock.ts';
import { recordEvent } from '../../platform/events.ts';
import { announcePublication } from '../../platform/publications.ts';
import { positionAtEnd } from '../placement/positions.ts';
import type { StoredFile } from '../files/service.ts';
import { findSpace, updateSpace, type SpaceRow } from '../spaces/queries.ts';
import { findChangeRequest, updateChangeRequest } from '../change-requests/queries.ts';
import { canonicalJson, putDocument } from './document-store.ts';
import { withUniqueKeys } from './document/keys.ts';
import type { Document } from './document/types.ts';
import { findRevision, lockBranch, type RevisionRow } from './branch-store.ts';
import { commitToBranch, type FileChange } from './commit-revision.ts';
import type { PageAttributes, PageKind, PageRecord } from './pages.ts';
import { reusableContentToPage } from './reusable-contents.ts';
import { Snapshot } from './snapshot.ts';
import { compareSiblings } from './pages.ts';
import { slugify, uniqueSlug } from './tree.ts';

/*
 * A whole tree of pages written at once, for importers that build it themselves (Git Sync, archives): pages of
 * every kind (documents, groups, links) with ids chosen by the importer, so that documents can already link to
 * each other, and the files they use. Either the content is replaced (what a Git Sync import does: pages and
 * files not in the import are deleted, pages kept by id stay the same pages) or the pages are added under a
 * parent. One revision, one transaction; only what differs from the head gets a new version.
 */

export interface ImportedPage {
  id: string;
  /** null: at the top level (or under `under`, when adding). Parents come before their children. */
  parentId: string | null;
  kind: PageKind;
  title: string;
  /** '' to derive it from the title. */
  slug: string;
  document: unknown | null;
  attributes: PageAttributes;
}

export interface ImportedFile {
  id: string;
  name: string;
  stored: StoredFile;
}

export type ImportDestination = { branch: 'main' } | { branch: 'change-request'; changeRequestId: string };

/** A reusable content of an import, with the file it came from (relative to the content root). */
export interface ImportedReusableContent {
  id: string;
  title: string;
  document: unknown | null;
  path: string;
}

export interface ImportedContent {
  pages: readonly ImportedPage[];
  /**
   * The reusable contents, for importers that read them (Git Sync): replacing the content then replaces these
   * too. Left out, the revision's reusable contents stay as they are.
   */
  reusableContents?: readonly ImportedReusableContent[];
  files: readonly ImportedFile[];
  /** Replace the content, or add the pages under this page (null: at the end of the top level). */
  mode: { replace: true } | { replace: false; under: string | null };
  /** More writes of the importer that belong in the same transaction (Git Sync's redirects, an import run's result). */
  alsoWrite?: (trx: Executor, revision: RevisionRow) => Promise<void>;
  /** Write only over this head revision: another one (an edit meanwhile) refuses with HeadMoved, writing nothing. */
  expectedHead?: string;
}

/** The branch's head is no longer the one the importer expected (ImportedContent.expectedHead). */
export class HeadMoved extends Error {}

export async function writeImportedContent(
  ctx: AppContext,
  caller: { userId: string | null },
  space: Pick<SpaceRow, 'id' | 'organization_id'>,
  destination: ImportDestination,
  content: ImportedContent,
  event: Record<string, unknown> = {},
): Promise<RevisionRow> {
  const now = isoNow(ctx.clock);
  const revision = await ctx.db.transaction().execute(async (trx) => {
    const branchId = destination.branch === 'main' ? space.id : destination.changeRequestId;
    const branch = await lockBranch(trx, branchId);
    const head = branch && (await findRevision(trx, branch.head_revision_id));
    if (!branch || !head) throw notFound(`No content for ${destination.branch === 'main' ? `space ${space.id}` : `change request ${branchId}`}`);
    if (content.expectedHead !== undefined && head.id !== content.expectedHead) throw new HeadMoved(`The content moved from ${content.expectedHead} to ${head.id}`);
    const current = await findSpace(trx, space.id);
    if (!current || current.deleted_at) throw notFound(`No space ${space.id}`);
    if (destination.branch === 'main' && current.edit_mode === 'locked') throw forbidden('The space was locked meanwhile: an admin must set editMode to "live" before its content can change');
    if (destination.branch === 'change-request') {
      const cr = await findChangeRequest(trx, space.id, destination.changeRequestId);
      if (!cr) throw notFound(`No change request ${destination.changeRequestId} in space ${space.id}`);
      if (cr.status === 'merged' || cr.status === 'archived') throw conflict(`The change request is ${cr.status}; its content cannot change`);
    }

    const snapshot = await Snapshot.of(trx, head);
    const existing = new Map((await snapshot.pages()).map((p) => [p.id, p]));
    const pages = new Map<string, PageRecord | null>();
    const under = content.mode.replace ? null : content.mode.under;
    if (under !== null && !existing.has(under)) throw notFound(`No page ${under} in the content`);

    // Positions and slugs per parent, in the import's order, after the siblings that stay.
    const siblings = new Map<string | null, { positions: string[]; slugs: Set<string> }>();
    const siblingsOf = (parentId: string | null) => {
      let known = siblings.get(parentId);
      if (!known) {
        const staying = content.mode.replace ? [] : [...existing.values()].filter((p) => p.parentId === parentId).sort(compareSiblings);
        known = { positions: staying.map((p) => p.position), slugs: new Set(staying.filter((p) => p.kind !== 'link').map((p) => p.slug)) };
        siblings.set(parentId, known);
      }
      return known;
    };

    const kept = new Set<string>();
    for (const page of content.pages) {
      const parentId = page.parentId ?? under;
      const place = siblingsOf(parentId);
      const position = positionAtEnd(place.positions);
      place.positions.push(position);
      let slug = '';
      if (page.kind !== 'link') {
        slug = uniqueSlug(page.slug || slugify(page.title), place.slugs);
        place.slugs.add(slug);
      }
      // The importer's data, not the caller's: keys it repeats are given new ones rather than refused (keys.ts).
      const documentId = page.document ? await putDocument(trx, withUniqueKeys(page.document as Document), now) : null;
      const before = existing.get(page.id);
      const record: PageRecord = {
        id: page.id,
        parentId,
        position,
        kind: page.kind,
        title: page.title,
        slug,
        documentId,
        attributes: page.attributes,
        createdAt: before?.createdAt ?? now,
        updatedAt: now,
      };
      kept.add(page.id);
      if (before && unchanged(before, record)) continue;
      pages.set(page.id, record);
    }
    if (content.mode.replace) for (const id of existing.keys()) if (!kept.has(id)) pages.set(id, null);

    if (content.reusableContents) {
      const existingContents = new Map((await snapshot.reusableContents()).map((r) => [r.id, r]));
      const keptContents = new Set<string>();
      for (const imported of content.reusableContents) {
        const documentId = imported.document ? await putDocument(trx, withUniqueKeys(imported.document as Document), now) : null;
        const before = existingContents.get(imported.id);
        const record = reusableContentToPage({ id: imported.id, title: imported.title, documentId, git: { path: imported.path }, createdAt: before?.createdAt ?? now, updatedAt: now });
        keptContents.add(imported.id);
        if (before && unchanged(reusableContentToPage(before), record)) continue;
        pages.set(imported.id, record);
      }
      if (content.mode.replace) for (const id of existingContents.keys()) if (!keptContents.has(id)) pages.set(id, null);
    }

    const files: FileChange[] = [];
    const keptFiles = new Set<string>();
    const existingFiles = new Map((await snapshot.files()).map((f) => [f.file_id, f]));
    for (const file of content.files) {
      keptFiles.add(file.id);
      const before = existingFiles.get(file.id);
      if (before && before.blob_hash === file.stored.hash && before.name === file.name) continue;
      files.push({
        id: file.id,
        file: {
          name: file.name,
          content_type: file.stored.contentType,
          size: file.stored.size,
          blob_hash: file.stored.hash,
          width: file.stored.width ?? null,
          height: file.stored.height ?? null,
          created_at: now,
        },
      });
    }
    if (content.mode.replace) for (const id of existingFiles.keys()) if (!keptFiles.has(id)) files.push({ id, file: null });

    const revision = await commitToBranch(ctx, trx, branch, head, { pages, files, type: 'edits', createdBy: caller.userId });
    await content.alsoWrite?.(trx, revision);
    if (destination.branch === 'main') {
      await updateSpace(trx, space.id, { revision_id: revision.id, updated_at: now });
      await recordEvent(trx, ctx.clock, 'space_content_updated', space.organization_id, { ...event, spaceId: space.id, revisionId: revision.id });
    } else {
      await updateChangeRequest(trx, destination.changeRequestId, { updated_at: now });
      await recordEvent(trx, ctx.clock, 'change_request_content_updated', space.organization_id, { ...event, spaceId: space.id, changeRequestId: destination.changeRequestId, revisionId: revision.id });
    }
    return revision;
  });
  if (destination.branch === 'main') announcePublication(ctx.db, { kind: 'space', organizationId: space.organization_id, spaceId: space.id, revisionId: revision.id });
  return revision;
}

function unchanged(a: PageRecord, b: PageRecord): boolean {
  return (
    a.parentId === b.parentId &&
    a.position === b.position &&
    a.kind === b.kind &&
    a.title === b.title &&
    a.slug === b.slug &&
    a.documentId === b.documentId &&
    canonicalJson(a.attributes) === canonicalJson(b.attributes)
  );
}
