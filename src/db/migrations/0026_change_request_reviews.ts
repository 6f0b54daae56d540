import type { Kysely } from 'kysely';
import { bytewise } from '../dialect.ts';

/**
 * Reviews of change requests and the reviews asked for (issue 29). A review is kept for good: a newer review by
 * the same person, or a new request to them, marks it `outdated` instead of replacing it, so the history of who
 * approved what stays readable; merge rules count only reviews that are not outdated. A request is one row per
 * (change request, person), and answering it with a review removes it (the review keeps who asked). Both are
 * indexed by person too, for the list of what a member is asked to review.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const c = bytewise(db);

  await db.schema
    .createTable('change_request_reviews')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('change_request_id', 'text', (col) => c(col.notNull().references('change_requests.id').onDelete('cascade')))
    .addColumn('reviewer_id', 'text', (col) => c(col.notNull()))
    // null: a review nobody asked for.
    .addColumn('requested_by', 'text', (col) => c(col))
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('revision_id', 'text', (col) => col.notNull())
    .addColumn('outdated', 'integer', (col) => col.notNull().defaultTo(0))
    // The comment posted with the review, in the change request's discussion.
    .addColumn('comment_id', 'text', (col) => c(col.references('comments.id').onDelete('set null')))
    .addColumn('created_at', 'text', (col) => c(col.notNull()))
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('change_request_reviews_by_change_request').on('change_request_reviews').columns(['change_request_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('change_request_reviews_by_reviewer').on('change_request_reviews').columns(['reviewer_id', 'created_at']).execute();

  await db.schema
    .createTable('change_request_reviewers')
    .addColumn('change_request_id', 'text', (col) => c(col.notNull().references('change_requests.id').onDelete('cascade')))
    .addColumn('user_id', 'text', (col) => c(col.notNull()))
    .addColumn('requested_by', 'text', (col) => c(col.notNull()))
    .addColumn('revision_id', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => c(col.notNull()))
    .addPrimaryKeyConstraint('change_request_reviewers_pk', ['change_request_id', 'user_id'])
    .execute();
  await db.schema.createIndex('change_request_reviewers_by_user').on('change_request_reviewers').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['change_request_reviewers', 'change_request_reviews']) await db.schema.dropTable(table).ifExists().execute();
}
