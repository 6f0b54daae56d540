import type { Kysely } from 'kysely';
import { bytewise } from '../dialect.ts';

/**
 * What readers asked a site's Ask (features/site-questions): each question once per site by its normalized text,
 * each answer given (its text, how it was judged, the reader's rating, the thread it continues) and the pages it
 * cited. A site's agent settings (0.202.0's SiteAgentSettings: its custom instructions, which its answers
 * follow), and the feedback agents leave about its content (submitSiteAgentFeedback).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const c = bytewise(db);
  await db.schema
    .createTable('site_questions')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('site_id', 'text', (col) => col.notNull().references('sites.id').onDelete('cascade'))
    // Lowercase, single spaces, no closing punctuation: two readers' "How do I publish?" are one question.
    .addColumn('text_key', 'text', (col) => c(col.notNull()))
    .addColumn('question', 'text', (col) => col.notNull())
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('asked_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('site_questions_by_text').on('site_questions').columns(['site_id', 'text_key']).unique().execute();

  await db.schema
    .createTable('site_question_answers')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('site_id', 'text', (col) => col.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('question_id', 'text', (col) => col.notNull().references('site_questions.id').onDelete('cascade'))
    // The first answer of the conversation (this one's own id when it starts one), and the one it follows.
    .addColumn('thread_id', 'text', (col) => c(col.notNull()))
    .addColumn('previous_id', 'text', (col) => c(col))
    .addColumn('raw', 'text', (col) => col.notNull())
    .addColumn('text', 'text', (col) => col.notNull())
    .addColumn('response', 'text', (col) => col.notNull()) // JSON document: the answer as the asker read it
    .addColumn('response_id', 'text', (col) => col.notNull())
    .addColumn('language', 'text', (col) => col.notNull())
    .addColumn('answered', 'text', (col) => col.notNull()) // yes | partially | no
    .addColumn('helpfulness', 'text', (col) => col.notNull()) // low | medium | high: follows the rating
    .addColumn('relevance', 'text', (col) => col.notNull()) // relevant | spam | off-topic | unclear
    .addColumn('channel_type', 'text', (col) => col.notNull()) // site | api
    .addColumn('rating', 'integer') // the reader's -1 or 1; null: unrated
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('site_question_answers_by_site').on('site_question_answers').columns(['site_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('site_question_answers_by_question').on('site_question_answers').columns(['question_id', 'created_at']).execute();
  await db.schema.createIndex('site_question_answers_by_thread').on('site_question_answers').columns(['thread_id', 'created_at']).execute();

  await db.schema
    .createTable('site_question_answer_sources')
    .addColumn('answer_id', 'text', (col) => col.notNull().references('site_question_answers.id').onDelete('cascade'))
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('space_id', 'text', (col) => col.notNull())
    .addColumn('page_id', 'text', (col) => col.notNull())
    .addColumn('revision_id', 'text', (col) => col.notNull())
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('weight', 'real', (col) => col.notNull())
    .addPrimaryKeyConstraint('site_question_answer_sources_pk', ['answer_id', 'position'])
    .execute();

  await db.schema.alterTable('sites').addColumn('agent_settings', 'text').execute(); // JSON SiteAgentSettingsInput; null: the defaults
  await db.schema.alterTable('sites').addColumn('agent_settings_updated_at', 'text').execute();
  await db.schema.alterTable('sites').addColumn('agent_settings_updated_by', 'text').execute();

  await db.schema
    .createTable('site_agent_feedback')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('site_id', 'text', (col) => col.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('feedback', 'text', (col) => col.notNull())
    .addColumn('goal', 'text')
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('space_id', 'text', (col) => col.notNull())
    .addColumn('page_id', 'text', (col) => col.notNull())
    .addColumn('source', 'text')
    .addColumn('created_by', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('site_agent_feedback_by_site').on('site_agent_feedback').columns(['site_id', 'created_at', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('site_agent_feedback').ifExists().execute();
  await db.schema.alterTable('sites').dropColumn('agent_settings_updated_by').execute();
  await db.schema.alterTable('sites').dropColumn('agent_settings_updated_at').execute();
  await db.schema.alterTable('sites').dropColumn('agent_settings').execute();
  await db.schema.dropTable('site_question_answer_sources').ifExists().execute();
  await db.schema.dropTable('site_question_answers').ifExists().execute();
  await db.schema.dropTable('site_questions').ifExists().execute();
}
