import type { PageRecord } from './pages.ts';
import type { ReusableContentRecord } from './reusable-contents.ts';
import { buildTree, flattenTree } from './tree.ts';
import { sameValue } from '../change-requests/merge-values.ts';

export interface PageChangeInput {
  before: PageRecord | undefined;
  after: PageRecord | undefined;
  pathBefore?: string;
  pathAfter?: string;
  parentBefore?: PageRecord;
  parentAfter?: PageRecord;
}

/** One RevisionSemanticChange of the spec. */
export interface SemanticChange {
  type: string;
  [field: string]: unknown;
}

type ChangedPage = { id: string; type: string; title: string; path?: string };

const changedPage = (page: PageRecord, path?: string): ChangedPage => ({ id: page.id, type: page.kind, title: page.title, ...(path !== undefined ? { path } : {}) });

/**
 * The semantic changes of one page between a change request's base and the change request, as the spec's
 * RevisionSemanticChange variants: created, deleted, moved (parent changed), edited (with before/after values).
 */
export function pageChanges(input: PageChangeInput): SemanticChange[] {
  const { before, after } = input;
  if (!before && after) return [{ type: 'page_created', page: changedPage(after, input.pathAfter) }];
  if (before && !after) return [{ type: 'page_deleted', page: changedPage(before, input.pathBefore) }];
  if (!before || !after) return [];
  const out: SemanticChange[] = [];
  if (before.parentId !== after.parentId) {
    out.push({
      type: 'page_moved',
      page: changedPage(after, input.pathAfter),
      parent: {
        ...(input.parentBefore ? { before: changedPage(input.parentBefore) } : {}),
        ...(input.parentAfter ? { after: changedPage(input.parentAfter) } : {}),
      },
    });
  }
  const attributes: Record<string, { before?: unknown; after?: unknown }> = {};
  const compare = (name: string, b: unknown, a: unknown) => {
    if (!sameValue(b, a)) attributes[name] = { ...(b !== undefined && b !== null ? { before: b } : {}), ...(a !== undefined && a !== null ? { after: a } : {}) };
  };
  compare('title', before.title, after.title);
  compare('slug', before.slug, after.slug);
  compare('document', before.documentId, after.documentId);
  compare('description', before.attributes.description, after.attributes.description);
  compare('emoji', before.attributes.emoji, after.attributes.emoji);
  compare('layout', before.attributes.layout, after.attributes.layout);
  compare('cover', before.attributes.cover, after.attributes.cover);
  compare('variables', before.attributes.variables, after.attributes.variables);
  if (Object.keys(attributes).length > 0) out.push({ type: 'page_edited', page: changedPage(after, input.pathAfter), attributes });
  return out;
}

/** The spec's reusable_content_created, _deleted and _edited (title and document, the document by its id). */
export function reusableContentChanges(before: ReusableContentRecord | undefined, after: ReusableContentRecord | undefined): SemanticChange[] {
  const view = (r: ReusableContentRecord) => ({ id: r.id, title: r.title, ...(r.documentId ? { document: r.documentId } : {}) });
  if (!before && after) return [{ type: 'reusable_content_created', reusableContent: view(after) }];
  if (before && !after) return [{ type: 'reusable_content_deleted', reusableContent: view(before) }];
  if (!before || !after) return [];
  const attributes: Record<string, { before?: unknown; after?: unknown }> = {};
  const compare = (name: string, b: string | null, a: string | null) => {
    if (b !== a) attributes[name] = { ...(b !== null ? { before: b } : {}), ...(a !== null ? { after: a } : {}) };
  };
  compare('title', before.title, after.title);
  compare('document', before.documentId, after.documentId);
  return Object.keys(attributes).length > 0 ? [{ type: 'reusable_content_edited', reusableContent: view(after), attributes }] : [];
}

export interface FileSide {
  id: string;
  name: string;
  contentType: string;
  downloadURL: string;
  size: number;
}

export function fileChanges(before: FileSide | undefined, after: FileSide | undefined): SemanticChange[] {
  const view = (f: FileSide) => ({ id: f.id, name: f.name, contentType: f.contentType, downloadURL: f.downloadURL });
  if (!before && after) return [{ type: 'file_created', file: view(after) }];
  if (before && !after) return [{ type: 'file_deleted', file: view(before) }];
  if (!before || !after) return [];
  const attributes: Record<string, unknown> = {};
  for (const key of ['name', 'downloadURL', 'size', 'contentType'] as const) {
    if (before[key] !== after[key]) attributes[key] = { before: before[key], after: after[key] };
  }
  return Object.keys(attributes).length > 0 ? [{ type: 'file_edited', file: view(after), attributes }] : [];
}

export function variableChanges(before: Record<string, string>, after: Record<string, string>): SemanticChange[] {
  const variables: Record<string, { before?: string; after?: string }> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (before[key] !== after[key]) variables[key] = { ...(key in before ? { before: before[key] } : {}), ...(key in after ? { after: after[key] } : {}) };
  }
  return Object.keys(variables).length > 0 ? [{ type: 'variables_edited', variables }] : [];
}

/** What the semantic changes of a revision are computed from: its page rows (documents by hash), files and variables. */
export interface RevisionContent {
  pages: readonly PageRecord[];
  reusableContents: readonly ReusableContentRecord[];
  files: readonly FileSide[];
  variables: Record<string, string>;
}

/**
 * getRevisionSemanticChanges: what a revision changed compared with its parent, from the two trees alone. A page's
 * document is compared by its id, the hash of its content, so no document is read. Pages come in the order of
 * the revision's tree (deleted ones in the order of the parent's), then reusable contents and files by id, then variables: a `limit`
 * cuts the list at the same place each time.
 */
export function revisionChanges(before: RevisionContent, after: RevisionContent): SemanticChange[] {
  const beforeNodes = new Map(flattenTree(buildTree(before.pages)).map((node) => [node.page.id, node]));
  const afterNodes = flattenTree(buildTree(after.pages));
  const afterIds = new Set(afterNodes.map((node) => node.page.id));
  const beforePage = (id: string | null) => (id === null ? undefined : beforeNodes.get(id)?.page);
  const afterById = new Map(afterNodes.map((node) => [node.page.id, node.page]));
  const changes: SemanticChange[] = [];
  for (const node of afterNodes) {
    const previous = beforeNodes.get(node.page.id);
    const parentBefore = beforePage(previous?.page.parentId ?? null);
    const parentAfter = node.page.parentId === null ? undefined : afterById.get(node.page.parentId);
    changes.push(
      ...pageChanges({
        before: previous?.page,
        after: node.page,
        pathAfter: node.path,
        ...(previous ? { pathBefore: previous.path } : {}),
        ...(parentBefore ? { parentBefore } : {}),
        ...(parentAfter ? { parentAfter } : {}),
      }),
    );
  }
  for (const [id, node] of beforeNodes) if (!afterIds.has(id)) changes.push(...pageChanges({ before: node.page, after: undefined, pathBefore: node.path }));

  const contentsBefore = new Map(before.reusableContents.map((r) => [r.id, r]));
  const contentsAfter = new Map(after.reusableContents.map((r) => [r.id, r]));
  for (const id of [...new Set([...contentsBefore.keys(), ...contentsAfter.keys()])].sort()) changes.push(...reusableContentChanges(contentsBefore.get(id), contentsAfter.get(id)));

  const byId = (files: readonly FileSide[]) => new Map(files.map((f) => [f.id, f]));
  const filesBefore = byId(before.files);
  const filesAfter = byId(after.files);
  const fileIds = [...new Set([...filesBefore.keys(), ...filesAfter.keys()])].sort();
  for (const id of fileIds) changes.push(...fileChanges(filesBefore.get(id), filesAfter.get(id)));
  changes.push(...variableChanges(before.variables, after.variables));
  return changes;
}
