import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { sendEventStream } from '../../platform/event-stream.ts';
import { prepareAnswer } from '../ask/service.ts';
import type { Document } from '../content/document/types.ts';
import { scopeOf, searchScopeOf, visitorViews } from '../search/site-search.ts';
import { pagesOfVariant, readerAsks, type SiteView } from './service.ts';
import { listedTree } from './site-view.ts';
import type { PageNode } from '../content/tree.ts';

/*
 * The published site's Ask (`~gitbook/ask?question=…`): a visitor's question answered from what the site shows
 * that visitor (visitor authentication, adaptive content and hidden pages applied, as its search), streamed as
 * server-sent events the reader's search dialog reads: each the whole answer so far, as blocks of plain text
 * (the dialog builds text nodes, never HTML), with the pages it cites and the follow-up questions.
 */

export { ASK_PATH } from './service.ts';

/** An answer as the reader's dialog shows it. */
export interface ReaderAnswer {
  blocks: { kind: 'paragraph' | 'heading' | 'item' | 'code'; text: string }[];
  sources: { title: string; href: string }[];
  followUps: string[];
  covered: boolean;
}

export async function sendVisitorAsk(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, view: SiteView, query: Record<string, unknown>) {
  reply.header('cache-control', 'no-store');
  if (!readerAsks(ctx, view)) return reply.status(404).send({ error: { code: 404, message: 'This site does not answer questions' } });
  const question = typeof query.question === 'string' ? query.question.trim() : '';
  if (question === '' || question.length > 512) return reply.status(400).send({ error: { code: 400, message: 'question: a question of 1 to 512 characters is required' } });
  const views = await visitorViews(ctx, view.site, view.visitor, scopeOf({ query: question, scope: { mode: 'all' } }));
  const prepared = await prepareAnswer(ctx, searchScopeOf(views), { question });
  const links = await visiblePageLinks(ctx, view);
  const titleOf = new Map(prepared.excerpts.map((e) => [`${e.spaceId}/${e.pageId}`, e.pageTitle]));
  await sendEventStream(request, reply, async function* (signal) {
    for await (const answer of prepared.answers(signal)) {
      const sources: ReaderAnswer['sources'] = [];
      for (const source of answer.sources) {
        const link = links(source.space, source.page);
        if (!link) continue;
        const anchor = source.sections[0];
        sources.push({ title: link.title || titleOf.get(`${source.space}/${source.page}`) || 'Page', href: anchor ? `${link.href}#${encodeURIComponent(anchor)}` : link.href });
      }
      const event: ReaderAnswer = { blocks: answerBlocks(answer.answer as unknown as Document), sources, followUps: answer.followupQuestions, covered: answer.sources.length > 0 };
      yield event;
    }
  });
}

/** The root-relative link of a page this visitor sees listed, by space and page, as the reader's search gives them. */
async function visiblePageLinks(ctx: AppContext, view: SiteView): Promise<(spaceId: string, pageId: string) => { title: string; href: string } | undefined> {
  const bySpace = new Map<string, { byId: ReadonlyMap<string, PageNode>; listed: Set<string>; url: (node: PageNode) => string }>();
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
    bySpace.set(variant.spaceId, { byId: pages.byId, listed, url: (node) => pages.url(node) });
  }
  return (spaceId, pageId) => {
    const found = bySpace.get(spaceId);
    const node = found?.byId.get(pageId);
    return found && node && found.listed.has(pageId) ? { title: node.page.title, href: found.url(node) } : undefined;
  };
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
