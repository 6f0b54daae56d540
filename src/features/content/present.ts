import type { Config } from '../../config.ts';
import { appUrl } from '../../platform/urls.ts';
import type { RevisionRow } from './branch-store.ts';
import type { PageNode } from './tree.ts';
import type { FileVersionRow } from './version-store.ts';
import type { presentReusableContent } from './reusable-contents.ts';

/** Page layout when none was set: GitBook's defaults. */
const DEFAULT_LAYOUT = {
  width: 'default',
  cover: true,
  coverSize: 'hero',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
};

export interface PresentedBody {
  document?: unknown;
  markdown?: string;
}

/**
 * A page as the spec's RevisionPage variants shape it. `body` adds the document (or its markdown) to the page it
 * is given for; children never carry theirs.
 */
export interface PresentedPage {
  id: string;
  title: string;
  type: 'document' | 'group' | 'link' | 'computed';
  kind: string;
  pages?: PresentedPage[];
  [field: string]: unknown;
}

export function presentPage(config: Config, spaceId: string, node: PageNode, body?: PresentedBody): PresentedPage {
  const { page } = node;
  const a = page.attributes;
  // Each variant starts with a property, not with `...common`: on Node 20 (V8 11.3) every property added to an
  // object that began as a spread costs about a microsecond, and a page answer has a dozen.
  const common = {
    title: page.title,
    ...(a.emoji ? { emoji: a.emoji } : {}),
    ...(a.icon ? { icon: a.icon } : {}),
    createdAt: page.createdAt,
    updatedAt: page.updatedAt,
  };
  const flags = {
    ...(a.hidden !== undefined ? { hidden: a.hidden } : {}),
    ...(a.noIndex !== undefined ? { noIndex: a.noIndex } : {}),
    ...(a.noRobotsIndex !== undefined ? { noRobotsIndex: a.noRobotsIndex } : {}),
  };
  const children = node.children.map((child) => presentPage(config, spaceId, child));
  if (page.kind === 'link') {
    return { id: page.id, ...common, kind: 'link', type: 'link' as const, target: a.target ?? { kind: 'url', url: '' }, ...(a.hidden !== undefined ? { hidden: a.hidden } : {}) };
  }
  if (page.kind === 'computed') {
    // RevisionPageComputed: the page and its source; the reader generates what it shows.
    return { id: page.id, ...common, kind: 'computed', type: 'computed' as const, computed: a.computed, slug: page.slug, path: node.path, ...(a.description ? { description: a.description } : {}), ...flags, pages: children };
  }
  if (page.kind === 'group') {
    return { id: page.id, ...common, kind: 'group', type: 'group' as const, slug: page.slug, path: node.path, ...flags, pages: children };
  }
  return {
    id: page.id,
    ...common,
    kind: 'sheet',
    type: 'document' as const,
    urls: { app: appUrl(config, `/s/${spaceId}/${node.path}`) },
    slug: page.slug,
    path: node.path,
    ...(a.description ? { description: a.description } : {}),
    pages: children,
    layout: { ...DEFAULT_LAYOUT, ...(a.layout ?? {}) },
    ...(a.cover ? { cover: a.cover } : {}),
    ...(a.variables ? { variables: a.variables } : {}),
    ...flags,
    ...(page.documentId ? { documentId: page.documentId } : {}),
    ...(body ?? {}),
  };
}

export function presentFile(file: FileVersionRow, downloadURL: string) {
  return {
    id: file.file_id,
    name: file.name,
    contentType: file.content_type,
    downloadURL,
    size: file.size,
    ...(file.width !== null && file.height !== null ? { dimensions: { width: file.width, height: file.height } } : {}),
  };
}

export function presentRevision(
  config: Config,
  revision: RevisionRow,
  pages: PresentedPage[],
  files: ReturnType<typeof presentFile>[],
  reusableContents: ReturnType<typeof presentReusableContent>[],
  extra: { mergedFrom?: unknown } = {},
) {
  return {
    object: 'revision' as const,
    id: revision.id,
    parents: JSON.parse(revision.parents) as string[],
    pages,
    files,
    reusableContents,
    variables: JSON.parse(revision.variables) as Record<string, string>,
    createdAt: revision.created_at,
    type: revision.type,
    ...(revision.created_by ? { authorId: revision.created_by } : {}),
    ...extra,
    urls: { app: appUrl(config, `/s/${revision.space_id}/~/revisions/${revision.id}`) },
  };
}
