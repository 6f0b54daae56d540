import type { Static } from 'typebox';
import type { Config } from '../../config.ts';
import { apiUrl } from '../../platform/urls.ts';
import type { Helpfulness, QuestionType, Relevance, Resolution } from './classify.ts';
import type { SiteQuestion, SiteQuestionAnswer, SiteQuestionAnswerSource, SiteQuestionAnswerWithResponse, SiteQuestionStats } from './schemas.ts';
import type { AnswerCounts, AnswerRow, AnswerSourceRow, QuestionSourceRow, QuestionWithCounts } from './store.ts';

/** Weeks in the pulse of SiteQuestionStats. */
export const PULSE_WEEKS = 13;
const WEEK_MS = 7 * 24 * 3600_000;

/** Where the pulse starts: 13 weeks before `now`. */
export function pulseStart(now: Date): string {
  return new Date(now.getTime() - PULSE_WEEKS * WEEK_MS).toISOString();
}

/** Answers per week over the 13 weeks before `now`, the oldest week first. */
export function weeklyPulse(now: Date, times: readonly string[]): number[] {
  const pulse = new Array<number>(PULSE_WEEKS).fill(0);
  for (const time of times) {
    const weeksAgo = Math.floor((now.getTime() - Date.parse(time)) / WEEK_MS);
    if (weeksAgo >= 0 && weeksAgo < PULSE_WEEKS) pulse[PULSE_WEEKS - 1 - weeksAgo]! += 1;
  }
  return pulse;
}

export function presentStats(counts: AnswerCounts, pulse: number[], total = counts.questions): Static<typeof SiteQuestionStats> {
  const channelTypes: Record<string, number> = {};
  if (counts.site > 0) channelTypes.site = counts.site;
  if (counts.api > 0) channelTypes.api = counts.api;
  return {
    total,
    answers: counts.answers,
    feedback: { positive: counts.positive, negative: counts.negative, unrated: counts.unrated },
    answered: { yes: counts.yes, partially: counts.partially, no: counts.no },
    relevance: { relevant: counts.relevant, spam: counts.spam, 'off-topic': counts.offTopic, unclear: counts.unclear },
    types: { exploring: counts.exploring, 'how-to': counts.howTo, troubleshooting: counts.troubleshooting, reference: counts.reference, unknown: counts.unknown },
    channelTypes,
    // Quire has no configurable channels (Slack, Discord…): every answer came through a core one.
    channels: {},
    weeklyPulse: pulse,
  };
}

const sitePath = (organizationId: string, siteId: string) => `/orgs/${organizationId}/sites/${siteId}`;

export function presentQuestion(config: Config, organizationId: string, siteId: string, question: QuestionWithCounts, pulse: number[]): Static<typeof SiteQuestion> {
  return {
    object: 'site-question',
    id: question.id,
    question: question.question,
    type: question.type as QuestionType,
    createdAt: question.created_at,
    askedAt: question.asked_at,
    stats: presentStats(question, pulse, 1),
    urls: { location: apiUrl(config, `${sitePath(organizationId, siteId)}/questions/${question.id}`) },
  };
}

export function presentAnswer(config: Config, organizationId: string, row: AnswerRow & { question_type: string }): Static<typeof SiteQuestionAnswer> {
  return {
    object: 'site-question-answer',
    id: row.id,
    question: { id: row.question_id, type: row.question_type as QuestionType },
    topics: [],
    input: { text: row.text, raw: row.raw },
    ...(row.previous_id === null ? {} : { thread: { id: row.thread_id, previous: row.previous_id } }),
    ...(row.rating === 1 || row.rating === -1 ? { feedback: { rating: row.rating } } : {}),
    responseId: row.response_id,
    language: row.language,
    answered: row.answered as Resolution,
    helpfulness: row.helpfulness as Helpfulness,
    relevance: row.relevance as Relevance,
    channel: { type: row.channel_type as 'site' | 'api' },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    urls: { location: apiUrl(config, `${sitePath(organizationId, row.site_id)}/answers/${row.id}`) },
  };
}

/** The answer with what the asker read: the model's message, one step whose content is the answer's document. */
export function presentAnswerWithResponse(config: Config, organizationId: string, row: AnswerRow & { question_type: string }): Static<typeof SiteQuestionAnswerWithResponse> {
  return {
    ...presentAnswer(config, organizationId, row),
    response: {
      id: row.response_id,
      role: 'assistant',
      steps: [{ content: JSON.parse(row.response) as never }],
      response: { id: row.response_id },
      createdAt: row.created_at,
    },
  };
}

export function presentSource(config: Config, source: Pick<AnswerSourceRow, 'space_id' | 'page_id' | 'revision_id' | 'title' | 'weight'>): Static<typeof SiteQuestionAnswerSource> {
  return {
    object: 'site-question-answer-source',
    id: source.page_id,
    weight: source.weight,
    title: source.title,
    urls: { location: apiUrl(config, `/spaces/${source.space_id}/content/page/${source.page_id}`) },
    type: 'page',
    space: source.space_id,
    revision: source.revision_id,
    page: source.page_id,
  };
}

/** A page cited by a question's answers: its weight is its share of all their citations. */
export function presentQuestionSource(config: Config, source: QuestionSourceRow, answers: number): Static<typeof SiteQuestionAnswerSource> {
  return presentSource(config, { ...source, weight: answers === 0 ? 0 : Math.round((source.weight / answers) * 1000) / 1000 });
}
