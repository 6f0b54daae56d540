import { Type } from 'typebox';
import { literalUnion, Timestamp } from '../../platform/schemas.ts';
import { JSONDocument } from '../content/schemas.ts';
import { SiteIdParams } from '../sites/schemas.ts';

/*
 * The official shapes of what readers asked a site (0.202.0, tag site-questions): SiteQuestion, its stats,
 * SiteQuestionAnswer with its response, and their sources; and the queries of the eight operations that list them.
 */

export const SiteQuestionType = literalUnion(['exploring', 'how-to', 'troubleshooting', 'reference', 'unknown'], { description: 'Type classification of the user question.' });
export const SiteQuestionAnswerRelevance = literalUnion(['relevant', 'spam', 'off-topic', 'unclear']);
export const SiteQuestionAnswerResolution = literalUnion(['no', 'partially', 'yes']);
export const SiteQuestionAnswerHelpfulness = literalUnion(['low', 'medium', 'high']);
/** Core channels only: Quire's Ask answers in the published site (`site`) and through the API (`api`). */
const SiteCoreChannelType = literalUnion(['site', 'embed', 'api']);
const SiteConfigurableChannelType = literalUnion(['builtin:slack', 'builtin:discord', 'builtin:github', 'builtin:linear']);
const SiteChannelType = Type.Union([SiteCoreChannelType, SiteConfigurableChannelType]);

const counts = <K extends string>(keys: readonly K[]) => Type.Object(Object.fromEntries(keys.map((k) => [k, Type.Number()])) as Record<K, ReturnType<typeof Type.Number>>);

export const SiteQuestionStats = Type.Object(
  {
    total: Type.Number({ description: 'Questions counted' }),
    answers: Type.Number({ description: 'Answers to them' }),
    feedback: counts(['positive', 'negative', 'unrated']),
    answered: counts(['yes', 'partially', 'no']),
    relevance: counts(['relevant', 'spam', 'off-topic', 'unclear']),
    types: counts(['exploring', 'how-to', 'troubleshooting', 'reference', 'unknown']),
    channelTypes: Type.Record(Type.String(), Type.Number()),
    channels: Type.Record(Type.String(), Type.Number()),
    weeklyPulse: Type.Array(Type.Number(), { minItems: 13, maxItems: 13, description: 'Answers per week over the past 13 weeks, the oldest first' }),
  },
  { $id: 'SiteQuestionStats' },
);

const Location = Type.Object({ location: Type.String({ format: 'uri' }) });

export const SiteQuestion = Type.Object(
  {
    object: Type.Literal('site-question'),
    id: Type.String(),
    question: Type.String({ description: 'Canonical text for the unique site question.' }),
    type: SiteQuestionType,
    createdAt: Timestamp,
    askedAt: Timestamp,
    stats: SiteQuestionStats,
    urls: Location,
  },
  { $id: 'SiteQuestion' },
);

export const SiteQuestionAnswer = Type.Object(
  {
    object: Type.Literal('site-question-answer'),
    id: Type.String(),
    question: Type.Object({ id: Type.String(), type: SiteQuestionType }),
    topics: Type.Array(Type.String()),
    input: Type.Object({ text: Type.String(), raw: Type.String() }),
    thread: Type.Optional(Type.Object({ id: Type.String(), previous: Type.String() })),
    feedback: Type.Optional(Type.Object({ rating: Type.Union([Type.Literal(-1), Type.Literal(1)]) })),
    responseId: Type.String(),
    language: Type.String(),
    answered: SiteQuestionAnswerResolution,
    helpfulness: SiteQuestionAnswerHelpfulness,
    relevance: SiteQuestionAnswerRelevance,
    channel: Type.Object({ type: SiteCoreChannelType }),
    createdAt: Timestamp,
    updatedAt: Type.Optional(Timestamp),
    urls: Location,
  },
  { $id: 'SiteQuestionAnswer' },
);

/** The official AIMessage of an answer: the assistant's one step, its content the answer as the asker read it. */
const AIMessage = Type.Object({
  id: Type.String(),
  role: literalUnion(['user', 'assistant', 'developer']),
  steps: Type.Array(Type.Object({ content: Type.Optional(JSONDocument) })),
  response: Type.Optional(Type.Object({ id: Type.Optional(Type.String()), previous: Type.Optional(Type.String()) })),
  createdAt: Type.Optional(Type.String({ format: 'date-time' })),
});

export const SiteQuestionAnswerWithResponse = Type.Intersect([SiteQuestionAnswer, Type.Object({ response: AIMessage })], { $id: 'SiteQuestionAnswerWithResponse' });

export const SiteQuestionAnswerSource = Type.Object(
  {
    object: Type.Literal('site-question-answer-source'),
    id: Type.String(),
    weight: Type.Number({ description: 'Share of the citations of the answers (of this answer, or of the question’s) that went to this page' }),
    title: Type.String(),
    urls: Location,
    type: Type.Literal('page'),
    space: Type.String(),
    revision: Type.String(),
    page: Type.String(),
  },
  { $id: 'SiteQuestionAnswerSource' },
);

export const SiteQuestionParams = Type.Object({ ...SiteIdParams.properties, siteQuestionId: Type.String({ minLength: 1 }) });
export const SiteQuestionAnswerParams = Type.Object({ ...SiteIdParams.properties, siteQuestionAnswerId: Type.String({ minLength: 1 }) });

const ListPage = {
  page: Type.Optional(Type.String({ description: 'Identifier of the page results to fetch.' })),
  limit: Type.Optional(Type.Number({ minimum: 0, maximum: 1000, description: 'The number of results per page' })),
};
const many = <T extends ReturnType<typeof literalUnion>>(values: T, description: string) => Type.Optional(Type.Array(values, { description }));
const StatsFilters = {
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Answers created at or after this timestamp' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Answers created at or before this timestamp' })),
  relevance: many(SiteQuestionAnswerRelevance, 'Answers of these relevances'),
  channelType: Type.Optional(Type.Array(Type.String(), { description: 'Answers of these channel types (site, embed, api, …)' })),
  answered: many(SiteQuestionAnswerResolution, 'Answers of these resolutions'),
};

export const SiteQuestionsQuery = Type.Object({
  ...StatsFilters,
  type: Type.Optional(SiteQuestionType),
  topic: Type.Optional(Type.Array(Type.String(), { description: 'Site topics (Quire has none: a topic matches no question)' })),
  order: Type.Optional(literalUnion(['asc', 'desc'], { default: 'desc' })),
  sort: Type.Optional(literalUnion(['askedAt', 'stats.answered', 'stats.feedback', 'stats.answers'])),
  ...ListPage,
});

export const SiteQuestionQuery = Type.Object(StatsFilters);

export const SiteQuestionSourcesQuery = Type.Object({ ...StatsFilters, ...ListPage });

export const SiteQuestionStatsQuery = Type.Object({
  ...StatsFilters,
  topic: Type.Optional(Type.Array(Type.String(), { description: 'Site topics (Quire has none: a topic matches no answer)' })),
});

export const SiteQuestionAnswersQuery = Type.Object({
  question: Type.Optional(Type.String({ description: 'Answers to this site question' })),
  from: StatsFilters.from,
  to: StatsFilters.to,
  language: Type.Optional(Type.String({ description: 'Answers to questions in this ISO language' })),
  answered: StatsFilters.answered,
  helpfulness: Type.Optional(SiteQuestionAnswerHelpfulness),
  relevance: StatsFilters.relevance,
  channelType: StatsFilters.channelType,
  'question.type': Type.Optional(SiteQuestionType),
  topic: Type.Optional(Type.String({ description: 'A site topic (Quire has none: it matches no answer)' })),
  thread: Type.Optional(Type.String({ description: 'The answers of the thread this answer starts, itself included' })),
  ...ListPage,
});

export const ListPageQuery = Type.Object(ListPage);

export { SiteChannelType };
