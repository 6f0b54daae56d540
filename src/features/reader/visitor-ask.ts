import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { sendEventStream } from '../../platform/event-stream.ts';
import { prepareAnswer } from '../ask/service.ts';
import { siteInstructions } from '../sites/agent-settings.ts';
import { rateAnswer, recordedAnswers, threadBefore } from '../site-questions/service.ts';
import { newId } from '../../platform/ids.ts';
import type { Document } from '../content/document/types.ts';
import { scopeOf, searchScopeOf, visitorViews } from '../search/site-search.ts';
import { documentOfPage, pagesOfVariant, readerAsks, type SiteView, type VariantPages } from './service.ts';
import type { Excerpt } from '../ask/prompt.ts';
import { listedTree } from './site-view.ts';
import type { PageNode } from '../content/tree.ts';
import { ifExpression } from '../content/document/nodes.ts';
import { documentsMaybeAdaptive } from '../content/service.ts';

/*
 * The published site's Ask (`~gitbook/ask?question=…`): a visitor's question answered from what the site shows
 * that visitor (visitor authentication, adaptive content and hidden pages applied, as its search), streamed as
 * server-sent events the reader's search dialog reads: each the whole answer so far, as blocks of plain text
 * (the dialog builds text nodes, never HTML), with the pages it cites and the follow-up questions.
 */

export { ASK_PATH } from './service.ts';

/** An answer as the reader's dialog shows it. */
export interface ReaderAnswer {
  /** The answer's id: a follow-up names it as `previous`, a rating as `answer`. */
  id: string;
  blocks: { kind: 'paragraph' | 'heading' | 'item' | 'code'; text: string }[];
  sources: { title: string; href: string }[];
  followUps: string[];
}

export async function sendVisitorAsk(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, view: SiteView, query: Record<string, unknown>) {
  reply.header('cache-control', 'no-store');
  if (!readerAsks(ctx, view)) return reply.status(404).send({ error: { code: 404, message: 'This site does not answer questions' } });
  const question = typeof query.question === 'string' ? query.question.trim() : '';
  if (question === '' || question.length > 512) return reply.status(400).send({ error: { code: 400, message: 'question: a question of 1 to 512 characters is required' } });
  // A follow-up names the answer it follows: its thread's earlier questions guide retrieval ("and how do I undo it?").
  const previousId = typeof query.previous === 'string' && query.previous !== '' ? query.previous : undefined;
  const thread = previousId ? await threadBefore(ctx, view.site.id, previousId) : undefined;
  const views = await visitorViews(ctx, view.site, view.visitor, scopeOf({ query: question, scope: { mode: 'all' } }));
  const pages = await visiblePages(ctx, view);
  // The index holds a page's whole text, adaptive blocks included: a page with a block this visitor's claims do
  // not open is left out of their prompt whole (which of its sections holds that block, the index does not say).
  // Most pages hold no adaptive block: their stored text, read for all candidates at once, says so, and only the
  // others are read whole and checked (reading every candidate's document put the p95 over 50 ms on SQLite).
  const admit = async (excerpts: Excerpt[]) => {
    const candidates = new Map<string, { found: VariantPages; node: PageNode } | undefined>();
    for (const { spaceId, pageId } of excerpts) {
      const key = `${spaceId}/${pageId}`;
      if (candidates.has(key)) continue;
      const found = pages.get(spaceId);
      const node = found?.byId.get(pageId);
      candidates.set(key, found && node ? { found, node } : undefined);
    }
    const stored = [...candidates.values()].flatMap((c) => (c && !c.found.generated.has(c.node.page.id) && c.node.page.documentId ? [c.node.page.documentId] : []));
    const adaptive = await documentsMaybeAdaptive(ctx, stored);
    const hiding = new Map<string, boolean>();
    for (const [key, candidate] of candidates) {
      if (!candidate) {
        hiding.set(key, true);
        continue;
      }
      const { found, node } = candidate;
      const documentId = node.page.documentId;
      if (!found.generated.has(node.page.id) && (!documentId || !adaptive.has(documentId))) {
        hiding.set(key, false);
        continue;
      }
      const document = await documentOfPage(ctx, found, node);
      hiding.set(key, document !== undefined && hidesFrom(document.nodes, view.holds));
    }
    return excerpts.filter((e) => !hiding.get(`${e.spaceId}/${e.pageId}`));
  };
  const instructions = await siteInstructions(view.site);
  const prepared = await prepareAnswer(ctx, searchScopeOf(views), { question, admit, ...(instructions ? { instructions } : {}), ...(thread ? { earlier: thread.earlier } : {}) });
  const links = linksOf(pages);
  const titleOf = new Map(prepared.excerpts.map((e) => [`${e.spaceId}/${e.pageId}`, e.pageTitle]));
  // Kept among what readers asked (site-questions) under this id, which the reader's follow-ups and rating name.
  const id = newId();
  const asking = { site: view.site, channel: 'site' as const, question, previous: thread?.previous };
  const answers = recordedAnswers(ctx, asking, id, prepared, (error) => request.log.error({ err: error }, 'a reader’s answer was not kept'));
  await sendEventStream(request, reply, async function* (signal) {
    for await (const answer of answers(signal)) {
      const sources: ReaderAnswer['sources'] = [];
      for (const source of answer.sources) {
        const link = links(source.space, source.page);
        if (!link) continue;
        const anchor = source.sections[0];
        sources.push({ title: link.title || titleOf.get(`${source.space}/${source.page}`) || 'Page', href: anchor ? `${link.href}#${encodeURIComponent(anchor)}` : link.href });
      }
      const event: ReaderAnswer = { id, blocks: answerBlocks(answer.answer as unknown as Document), sources, followUps: answer.followupQuestions };
      yield event;
    }
  });
}

/** A reader's thumbs up or down on an answer of this site (`{ answer, rating: 1 | -1 | null }`, JSON). */
export async function sendAskFeedback(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, view: SiteView) {
  reply.header('cache-control', 'no-store');
  if (!readerAsks(ctx, view)) return reply.status(404).send({ error: { code: 404, message: 'This site does not answer questions' } });
  // JSON only: a form posted from another site cannot rate (a JSON request from elsewhere needs CORS, which this path does not answer).
  if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) return reply.status(415).send({ error: { code: 415, message: 'The body must be JSON: { "answer": <id>, "rating": 1 | -1 | null }' } });
  const body = (request.body ?? {}) as { answer?: unknown; rating?: unknown };
  if (typeof body.answer !== 'string' || body.answer === '') return reply.status(400).send({ error: { code: 400, message: 'answer: the id of the answer rated is required' } });
  if (body.rating !== 1 && body.rating !== -1 && body.rating !== null) return reply.status(400).send({ error: { code: 400, message: 'rating: must be 1 (helpful), -1 (not helpful) or null (no rating)' } });
  await rateAnswer(ctx, view.site, body.answer, body.rating);
  return reply.status(204).send();
}

/** The pages of each space this visitor sees (through the first variant showing it), with the ids of the listed ones. */
async function visiblePages(ctx: AppContext, view: SiteView): Promise<Map<string, VariantPages & { listed: Set<string> }>> {
  const bySpace = new Map<string, VariantPages & { listed: Set<string> }>();
  for (const variant of view.visible.sections.flatMap((s) => s.variants)) {
    if (bySpace.has(variant.spaceId)) continue;
    const pages = await pagesOfVariant(ctx, view, variant);
    const listed = new Set<string>();
    const walk = (nodes: readonly PageNode[]) => {
      for (const node of nodes) {
        listed.add(node.page.id);
        walk(node.children);
      }
    };
    walk(listedTree(pages.visible));
    bySpace.set(variant.spaceId, { ...pages, listed });
  }
  return bySpace;
}

/** The root-relative link of a page this visitor sees listed, by space and page, as the reader's search gives them. */
function linksOf(bySpace: ReadonlyMap<string, VariantPages & { listed: Set<string> }>): (spaceId: string, pageId: string) => { title: string; href: string } | undefined {
  return (spaceId, pageId) => {
    const found = bySpace.get(spaceId);
    const node = found?.byId.get(pageId);
    return found && node && found.listed.has(pageId) ? { title: node.page.title, href: found.url(node) } : undefined;
  };
}

/** Whether a document holds an adaptive block (`if`) whose condition this visitor does not meet. */
function hidesFrom(nodes: readonly unknown[], holds: (expression: string) => boolean): boolean {
  return nodes.some((node) => {
    const block = node as { type?: string; data?: unknown; nodes?: unknown[] };
    if (block?.type === 'if') {
      const expression = ifExpression(block.data);
      if (expression === '' || !holds(expression)) return true;
    }
    return Array.isArray(block?.nodes) && hidesFrom(block.nodes, holds);
  });
}

/** A document's blocks as plain text: paragraphs, headings, list items and code, in order. */
export function answerBlocks(document: Document): ReaderAnswer['blocks'] {
  const blocks: ReaderAnswer['blocks'] = [];
  const textOf = (node: unknown): string => {
    const n = node as { object?: string; leaves?: { text: string }[]; nodes?: unknown[] };
    if (n.object === 'text') return (n.leaves ?? []).map((l) => l.text).join('');
    return (n.nodes ?? []).map(textOf).join('');
  };
  const walk = (nodes: readonly unknown[]) => {
    for (const node of nodes) {
      const n = node as { object?: string; type?: string; nodes?: unknown[] };
      if (n.object !== 'block') continue;
      if (n.type === 'paragraph') blocks.push({ kind: 'paragraph', text: textOf(n) });
      else if (n.type?.startsWith('heading')) blocks.push({ kind: 'heading', text: textOf(n) });
      else if (n.type === 'code') blocks.push({ kind: 'code', text: (n.nodes ?? []).map(textOf).join('\n') });
      else if (n.type === 'list-item') {
        const [first, ...rest] = n.nodes ?? [];
        blocks.push({ kind: 'item', text: textOf(first) });
        walk(rest);
      } else walk(n.nodes ?? []);
    }
  };
  walk(document.nodes);
  return blocks.filter((b) => b.text.trim() !== '');
}
