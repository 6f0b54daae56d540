import type { Static } from 'typebox';
import type { AppContext, Caller } from '../../platform/context.ts';
import { ApiError, notFound } from '../../platform/errors.ts';
import { OrgAccess } from '../access/service.ts';
import { markdownToDocument } from '../content/document/to-document.ts';
import { assertOrganizationVisible } from '../organizations/policy.ts';
import { findOrganization } from '../organizations/queries.ts';
import { nearestSections, openingSectionsOf, relevantSections, sectionsByIds, type NearSection, type RelevantSection, type SearchScope, type SectionRow } from '../search/queries.ts';
import { fuseRankings } from './fusion.ts';
import { findSpaces, spaceIdsOf } from '../spaces/queries.ts';
import type { AiProvider } from '../../platform/ai-provider.ts';
import { answerMessages, questionWords, readAnswer, readQuestions, recommendationMessages, withinBudget, type Excerpt, type ReadAnswer } from './prompt.ts';
import type { SearchAIAnswer, SiteAskBody } from './schemas.ts';
import type { SitesTable as SiteRow } from '../../db/types.ts';
import { customizationOf } from '../sites/service.ts';
import { memberViews, scopeOf, searchScopeOf } from '../search/site-search.ts';
import { siteInstructions } from '../sites/agent-settings.ts';

type Answer = Static<typeof SearchAIAnswer>;

/** Sections read for a question, of which the best go to the model. */
const CANDIDATES = 30;
/** Sections of one page sent at most, so that one long page does not fill the prompt. */
const PER_PAGE = 3;
/** Excerpts sent at most. */
const EXCERPTS = 8;
/** Recommended questions answered at most. */
const RECOMMENDED = 5;
/** What an answer says when the docs do not cover the question. */
export const NOT_COVERED_TEXT = 'The documentation does not cover this question.';

/** A question to answer from a scope of the docs that the asker may read (already checked by the caller). */
export interface Question {
  question: string;
  /** A site's own instructions for its answers (its agent settings). */
  instructions?: string;
  /** Earlier questions of the conversation, whose words also guide retrieval (a follow-up says "it"). */
  earlier?: readonly string[];
  /** Keeps the retrieved excerpts the asker may read whole (a visitor: not a page with content their claims hide). */
  admit?: (excerpts: Excerpt[]) => Promise<Excerpt[]>;
}

/**
 * An answer ready to stream: the excerpts are retrieved (and access checked) before the first byte is sent, so
 * that what fails there is an ordinary error answer; `answers` then yields the whole answer so far each time the
 * model's reply grows, the last one complete.
 */
export interface PreparedAnswer {
  excerpts: Excerpt[];
  answers(signal?: AbortSignal): AsyncGenerator<Answer>;
  /** The reply as read once `answers` has ended (undefined before): whether the docs covered it, what it cited. */
  finished(): ReadAnswer | undefined;
}

/** What every Ask operation and screen says when no model is configured. */
export const ASK_IS_OFF = 'Ask is off on this server: its operator has not set AI_PROVIDER_URL (an OpenAI-compatible API) and AI_CHAT_MODEL';

export function askProvider(ctx: AppContext): AiProvider {
  if (!ctx.ai) throw new ApiError(400, ASK_IS_OFF);
  return ctx.ai;
}

/** Whether this server answers questions, told to a member of the organization (404 to anyone else). */
export async function askAvailability(ctx: AppContext, caller: Caller, organizationId: string) {
  await organizationScope(ctx, caller, organizationId);
  return { available: ctx.ai !== undefined, byMeaning: ctx.ai?.embeddings !== undefined, ...(ctx.ai ? {} : { message: ASK_IS_OFF }) };
}

/** The readable scope of a member (or an installation) in an organization, after the organization's own checks. */
export async function organizationScope(ctx: AppContext, caller: Caller, organizationId: string): Promise<SearchScope> {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertOrganizationVisible(access);
  if (!(await findOrganization(ctx.db, organizationId))) throw notFound(`No organization ${organizationId}`);
  return { spaceIds: await spaceIdsOf(ctx.db, { organizationId, scope: await access.readableScope() }) };
}

/**
 * The best sections for a question, a few per page, within the prompt's budget: the full-text ranking, fused with
 * the ranking by meaning when an embedding model is set (a question rarely uses the words of the section that
 * answers it). Both read the same scope, so that nothing outside it is ranked.
 */
export async function retrieve(ctx: AppContext, scope: SearchScope, question: string): Promise<Excerpt[]> {
  const [lexical, semantic] = await Promise.all([relevantSections(ctx.db, scope, questionWords(question), CANDIDATES), nearestSections(ctx, scope, question, CANDIDATES)]);
  const rows = semantic.length === 0 ? lexical : await fused(ctx, lexical, semantic);
  const perPage = new Map<string, number>();
  const chosen: Excerpt[] = [];
  for (const row of rows) {
    const key = `${row.space_id}/${row.page_id}`;
    const count = perPage.get(key) ?? 0;
    if (count >= PER_PAGE) continue;
    perPage.set(key, count + 1);
    chosen.push(excerptOf(row));
    if (chosen.length >= EXCERPTS) break;
  }
  return withinBudget(chosen);
}

/** The sections of both rankings in fused order (search/store.ts reads the text of those only the embedding found). */
async function fused(ctx: AppContext, lexical: readonly RelevantSection[], semantic: readonly NearSection[]): Promise<SectionRow[]> {
  const order = fuseRankings([lexical.map((r) => r.id), semantic.map((r) => r.id)]);
  const rows = new Map<number, SectionRow>(lexical.map((r) => [r.id, r]));
  for (const row of await sectionsByIds(ctx.db, order.filter((id) => !rows.has(id)).slice(0, CANDIDATES))) rows.set(row.id, row);
  return order.flatMap((id) => rows.get(id) ?? []);
}

function excerptOf(row: SectionRow): Excerpt {
  return { spaceId: row.space_id, pageId: row.page_id, anchor: row.anchor, pageTitle: row.title, heading: row.heading, body: row.body };
}

export async function prepareAnswer(ctx: AppContext, scope: SearchScope, question: Question): Promise<PreparedAnswer> {
  const provider = askProvider(ctx);
  const retrieved = await retrieve(ctx, scope, [...(question.earlier ?? []).slice(-2), question.question].join('\n'));
  const excerpts = question.admit ? await question.admit(retrieved) : retrieved;
  const revisions = new Map((await findSpaces(ctx.db, [...new Set(excerpts.map((e) => e.spaceId))])).map((s) => [s.id, s.revision_id]));
  const present = (read: ReadAnswer) => presentAnswer(read, excerpts, revisions);
  let finished: ReadAnswer | undefined;
  return {
    excerpts,
    finished: () => finished,
    async *answers(signal) {
      // Nothing in the docs matches: the model is not asked (it could only invent).
      if (excerpts.length === 0) {
        finished = { markdown: '', covered: false, cited: [], followUps: [] };
        yield present(finished);
        return;
      }
      const messages = answerMessages(question.question, excerpts, question.instructions ? { instructions: question.instructions } : {});
      let reply = '';
      let shown = '';
      for await (const piece of provider.chat(messages, signal)) {
        reply += piece;
        const read = readAnswer(reply, excerpts.length);
        // A piece that only grows a held-back marker changes nothing a reader sees.
        if (read.markdown !== shown && read.markdown.length > 0) {
          shown = read.markdown;
          yield present(read);
        }
      }
      const last = readAnswer(reply, excerpts.length);
      yield present(last);
      finished = last;
    },
  };
}

/** The official SearchAIAnswer of a reply read so far: the answer as a document, the cited pages as its sources. */
export function presentAnswer(read: ReadAnswer, excerpts: readonly Excerpt[], revisions: ReadonlyMap<string, string>): Answer {
  const markdown = read.covered ? read.markdown : NOT_COVERED_TEXT;
  const sources: Answer['sources'] = [];
  for (const index of read.cited) {
    const excerpt = excerpts[index]!;
    let source = sources.find((s) => s.space === excerpt.spaceId && s.page === excerpt.pageId);
    if (!source) {
      source = { type: 'page', page: excerpt.pageId, revision: revisions.get(excerpt.spaceId) ?? '', space: excerpt.spaceId, sections: [] };
      sources.push(source);
    }
    if (excerpt.anchor && !source.sections.includes(excerpt.anchor)) source.sections.push(excerpt.anchor);
  }
  return {
    answer: markdownToDocument(markdown, (href) => ({ kind: 'url', url: href })) as unknown as Answer['answer'],
    followupQuestions: read.covered ? read.followUps : [],
    sources,
  };
}

/** The whole answer: the last of the stream. */
export async function wholeAnswer(prepared: PreparedAnswer, signal?: AbortSignal): Promise<Answer> {
  let last: Answer | undefined;
  for await (const answer of prepared.answers(signal)) last = answer;
  return last!;
}

// Suggestions change only with the content: kept a few minutes per scope and revisions.
const RECOMMENDATIONS_TTL_MS = 10 * 60_000;
const recommendations = new Map<string, { at: number; questions: string[] }>();

/** Questions a reader could ask, which the scope's main pages answer (from the model, kept a few minutes). */
export async function recommendedQuestions(ctx: AppContext, scope: SearchScope, signal?: AbortSignal): Promise<string[]> {
  const provider = askProvider(ctx);
  const openings = await openingSectionsOf(ctx.db, scope, 12);
  if (openings.length === 0) return [];
  const revisions = (await findSpaces(ctx.db, [...new Set(openings.map((o) => o.space_id))])).map((s) => `${s.id}@${s.revision_id}`).sort();
  const key = `${revisions.join(',')}|${JSON.stringify(scope.excludedPages ?? [])}`;
  const kept = recommendations.get(key);
  const now = ctx.clock.now().getTime();
  if (kept && now - kept.at < RECOMMENDATIONS_TTL_MS) return kept.questions;
  let reply = '';
  for await (const piece of provider.chat(recommendationMessages(openings.map(excerptOf), RECOMMENDED), signal)) reply += piece;
  const questions = readQuestions(reply, RECOMMENDED);
  if (recommendations.size > 500) recommendations.clear();
  recommendations.set(key, { at: now, questions });
  return questions;
}

/** askInOrganization's and streamAskInOrganization's question, in what the asker may read of the organization. */
export async function prepareOrganizationAnswer(ctx: AppContext, caller: Caller, organizationId: string, query: string, previous: readonly string[] = []): Promise<PreparedAnswer> {
  // Access first: a caller who cannot see the organization learns nothing, not even whether Ask is on.
  const scope = await organizationScope(ctx, caller, organizationId);
  // The deprecated previousQueries carry questions without their answers: they guide retrieval only.
  return prepareAnswer(ctx, scope, { question: query, earlier: previous });
}

/** Whether a site answers questions: Ask is on for it unless its customization's `ai.mode` is `none`. */
export function assertSiteAsks(site: SiteRow): void {
  if (customizationOf(site).ai.mode === 'none') throw new ApiError(400, `Ask is off for site ${site.id}: its customization sets ai.mode to "none"`);
}

/**
 * streamAskInSite: a member's question in a scope of a site, answered from the site-spaces of the scope they can
 * read, as published (hidden pages left out).
 */
export async function prepareSiteAnswer(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, body: Static<typeof SiteAskBody>): Promise<{ site: SiteRow; prepared: PreparedAnswer }> {
  const { site, views } = await memberViews(ctx, caller, organizationId, siteId, scopeOf({ query: body.question, scope: body.scope }));
  askProvider(ctx);
  assertSiteAsks(site);
  const instructions = await siteInstructions(site);
  return { site, prepared: await prepareAnswer(ctx, searchScopeOf(views), { question: body.question, ...(instructions ? { instructions } : {}) }) };
}

/** streamRecommendedQuestionsInSite: questions the site's default content (or one site-space's) answers, for a member. */
export async function siteRecommendedQuestions(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, siteSpaceId: string | undefined, signal?: AbortSignal): Promise<string[]> {
  const scope = siteSpaceId ? { mode: 'specific' as const, ids: [siteSpaceId] } : { mode: 'default' as const, current: [] };
  const { site, views } = await memberViews(ctx, caller, organizationId, siteId, scope);
  askProvider(ctx);
  assertSiteAsks(site);
  return recommendedQuestions(ctx, searchScopeOf(views), signal);
}
