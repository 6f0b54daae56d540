import type { Static } from 'typebox';
import type { SitesTable as SiteRow } from '../../db/types.ts';
import { isoNow } from '../../platform/clock.ts';
import { authorOf, type AppContext, type Caller } from '../../platform/context.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Excerpt } from '../ask/prompt.ts';
import type { PreparedAnswer } from '../ask/service.ts';
import type { SearchAIAnswer, SiteAgentFeedbackBody } from '../ask/schemas.ts';
import { customizationOf, loadSite } from '../sites/service.ts';
import { siteSpacesOfSite } from '../sites/queries.ts';
import { mainPagePlaces } from '../content/revisions.ts';
import { answerHelpfulness, answerResolution, normalizedQuestion, questionKey, questionLanguage, questionRelevance, questionType } from './classify.ts';
import { presentAnswer, presentAnswerWithResponse, presentQuestion, presentQuestionSource, presentSource, presentStats, pulseStart, weeklyPulse } from './present.ts';
import type { SiteQuestionAnswersQuery, SiteQuestionQuery, SiteQuestionSourcesQuery, SiteQuestionsQuery, SiteQuestionStatsQuery } from './schemas.ts';
import {
  answerCounts,
  countAgentFeedback,
  insertAgentFeedback,
  listAgentFeedback,
  answersOfThread,
  answerTimes,
  countAnswers,
  countQuestions,
  countSourcesOfAnswer,
  countSourcesOfQuestion,
  findAnswer,
  findQuestion,
  insertAnswer,
  listAnswers,
  listQuestions,
  recordQuestion,
  sourcesOfAnswer,
  sourcesOfQuestion,
  updateAnswerRating,
  type AnswerFilter,
  type AnswerSourceRow,
  type QuestionSort,
} from './store.ts';

type Answer = Static<typeof SearchAIAnswer>;

/*
 * What readers asked a site's Ask: every answer the site gave (in the published site, channel `site`, or through
 * streamAskInSite, channel `api`) is kept with its question, the pages it cited and the reader's rating, so that
 * writers see what was asked, what the docs did not answer and what readers did not like. Nothing about the
 * asker is kept: no visitor, session or member id.
 */

/** Where an asked question comes from, and the conversation it continues. */
export interface Asking {
  site: SiteRow;
  channel: 'site' | 'api';
  question: string;
  /** The answer this question follows up (a thread of the same site), already loaded. */
  previous?: { id: string; threadId: string } | undefined;
}

/**
 * A thread's answers in the order of the conversation: each after the one it follows (two answers of one
 * millisecond are still in order), answers following the same one by time.
 */
export function inThreadOrder<T extends { id: string; previous_id: string | null }>(answers: readonly T[]): T[] {
  const ids = new Set(answers.map((a) => a.id));
  const following = new Map<string | null, T[]>();
  for (const answer of answers) {
    const previous = answer.previous_id !== null && ids.has(answer.previous_id) ? answer.previous_id : null;
    following.set(previous, [...(following.get(previous) ?? []), answer]);
  }
  const ordered: T[] = [];
  const visit = (previous: string | null) => {
    for (const answer of following.get(previous) ?? []) {
      ordered.push(answer);
      visit(answer.id);
    }
  };
  visit(null);
  return ordered;
}

/** The answer a follow-up continues, and the earlier questions of its thread (which guide retrieval). */
export async function threadBefore(ctx: AppContext, siteId: string, previousId: string): Promise<{ previous: { id: string; threadId: string }; earlier: string[] }> {
  const previous = await findAnswer(ctx.db, siteId, previousId);
  if (!previous) throw badRequest(`previous: no answer ${previousId} in this site`);
  const thread = inThreadOrder(await answersOfThread(ctx.db, siteId, previous.thread_id));
  const upTo = thread.slice(0, thread.findIndex((a) => a.id === previous.id) + 1);
  return { previous: { id: previous.id, threadId: previous.thread_id }, earlier: upTo.slice(-2).map((a) => a.raw) };
}

/**
 * The answers of `prepared`, streamed as they come; once the last is given (not when the asker left before), the
 * answer is kept under `answerId` with its question and sources, in one transaction. A failure to keep it is
 * reported to `failed` and does not take the answer from the asker.
 */
export function recordedAnswers(ctx: AppContext, asking: Asking, answerId: string, prepared: PreparedAnswer, failed: (error: unknown) => void) {
  return async function* (signal?: AbortSignal): AsyncGenerator<Answer> {
    let last: Answer | undefined;
    for await (const answer of prepared.answers(signal)) {
      last = answer;
      yield answer;
    }
    const read = prepared.finished();
    if (!last || !read || signal?.aborted) return;
    try {
      await keepAnswer(ctx, asking, answerId, last, read.covered, prepared.excerpts);
    } catch (error) {
      failed(error);
    }
  };
}

async function keepAnswer(ctx: AppContext, asking: Asking, answerId: string, answer: Answer, covered: boolean, excerpts: readonly Excerpt[]): Promise<void> {
  const now = isoNow(ctx.clock);
  const text = normalizedQuestion(asking.question);
  const answered = answerResolution(covered, answer.sources.length);
  const titles = new Map(excerpts.map((e) => [`${e.spaceId}/${e.pageId}`, e.pageTitle]));
  const sources: AnswerSourceRow[] = answer.sources.map((source, position) => ({
    answer_id: answerId,
    position,
    space_id: source.space,
    page_id: source.page,
    revision_id: source.revision,
    title: titles.get(`${source.space}/${source.page}`) ?? '',
    weight: Math.round((1 / answer.sources.length) * 1000) / 1000,
  }));
  await ctx.db.transaction().execute(async (trx) => {
    const questionId = await recordQuestion(trx, {
      id: newId(),
      site_id: asking.site.id,
      text_key: questionKey(text),
      question: text,
      type: questionType(text),
      created_at: now,
      asked_at: now,
    });
    await insertAnswer(
      trx,
      {
        id: answerId,
        site_id: asking.site.id,
        question_id: questionId,
        thread_id: asking.previous?.threadId ?? answerId,
        previous_id: asking.previous?.id ?? null,
        raw: asking.question.slice(0, 512),
        text,
        response: JSON.stringify(answer.answer ?? { object: 'document', data: {}, nodes: [] }),
        response_id: newId(),
        language: questionLanguage(text, customizationOf(asking.site).internationalization.locale),
        answered,
        helpfulness: answerHelpfulness(answered, null),
        relevance: questionRelevance(text, excerpts.length),
        channel_type: asking.channel,
        rating: null,
        created_at: now,
        updated_at: now,
      },
      sources,
    );
  });
}

/** A reader's thumbs up (1) or down (-1) on an answer of this site; null takes it back. */
export async function rateAnswer(ctx: AppContext, site: SiteRow, answerId: string, rating: 1 | -1 | null): Promise<void> {
  const answer = await findAnswer(ctx.db, site.id, answerId);
  if (!answer) throw notFound(`answer: no answer ${answerId} in this site`);
  const changed = await updateAnswerRating(ctx.db, site.id, answerId, {
    rating,
    helpfulness: answerHelpfulness(answer.answered as 'yes' | 'partially' | 'no', rating),
    updated_at: isoNow(ctx.clock),
  });
  if (!changed) throw notFound(`answer: no answer ${answerId} in this site`);
}

type StatsQuery = Static<typeof SiteQuestionQuery>;

/** The filter of a query's common part; `from` after `to` is refused, timestamps compared as stored (UTC ISO). */
function filterOf(siteId: string, query: StatsQuery & { topic?: string | readonly string[] | undefined }): AnswerFilter {
  if (query.from !== undefined && query.to !== undefined && Date.parse(query.from) > Date.parse(query.to)) {
    throw badRequest('querystring/from must not be after querystring/to');
  }
  const topic = query.topic === undefined ? undefined : typeof query.topic === 'string' ? [query.topic] : query.topic;
  return {
    siteId,
    from: query.from === undefined ? undefined : new Date(query.from).toISOString(),
    to: query.to === undefined ? undefined : new Date(query.to).toISOString(),
    relevance: query.relevance,
    channelType: query.channelType,
    answered: query.answered,
    topic,
  };
}

const listKeyOf = (name: string, filter: AnswerFilter, extra: unknown[] = []) => `${name}:${filter.siteId}:${JSON.stringify([filter, ...extra])}`;

async function readableSite(ctx: AppContext, caller: Caller, organizationId: string, siteId: string) {
  return (await loadSite(ctx, caller, organizationId, siteId, 'view', 'Reading what readers asked')).site;
}

const SORTS: Record<NonNullable<Static<typeof SiteQuestionsQuery>['sort']>, QuestionSort> = {
  askedAt: 'asked_at',
  'stats.answered': 'answered_rate',
  'stats.feedback': 'feedback_score',
  'stats.answers': 'answers',
};

/** The pulse of each question, from the times of its kept answers. */
async function pulsesOf(ctx: AppContext, filter: AnswerFilter, questionIds: readonly string[]): Promise<Map<string, number[]>> {
  const now = ctx.clock.now();
  const times = await answerTimes(ctx.db, filter, pulseStart(now), questionIds);
  const byQuestion = new Map<string, string[]>();
  for (const t of times) {
    const list = byQuestion.get(t.question_id);
    if (list) list.push(t.created_at);
    else byQuestion.set(t.question_id, [t.created_at]);
  }
  return new Map(questionIds.map((id) => [id, weeklyPulse(now, byQuestion.get(id) ?? [])]));
}

export async function listSiteQuestions(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, query: Static<typeof SiteQuestionsQuery>) {
  const site = await readableSite(ctx, caller, organizationId, siteId);
  const filter: AnswerFilter = { ...filterOf(site.id, query), questionType: query.type };
  const sort = query.sort === undefined ? 'created_at' : SORTS[query.sort];
  const order = query.order ?? 'desc';
  const listKey = listKeyOf('site-questions', filter, [sort, order]);
  const page = ctx.cursors.open(listKey, query, 20);
  const [rows, count] = await Promise.all([listQuestions(ctx.db, filter, sort, order, page), countQuestions(ctx.db, filter)]);
  const pulses = await pulsesOf(ctx, filter, rows.slice(0, page.limit).map((r) => r.id));
  return ctx.cursors.close(listKey, page, rows, count, (row) => [row[sort], row.id], (row) => presentQuestion(ctx.config, organizationId, site.id, row, pulses.get(row.id)!));
}

export async function getSiteQuestion(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, questionId: string, query: StatsQuery) {
  const site = await readableSite(ctx, caller, organizationId, siteId);
  const question = await findQuestion(ctx.db, site.id, questionId);
  if (!question) throw notFound(`No question ${questionId} in this site`);
  const filter: AnswerFilter = { ...filterOf(site.id, query), questionId: question.id };
  const counts = await answerCounts(ctx.db, filter);
  const pulses = await pulsesOf(ctx, filter, [question.id]);
  return presentQuestion(ctx.config, organizationId, site.id, { ...question, ...counts }, pulses.get(question.id)!);
}

export async function listSiteQuestionSources(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, questionId: string, query: Static<typeof SiteQuestionSourcesQuery>) {
  const site = await readableSite(ctx, caller, organizationId, siteId);
  const question = await findQuestion(ctx.db, site.id, questionId);
  if (!question) throw notFound(`No question ${questionId} in this site`);
  const filter: AnswerFilter = { ...filterOf(site.id, query), questionId: question.id };
  const listKey = listKeyOf('site-question-sources', filter);
  const page = ctx.cursors.open(listKey, query, 20);
  const [rows, count, answers] = await Promise.all([sourcesOfQuestion(ctx.db, filter, page), countSourcesOfQuestion(ctx.db, filter), countAnswers(ctx.db, filter)]);
  return ctx.cursors.close(listKey, page, rows, count, (row) => [row.cited, row.page_id], (row) => presentQuestionSource(ctx.config, row, answers));
}

export async function getSiteQuestionStats(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, query: Static<typeof SiteQuestionStatsQuery>) {
  const site = await readableSite(ctx, caller, organizationId, siteId);
  const filter = filterOf(site.id, query);
  const now = ctx.clock.now();
  const [counts, times] = await Promise.all([answerCounts(ctx.db, filter), answerTimes(ctx.db, filter, pulseStart(now))]);
  return presentStats(counts, weeklyPulse(now, times.map((t) => t.created_at)));
}

export async function listSiteQuestionAnswers(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, query: Static<typeof SiteQuestionAnswersQuery>) {
  const site = await readableSite(ctx, caller, organizationId, siteId);
  const filter: AnswerFilter = {
    ...filterOf(site.id, query),
    questionId: query.question,
    language: query.language,
    helpfulness: query.helpfulness,
    questionType: query['question.type'],
    threadId: query.thread,
  };
  const listKey = listKeyOf('site-question-answers', filter);
  const page = ctx.cursors.open(listKey, query, 20);
  const [rows, count] = await Promise.all([listAnswers(ctx.db, filter, page), countAnswers(ctx.db, filter)]);
  return ctx.cursors.close(listKey, page, rows, count, (row) => [row.created_at, row.id], (row) => presentAnswer(ctx.config, organizationId, row));
}

async function answerOf(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, answerId: string) {
  const site = await readableSite(ctx, caller, organizationId, siteId);
  const answer = await findAnswer(ctx.db, site.id, answerId);
  if (!answer) throw notFound(`No answer ${answerId} in this site`);
  return { site, answer };
}

export async function getSiteQuestionAnswer(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, answerId: string) {
  const { answer } = await answerOf(ctx, caller, organizationId, siteId, answerId);
  return presentAnswerWithResponse(ctx.config, organizationId, answer);
}

/** The conversation an answer belongs to, from its first question to its last follow-up. */
export async function getSiteQuestionAnswerThread(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, answerId: string) {
  const { site, answer } = await answerOf(ctx, caller, organizationId, siteId, answerId);
  return inThreadOrder(await answersOfThread(ctx.db, site.id, answer.thread_id)).map((row) => presentAnswerWithResponse(ctx.config, organizationId, row));
}

export async function listSiteQuestionAnswerSources(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, answerId: string, query: { page?: string | undefined; limit?: number | undefined }) {
  const { answer } = await answerOf(ctx, caller, organizationId, siteId, answerId);
  const listKey = `site-question-answer-sources:${answer.id}`;
  const page = ctx.cursors.open(listKey, query, 20);
  const [rows, count] = await Promise.all([sourcesOfAnswer(ctx.db, answer.id, page), countSourcesOfAnswer(ctx.db, answer.id)]);
  return ctx.cursors.close(listKey, page, rows, count, (row) => [row.position], (row) => presentSource(ctx.config, row));
}

/** submitSiteAgentFeedback: what an agent found wrong with a page of the site, kept for its writers (who may read the site). */
export async function submitAgentFeedback(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, body: Static<typeof SiteAgentFeedbackBody>): Promise<void> {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'view', 'Giving feedback');
  const spaces = await siteSpacesOfSite(ctx.db, site.id);
  if (!spaces.some((s) => s.space_id === body.spaceId)) throw badRequest(`body/spaceId: space ${body.spaceId} is not published by this site`);
  if (!(await mainPagePlaces(ctx.db, body.spaceId, [body.pageId])).has(body.pageId)) throw badRequest(`body/pageId: no page ${body.pageId} in space ${body.spaceId}`);
  await insertAgentFeedback(ctx.db, {
    id: newId(),
    site_id: site.id,
    feedback: body.feedback,
    goal: body.goal ?? null,
    url: body.url,
    space_id: body.spaceId,
    page_id: body.pageId,
    source: body.source ?? null,
    created_by: authorOf(caller),
    created_at: isoNow(ctx.clock),
  });
}

/** The feedback agents left about a site's content, newest first (Quire's own operation: the official one only takes it). */
export async function listSiteAgentFeedback(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, query: { page?: string | undefined; limit?: number | undefined }) {
  const site = await readableSite(ctx, caller, organizationId, siteId);
  const listKey = `site-agent-feedback:${site.id}`;
  const page = ctx.cursors.open(listKey, query, 20);
  const [rows, count] = await Promise.all([listAgentFeedback(ctx.db, site.id, page), countAgentFeedback(ctx.db, site.id)]);
  return ctx.cursors.close(listKey, page, rows, count, (row) => [row.created_at, row.id], (row) => ({
    object: 'site-agent-feedback' as const,
    id: row.id,
    feedback: row.feedback,
    ...(row.goal === null ? {} : { goal: row.goal }),
    url: row.url,
    spaceId: row.space_id,
    pageId: row.page_id,
    ...(row.source === null ? {} : { source: row.source as 'mcp' | 'assistant' }),
    createdAt: row.created_at,
  }));
}
