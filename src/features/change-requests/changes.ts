import type { PageRecord } from '../content/pages.ts';
import { sameValue } from './merge-values.ts';

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
