import { badRequest } from '../../platform/errors.ts';
import { cachedRead, readCache } from '../../platform/read-cache.ts';
import { parseMarkdownDocument, resolveFixedHrefOrUrl, storedDocumentToMarkdown } from '../content/markdown.ts';
import type { Document } from '../content/document/types.ts';
import { documentProblem } from '../content/document/validate.ts';
import type { CommentBodyValue } from './schemas.ts';
import type { PresentedBody } from './present.ts';

/**
 * The stored form of a body: always the JSON document, so the markdown a client reads is rendered from the
 * same copy every time. `field` names the body in messages (`body/body`).
 */
/**
 * Nodes in one comment body: a comment of 100,000 characters of real documentation (the markdown limit) has
 * about 4,000. Far fewer than a page may hold, so that a list of comments stays cheap to present: five table
 * comments of 96 KB (40,000 nodes each) took seconds to render as markdown and answered megabytes.
 */
export const MAX_COMMENT_NODES = 10_000;

function countNodesUpTo(document: unknown, limit: number): number {
  const stack: unknown[] = [document];
  let count = 0;
  while (stack.length > 0 && count <= limit) {
    const node = stack.pop() as { nodes?: unknown; leaves?: unknown; fragments?: unknown } | null;
    if (!node || typeof node !== 'object') continue;
    count += 1;
    for (const children of [node.nodes, node.leaves, node.fragments]) if (Array.isArray(children)) for (const child of children) stack.push(child);
  }
  return count;
}

function assertCommentSize(document: unknown, field: string): void {
  if (countNodesUpTo(document, MAX_COMMENT_NODES) > MAX_COMMENT_NODES) {
    throw badRequest(`${field} has more than ${MAX_COMMENT_NODES} nodes (the limit per comment); a longer text belongs in a page`);
  }
}

export async function documentOfBody(input: CommentBodyValue, field: string): Promise<Document> {
  if ((input.markdown === undefined) === (input.document === undefined)) {
    throw badRequest(`${field} needs exactly one of markdown (a string) or document (the JSON document)`);
  }
  if (input.markdown !== undefined) {
    if (input.markdown.trim() === '') throw badRequest(`${field}/markdown must not be empty`);
    // Links in a discussion are taken as written: only the fixed forms (/pages/<id>, /files/<id>, anchors) are references.
    const document = await parseMarkdownDocument(input.markdown, resolveFixedHrefOrUrl);
    const problem = documentProblem(document);
    if (problem !== null) throw badRequest(`${field}/markdown gives a document that ${problem.message}`);
    assertCommentSize(document, `${field}/markdown`);
    return document;
  }
  const document = input.document!;
  const problem = documentProblem(document);
  if (problem !== null) throw badRequest(`${field}/document${problem.path} ${problem.message}`);
  if (document.nodes.length === 0) throw badRequest(`${field}/document must have some content (nodes is empty)`);
  assertCommentSize(document, `${field}/document`);
  return document as Document;
}

/** At most this many characters of stored bodies behind the presented bodies held in all. */
const MAX_BODY_TEXT_HELD = 16 * 1024 * 1024;

/**
 * A stored body as the caller asked for it. What a body presents as depends on its text alone, so the
 * presented forms are kept per (format, text) for every thread: a list of comments would otherwise parse
 * (and render to markdown) every body on every request. Kept values are shared between responses and never
 * changed; `db` is a transaction inside writes, which has no cache.
 */
export function presentBody(db: object, stored: string, format: 'document' | 'markdown' | undefined): Promise<PresentedBody> {
  const cache = readCache<PresentedBody>(db, 'comments:bodies', {
    dependsOn: [],
    ttlMs: 600_000,
    max: 50_000,
    size: { maxSize: MAX_BODY_TEXT_HELD, of: (body) => ('markdown' in body ? body.markdown.length : 0) + stored.length },
  });
  return cachedRead(cache, `${format ?? 'document'} ${stored}`, async () => {
    return format === 'markdown' ? { markdown: await storedDocumentToMarkdown(stored) } : { document: JSON.parse(stored) as unknown };
  });
}

/** How long a node's preview (its text, as it reads) may be. */
const PREVIEW_LENGTH = 140;

type AnyNode = { key?: unknown; nodes?: unknown; fragments?: unknown; leaves?: unknown };

/** The node of a document with this key, searched through blocks, inlines and fragments. */
export function findNode(document: unknown, key: string): AnyNode | undefined {
  const stack: unknown[] = [document];
  while (stack.length > 0) {
    const node = stack.pop() as AnyNode | null;
    if (!node || typeof node !== 'object') continue;
    if (node.key === key && node !== document) return node;
    for (const children of [node.nodes, node.fragments]) if (Array.isArray(children)) stack.push(...children);
  }
  return undefined;
}

/** The plain text of a node, shortened for a comment's `target.node.preview`. */
export function nodePreview(node: AnyNode): string {
  const parts: string[] = [];
  const walk = (n: unknown) => {
    if (!n || typeof n !== 'object') return;
    const x = n as AnyNode;
    if (Array.isArray(x.leaves)) for (const leaf of x.leaves) parts.push(String((leaf as { text?: unknown }).text ?? ''));
    for (const children of [x.nodes, x.fragments]) if (Array.isArray(children)) children.forEach(walk);
    // Blocks read as separate words, not run together.
    if ((n as { object?: unknown }).object === 'block') parts.push(' ');
  };
  walk(node);
  const text = parts.join('').replace(/\s+/g, ' ').trim();
  return text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH - 1)}…` : text;
}
