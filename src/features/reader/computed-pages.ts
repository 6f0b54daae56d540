import type { Document } from '../content/document/types.ts';
import type { PageRecord } from '../content/pages.ts';
import { slugify, type PageNode } from '../content/tree.ts';
import type { ApiReference, OperationView } from '../openapi-specs/reference.ts';

/*
 * Computed pages (the official RevisionPageComputed) whose source is an OpenAPI specification
 * (`builtin:openapi`), as the reader shows them: the page itself introduces the API (title, version,
 * description, servers) and lists what follows; under it, one page per tag holds that tag's operations in the
 * order of the specification (operations without a tag go to a last page), and with `props.models` a "Models"
 * page holds every schema. The generated pages are documents of `openapi-operation` and `openapi-schemas` blocks
 * naming the spec, so they render as any page that embeds those blocks does. Nothing is stored: they follow the
 * spec's latest version (its fingerprint is part of the site's state, so a new version renders anew).
 */

/** The slugs of the specs the computed pages of a tree name. */
export function computedSpecSlugs(nodes: readonly PageNode[]): string[] {
  const slugs = new Set<string>();
  const walk = (list: readonly PageNode[]) => {
    for (const node of list) {
      const slug = node.page.kind === 'computed' ? node.page.attributes.computed?.dependencies.spec.ref.spec : undefined;
      if (slug) slugs.add(slug);
      walk(node.children);
    }
  };
  walk(nodes);
  return [...slugs];
}

export interface ExpandedTree {
  /** The tree with each computed page a document whose children are its generated pages. */
  tree: PageNode[];
  /** The documents of computed and generated pages, by page id (they have none in the store). */
  documents: Map<string, Document>;
}

/** Expands the computed pages of a tree with the references of their specs (`spec:<slug>` keys). */
export function expandComputedPages(nodes: readonly PageNode[], references: ReadonlyMap<string, ApiReference>): ExpandedTree {
  const documents = new Map<string, Document>();
  const expand = (list: readonly PageNode[]): PageNode[] =>
    list.map((node) => {
      if (node.page.kind !== 'computed') return { ...node, children: expand(node.children) };
      const source = node.page.attributes.computed;
      const slug = source?.dependencies.spec.ref.spec ?? '';
      const reference = references.get(`spec:${slug}`);
      const generated = reference ? generatedPages(node, slug, reference, source?.props.models === true) : [];
      documents.set(node.page.id, introduction(slug, reference, generated));
      for (const page of generated) documents.set(page.node.page.id, page.document);
      return { ...node, page: { ...node.page, kind: 'document' as const }, children: generated.map((page) => page.node) };
    });
  return { tree: expand(nodes), documents };
}

interface GeneratedPage {
  node: PageNode;
  document: Document;
}

function generatedPages(parent: PageNode, slug: string, reference: ApiReference, models: boolean): GeneratedPage[] {
  const byTag = new Map<string, OperationView[]>();
  const untagged: OperationView[] = [];
  for (const operation of reference.operations) {
    const tag = operation.tags[0];
    if (!tag) untagged.push(operation);
    else byTag.set(tag, [...(byTag.get(tag) ?? []), operation]);
  }
  const taken = new Set<string>();
  const pages: GeneratedPage[] = [];
  const add = (title: string, nodes: unknown[]) => {
    const base = slugify(title) || 'operations';
    let pageSlug = base;
    for (let n = 2; taken.has(pageSlug); n++) pageSlug = `${base}-${n}`;
    taken.add(pageSlug);
    const page: PageRecord = {
      ...parent.page,
      // Stable across renders and specs versions while the tag keeps its name: links and caches hold.
      id: `${parent.page.id}-${pageSlug}`,
      parentId: parent.page.id,
      kind: 'document',
      title,
      slug: pageSlug,
      documentId: null,
      attributes: { ...(parent.page.attributes.hidden ? { hidden: true } : {}) },
    };
    pages.push({ node: { page, path: parent.path ? `${parent.path}/${pageSlug}` : pageSlug, children: [] }, document: documentOf(nodes) });
  };
  for (const [tag, operations] of byTag) add(tag, operations.map((op) => operationBlock(slug, op)));
  if (untagged.length > 0) add(byTag.size > 0 ? 'Other operations' : 'Operations', untagged.map((op) => operationBlock(slug, op)));
  if (models && reference.schemas.length > 0) {
    add('Models', [{ object: 'block', type: 'openapi-schemas', isVoid: true, data: { ref: { kind: 'openapi', spec: slug }, schemas: reference.schemas.map((s) => s.name) } }]);
  }
  return pages;
}

/** The document of one operation of a spec (getComputedDocument's `operation`). */
export function operationDocument(slug: string, operation: Pick<OperationView, 'method' | 'path'>): Document {
  return documentOf([operationBlock(slug, operation)]);
}

function operationBlock(slug: string, operation: Pick<OperationView, 'method' | 'path'>): unknown {
  return { object: 'block', type: 'openapi-operation', isVoid: true, data: { ref: { kind: 'openapi', spec: slug }, method: operation.method, path: operation.path } };
}

/** The computed page's own document: what the API is, and its generated pages as content references. */
function introduction(slug: string, reference: ApiReference | undefined, pages: readonly GeneratedPage[]): Document {
  if (!reference) return documentOf([paragraph(`The API specification "${slug}" is not available yet.`)]);
  const nodes: unknown[] = [paragraph(`${reference.title}${reference.version ? `, version ${reference.version}` : ''}.`)];
  for (const text of (reference.description ?? '').split(/\n{2,}/).map((p) => p.trim()).filter(Boolean)) nodes.push(paragraph(text));
  if (reference.servers.length > 0) nodes.push(paragraph(`Base URL: ${reference.servers[0]}`));
  for (const page of pages) nodes.push({ object: 'block', type: 'content-ref', isVoid: true, data: { ref: { kind: 'page', page: page.node.page.id } } });
  return documentOf(nodes);
}

function paragraph(text: string): unknown {
  return { object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] };
}

function documentOf(nodes: unknown[]): Document {
  return { object: 'document', data: {}, nodes } as unknown as Document;
}
