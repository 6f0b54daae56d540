import { sql, type Expression, type SqlBool } from 'kysely';
import { keysetPage } from '../../db/keyset.ts';
import type { Executor, SiteAgentFeedbackTable, SiteQuestionAnswersTable, SiteQuestionAnswerSourcesTable, SiteQuestionsTable } from '../../db/types.ts';
import type { PageRequest } from '../../platform/pagination.ts';

export type QuestionRow = SiteQuestionsTable;
export type AnswerRow = SiteQuestionAnswersTable;
export type AnswerSourceRow = SiteQuestionAnswerSourcesTable;
export type AgentFeedbackRow = SiteAgentFeedbackTable;

/** Which answers of a site count: the official filters of the question operations (each list: any of its values). */
export interface AnswerFilter {
  siteId: string;
  from?: string | undefined;
  to?: string | undefined;
  relevance?: readonly string[] | undefined;
  channelType?: readonly string[] | undefined;
  answered?: readonly string[] | undefined;
  questionType?: string | undefined;
  questionId?: string | undefined;
  language?: string | undefined;
  helpfulness?: string | undefined;
  threadId?: string | undefined;
  /** Site topics: Quire has none, so a topic filter matches nothing. */
  topic?: readonly string[] | undefined;
}

/** The counts behind SiteQuestionStats, of the answers a filter keeps. */
export interface AnswerCounts {
  questions: number;
  answers: number;
  positive: number;
  negative: number;
  unrated: number;
  yes: number;
  partially: number;
  no: number;
  relevant: number;
  spam: number;
  offTopic: number;
  unclear: number;
  exploring: number;
  howTo: number;
  troubleshooting: number;
  reference: number;
  unknown: number;
  site: number;
  api: number;
}

/** A question with the counts of its answers that a filter keeps. */
export type QuestionWithCounts = Pick<QuestionRow, 'id' | 'question' | 'type' | 'created_at'> & AnswerCounts & { asked_at: string };

/** How listSiteQuestions sorts: by the question's creation (the default), its last ask, answered rate, rating, answers. */
export type QuestionSort = 'created_at' | 'asked_at' | 'answered_rate' | 'feedback_score' | 'answers';

function answersOf(db: Executor, filter: AnswerFilter) {
  let query = db.selectFrom('site_question_answers as a').innerJoin('site_questions as q', 'q.id', 'a.question_id').where('a.site_id', '=', filter.siteId);
  if (filter.from !== undefined) query = query.where('a.created_at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('a.created_at', '<=', filter.to);
  if (filter.relevance?.length) query = query.where('a.relevance', 'in', [...filter.relevance]);
  if (filter.channelType?.length) query = query.where('a.channel_type', 'in', [...filter.channelType]);
  if (filter.answered?.length) query = query.where('a.answered', 'in', [...filter.answered]);
  if (filter.questionType !== undefined) query = query.where('q.type', '=', filter.questionType);
  if (filter.questionId !== undefined) query = query.where('a.question_id', '=', filter.questionId);
  if (filter.language !== undefined) query = query.where('a.language', '=', filter.language);
  if (filter.helpfulness !== undefined) query = query.where('a.helpfulness', '=', filter.helpfulness);
  if (filter.threadId !== undefined) query = query.where('a.thread_id', '=', filter.threadId);
  if (filter.topic?.length) query = query.where(sql<SqlBool>`1 = 0`);
  return query;
}

const count = (condition: Expression<SqlBool> | ReturnType<typeof sql<SqlBool>>) => sql<number>`sum(case when ${condition} then 1 else 0 end)`;
const equals = (column: string, value: string | number) => sql<SqlBool>`${sql.ref(column)} = ${value}`;

/** The aggregate columns of a set of answers `a` joined to their questions `q`. */
const COUNT_COLUMNS = [
  sql<number>`count(distinct a.question_id)`.as('questions'),
  sql<number>`count(a.id)`.as('answers'),
  count(equals('a.rating', 1)).as('positive'),
  count(equals('a.rating', -1)).as('negative'),
  count(sql<SqlBool>`a.rating is null`).as('unrated'),
  count(equals('a.answered', 'yes')).as('yes'),
  count(equals('a.answered', 'partially')).as('partially'),
  count(equals('a.answered', 'no')).as('no'),
  count(equals('a.relevance', 'relevant')).as('relevant'),
  count(equals('a.relevance', 'spam')).as('spam'),
  count(equals('a.relevance', 'off-topic')).as('offTopic'),
  count(equals('a.relevance', 'unclear')).as('unclear'),
  count(equals('q.type', 'exploring')).as('exploring'),
  count(equals('q.type', 'how-to')).as('howTo'),
  count(equals('q.type', 'troubleshooting')).as('troubleshooting'),
  count(equals('q.type', 'reference')).as('reference'),
  count(equals('q.type', 'unknown')).as('unknown'),
  count(equals('a.channel_type', 'site')).as('site'),
  count(equals('a.channel_type', 'api')).as('api'),
];

const COUNT_KEYS = ['questions', 'answers', 'positive', 'negative', 'unrated', 'yes', 'partially', 'no', 'relevant', 'spam', 'offTopic', 'unclear', 'exploring', 'howTo', 'troubleshooting', 'reference', 'unknown', 'site', 'api'] as const;

/** PostgreSQL answers counts and sums as strings (bigint, numeric). */
function numbersOf<T extends Record<string, unknown>>(row: T): AnswerCounts {
  return Object.fromEntries(COUNT_KEYS.map((key) => [key, Number(row[key] ?? 0)])) as unknown as AnswerCounts;
}

export async function answerCounts(db: Executor, filter: AnswerFilter): Promise<AnswerCounts> {
  const row = await answersOf(db, filter).select(COUNT_COLUMNS).executeTakeFirstOrThrow();
  return numbersOf(row);
}

/** When each kept answer was given since `since`, by question: the weekly pulse. */
export async function answerTimes(db: Executor, filter: AnswerFilter, since: string, questionIds?: readonly string[]): Promise<{ question_id: string; created_at: string }[]> {
  let query = answersOf(db, filter).where('a.created_at', '>=', since);
  if (questionIds) {
    if (questionIds.length === 0) return [];
    query = query.where('a.question_id', 'in', [...questionIds]);
  }
  return query.select(['a.question_id', 'a.created_at']).execute();
}

function questionsWithCounts(db: Executor, filter: AnswerFilter) {
  return answersOf(db, filter)
    .select(['q.id', 'q.question', 'q.type', 'q.created_at'])
    .select(sql<string>`max(a.created_at)`.as('asked_at'))
    .select(COUNT_COLUMNS)
    .select(sql<number>`cast(${count(equals('a.answered', 'yes'))} as double precision) / count(a.id)`.as('answered_rate'))
    .select(sql<number>`cast(${count(equals('a.rating', 1))} - ${count(equals('a.rating', -1))} as double precision) / count(a.id)`.as('feedback_score'))
    .groupBy(['q.id', 'q.question', 'q.type', 'q.created_at']);
}

/** The questions with at least one kept answer, each with the counts of those answers, in `sort` order. */
export async function listQuestions(db: Executor, filter: AnswerFilter, sort: QuestionSort, order: 'asc' | 'desc', page: PageRequest): Promise<(QuestionWithCounts & { answered_rate: number; feedback_score: number })[]> {
  const rows = await keysetPage(db.selectFrom(questionsWithCounts(db, filter).as('s')).selectAll(), [sort, 'id'], order, page).execute();
  return rows.map((row) => ({
    id: row.id,
    question: row.question,
    type: row.type,
    created_at: row.created_at,
    asked_at: row.asked_at,
    answered_rate: Number(row.answered_rate),
    feedback_score: Number(row.feedback_score),
    ...numbersOf(row),
  }));
}

export async function countQuestions(db: Executor, filter: AnswerFilter): Promise<number> {
  const row = await answersOf(db, filter).select(sql<number>`count(distinct a.question_id)`.as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findQuestion(db: Executor, siteId: string, id: string): Promise<QuestionRow | undefined> {
  return db.selectFrom('site_questions').selectAll().where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
}

/** The question of this text in the site, created on its first ask; its last ask is now. Answers its id. */
export async function recordQuestion(db: Executor, row: QuestionRow): Promise<string> {
  const kept = await db
    .insertInto('site_questions')
    .values(row)
    .onConflict((oc) => oc.columns(['site_id', 'text_key']).doUpdateSet({ asked_at: row.asked_at }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return kept.id;
}

export async function insertAnswer(db: Executor, row: AnswerRow, sources: readonly AnswerSourceRow[]): Promise<void> {
  await db.insertInto('site_question_answers').values(row).execute();
  if (sources.length > 0) await db.insertInto('site_question_answer_sources').values([...sources]).execute();
}

/** An answer of the site, with its question's type. */
export async function findAnswer(db: Executor, siteId: string, id: string): Promise<(AnswerRow & { question_type: string }) | undefined> {
  return answersOf(db, { siteId }).selectAll('a').select('q.type as question_type').where('a.id', '=', id).executeTakeFirst();
}

export async function updateAnswerRating(db: Executor, siteId: string, id: string, changes: Pick<AnswerRow, 'rating' | 'helpfulness' | 'updated_at'>): Promise<boolean> {
  const result = await db.updateTable('site_question_answers').set(changes).where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The answers a filter keeps, newest first, with their question's type. */
export async function listAnswers(db: Executor, filter: AnswerFilter, page: PageRequest): Promise<(AnswerRow & { question_type: string })[]> {
  return keysetPage(answersOf(db, filter).selectAll('a').select('q.type as question_type'), ['a.created_at', 'a.id'], 'desc', page).execute();
}

export async function countAnswers(db: Executor, filter: AnswerFilter): Promise<number> {
  const row = await answersOf(db, filter).select(sql<number>`count(a.id)`.as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A conversation: its answers in the order they were given. */
export async function answersOfThread(db: Executor, siteId: string, threadId: string): Promise<(AnswerRow & { question_type: string })[]> {
  return answersOf(db, { siteId, threadId }).selectAll('a').select('q.type as question_type').orderBy('a.created_at').orderBy('a.id').execute();
}

export async function sourcesOfAnswer(db: Executor, answerId: string, page: PageRequest): Promise<AnswerSourceRow[]> {
  return keysetPage(db.selectFrom('site_question_answer_sources').selectAll().where('answer_id', '=', answerId), ['position'], 'asc', page).execute();
}

export async function countSourcesOfAnswer(db: Executor, answerId: string): Promise<number> {
  const row = await db.selectFrom('site_question_answer_sources').select(sql<number>`count(*)`.as('n')).where('answer_id', '=', answerId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A page cited by a question's kept answers: how many cited it, its share of their citations, its latest revision and title. */
export interface QuestionSourceRow {
  space_id: string;
  page_id: string;
  revision_id: string;
  title: string;
  cited: number;
  weight: number;
}

function sourcesOfAnswers(db: Executor, filter: AnswerFilter) {
  const kept = answersOf(db, filter).select('a.id');
  return db
    .selectFrom('site_question_answer_sources as s')
    .innerJoin('site_question_answers as a', 'a.id', 's.answer_id')
    .where('s.answer_id', 'in', kept)
    .select(['s.space_id', 's.page_id'])
    .select(sql<number>`count(distinct s.answer_id)`.as('cited'))
    .select(sql<number>`sum(s.weight)`.as('weight'))
    // The newest answer's revision and title: what the page was when last cited.
    .select(sql<string>`max(a.created_at || ' ' || s.revision_id)`.as('latest_revision'))
    .select(sql<string>`max(a.created_at || ' ' || s.title)`.as('latest_title'))
    .groupBy(['s.space_id', 's.page_id']);
}

/** The pages a question's kept answers cited, the most cited first. */
export async function sourcesOfQuestion(db: Executor, filter: AnswerFilter, page: PageRequest): Promise<QuestionSourceRow[]> {
  const rows = await keysetPage(db.selectFrom(sourcesOfAnswers(db, filter).as('g')).selectAll(), ['cited', 'page_id'], 'desc', page).execute();
  const afterStamp = (value: string) => value.slice(value.indexOf(' ') + 1);
  return rows.map((row) => ({
    space_id: row.space_id,
    page_id: row.page_id,
    revision_id: afterStamp(row.latest_revision),
    title: afterStamp(row.latest_title),
    cited: Number(row.cited),
    weight: Number(row.weight),
  }));
}

export async function countSourcesOfQuestion(db: Executor, filter: AnswerFilter): Promise<number> {
  const row = await db.selectFrom(sourcesOfAnswers(db, filter).as('g')).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertAgentFeedback(db: Executor, row: AgentFeedbackRow): Promise<void> {
  await db.insertInto('site_agent_feedback').values(row).execute();
}

/** Agents' feedback about a site's content, newest first. */
export async function listAgentFeedback(db: Executor, siteId: string, page: PageRequest): Promise<AgentFeedbackRow[]> {
  return keysetPage(db.selectFrom('site_agent_feedback').selectAll().where('site_id', '=', siteId), ['created_at', 'id'], 'desc', page).execute();
}

export async function countAgentFeedback(db: Executor, siteId: string): Promise<number> {
  const row = await db.selectFrom('site_agent_feedback').select(sql<number>`count(*)`.as('n')).where('site_id', '=', siteId).executeTakeFirstOrThrow();
  return Number(row.n);
}
