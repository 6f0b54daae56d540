import type { BundledLanguage } from 'shiki';
import type { Code } from '../content/document/types.ts';
import { readPublishedContent, readPublishedDocument } from '../content/service.ts';
import type { PageNode } from '../content/tree.ts';
import { publishedSitesOfSpace } from '../sites/service.ts';
import type { AppContext } from '../../platform/context.ts';
import { onPublication, type Publication } from '../../platform/publications.ts';
import { backgroundHighlightingDone, highlightLater } from './background-highlighting.ts';
import { MAX_DEPTH } from './heading-anchors.ts';
import { languageOf, prepareHighlighter } from './highlight.ts';
import { codeLines } from './render-code.tsx';
import { siteStateAt } from './site-state.ts';

/*
 * Code highlighted before its first reader: when a site is published, or a space a published site shows gets a new
 * revision (a merge, a live edit, an import), the code blocks of that revision's pages go to the background queue
 * (background-highlighting.ts), so a reader's render finds their tokens cached and the page whole at once. Bounded:
 * a few publications wait at a time, and of each, the first MAX_PAGES pages not warmed before and MAX_CHARS of code;
 * what is left out is highlighted when a reader's render first meets it. Work for one publication at a time, a page
 * at a time. A document's id is the hash of its content (content/document-store.ts), so a document warmed once is
 * warm in every revision that keeps it: a merge that changed one page of a published space reads that one page.
 */

const MAX_WAITING_PUBLICATIONS = 16;
const MAX_PAGES = 200;
const MAX_CHARS = 400_000;
// The token cache holds 2,000 blocks: the code of one revision must not push out everything else.
const MAX_BLOCKS = 1_000;
// A site published or a revision made several times over (a retry, a republish) is warmed once.
const REMEMBERED_REVISIONS = 256;
// Documents whose code was highlighted whole: the pages of the largest site warmed at once, twice over.
const REMEMBERED_DOCUMENTS = 8_192;
// Spaces of a published site whose revisions are highlighted.
const MAX_SPACES_OF_SITE = 20;

const work = new WeakMap<object, () => Promise<void>>();

/**
 * Highlights the code of what `ctx`'s application publishes, from now until the returned stop is called. `warn`
 * hears what failed (the work is a bonus: a reader's render highlights what it did not).
 */
export function highlightAheadOfReaders(ctx: AppContext, warn: (error: unknown) => void): () => void {
  const waiting: Publication[] = [];
  const warmed = new Set<string>();
  const warmedDocuments = new Set<string>();
  let running: Promise<void> | undefined;
  let stopped = false;

  const run = async () => {
    try {
      while (waiting.length > 0 && !stopped) {
        const publication = waiting.shift()!;
        try {
          for (const revisionId of await revisionsOf(ctx, publication)) {
            if (stopped || warmed.has(revisionId)) continue;
            await highlightRevision(ctx, revisionId, warmedDocuments, () => stopped);
            remember(warmed, revisionId, REMEMBERED_REVISIONS);
          }
        } catch (error) {
          if (!stopped) warn(error);
        }
      }
    } finally {
      running = undefined;
    }
  };
  const unsubscribe = onPublication(ctx.db, (publication) => {
    if (waiting.length >= MAX_WAITING_PUBLICATIONS) return;
    waiting.push(publication);
    // Not in the publishing request: after it has been answered.
    running ??= new Promise<void>((resolve) => setImmediate(resolve)).then(run);
  });
  work.set(ctx.db, async () => {
    while (running) await running;
    await backgroundHighlightingDone();
  });
  return () => {
    stopped = true;
    unsubscribe();
  };
}

/** Resolves when the code of what was published so far is highlighted (for tests and the bench). */
export function highlightedAhead(ctx: AppContext): Promise<void> {
  return work.get(ctx.db)?.() ?? backgroundHighlightingDone();
}

/** The published revisions a publication makes new: a site's spaces', or the space's if a published site shows it. */
async function revisionsOf(ctx: AppContext, publication: Publication): Promise<string[]> {
  if (publication.kind === 'space') {
    const sites = await publishedSitesOfSpace(ctx, publication.organizationId, publication.spaceId, 1);
    return sites.length > 0 ? [publication.revisionId] : [];
  }
  const state = await siteStateAt(ctx, publication.siteId);
  if (!state || state.site.published !== 1) return [];
  return [...new Set(state.tree.siteSpaces.slice(0, MAX_SPACES_OF_SITE).map((siteSpace) => siteSpace.space.revision_id))];
}

async function highlightRevision(ctx: AppContext, revisionId: string, warmedDocuments: Set<string>, stopped: () => boolean): Promise<void> {
  const { tree } = await readPublishedContent(ctx, revisionId);
  let chars = 0;
  let blocks = 0;
  for (const documentId of documentsToWarm(tree, warmedDocuments)) {
    if (stopped() || chars >= MAX_CHARS || blocks >= MAX_BLOCKS) return;
    const document = await readPublishedDocument(ctx, documentId);
    const code = codeOf(document);
    if (code.length > 0) await prepareHighlighter(code.map((block) => block.language));
    for (const block of code) {
      // A document cut short is not remembered: the next publication that shows it finishes it.
      if (chars + block.code.length > MAX_CHARS || blocks >= MAX_BLOCKS) return;
      if (!highlightLater(block.language, block.code)) return;
      chars += block.code.length;
      blocks += 1;
    }
    remember(warmedDocuments, documentId, REMEMBERED_DOCUMENTS);
    // One page's reading and parsing at a time: requests go between them.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** A bounded set of what was warmed: the oldest goes first. */
function remember(set: Set<string>, id: string, max: number): void {
  set.add(id);
  if (set.size > max) set.delete(set.values().next().value!);
}

/**
 * The documents of the revision's pages, in tree order, once each, without those warmed before (which move to the
 * back of the set: a document every revision keeps stays remembered), at most MAX_PAGES.
 */
function documentsToWarm(tree: readonly PageNode[], warmedDocuments: Set<string>): string[] {
  const out = new Set<string>();
  const stack = [...tree].reverse();
  while (stack.length > 0 && out.size < MAX_PAGES) {
    const node = stack.pop()!;
    const id = node.page.kind === 'document' ? node.page.documentId : null;
    if (id && warmedDocuments.has(id)) {
      warmedDocuments.delete(id);
      warmedDocuments.add(id);
    } else if (id) out.add(id);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return [...out];
}

/** The code blocks of a document that a render would highlight, as renderCode reads them. */
function codeOf(document: unknown): { language: BundledLanguage; code: string }[] {
  const out: { language: BundledLanguage; code: string }[] = [];
  const root = document as { nodes?: unknown[] } | undefined;
  const stack: { node: unknown; depth: number }[] = (root?.nodes ?? []).map((node) => ({ node, depth: 0 }));
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (!node || typeof node !== 'object' || depth > MAX_DEPTH) continue;
    const block = node as { type?: string; data?: { syntax?: string }; nodes?: unknown[]; fragments?: { nodes?: unknown[] }[] };
    if (block.type === 'code') {
      const language = languageOf(block.data?.syntax);
      if (language) out.push({ language, code: codeLines(block as Code).join('\n') });
      continue;
    }
    for (const child of block.nodes ?? []) stack.push({ node: child, depth: depth + 1 });
    for (const fragment of block.fragments ?? []) for (const child of fragment?.nodes ?? []) stack.push({ node: child, depth: depth + 1 });
  }
  return out.reverse();
}
