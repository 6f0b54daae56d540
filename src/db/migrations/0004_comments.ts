import type { Kysely } from 'kysely';
import { bytewise } from '../dialect.ts';

/**
 * Discussions on a space's content or on a change request. A comment's body is its JSON document (markdown is
 * rendered from it on output, so there is one copy to keep true). A comment remembers what its page was when
 * it was posted (document and title) to tell later whether the page has changed under it. Reactions are one row
 * per (subject, emoji, user): adding one twice, or from twenty requests at once, cannot miscount.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const c = bytewise(db);

  await db.schema
    .createTable('comments')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('space_id', 'text', (col) => c(col.notNull().references('spaces.id').onDelete('cascade')))
    // null: a comment on the space's own content.
    .addColumn('change_request_id', 'text', (col) => c(col.references('change_requests.id').onDelete('cascade')))
    .addColumn('author_id', 'text', (col) => c(col.notNull()))
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('revision_id', 'text', (col) => col.notNull())
    .addColumn('page_id', 'text', (col) => c(col))
    .addColumn('page_title', 'text')
    .addColumn('page_path', 'text')
    .addColumn('page_document_id', 'text')
    .addColumn('node_id', 'text')
    .addColumn('node_preview', 'text')
    .addColumn('table_cell', 'text')
    .addColumn('posted_at', 'text', (col) => c(col.notNull()))
    .addColumn('edited_at', 'text')
    .addColumn('resolved_at', 'text')
    .addColumn('resolved_by', 'text')
    .execute();
  await db.schema.createIndex('comments_by_thread').on('comments').columns(['space_id', 'change_request_id', 'posted_at', 'id']).execute();
  await db.schema.createIndex('comments_by_change_request').on('comments').columns(['change_request_id', 'status']).execute();
  await db.schema.createIndex('comments_by_page').on('comments').columns(['space_id', 'page_id']).execute();

  await db.schema
    .createTable('comment_replies')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('comment_id', 'text', (col) => c(col.notNull().references('comments.id').onDelete('cascade')))
    .addColumn('author_id', 'text', (col) => c(col.notNull()))
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('posted_at', 'text', (col) => c(col.notNull()))
    .addColumn('edited_at', 'text')
    .execute();
  await db.schema.createIndex('comment_replies_by_comment').on('comment_replies').columns(['comment_id', 'posted_at', 'id']).execute();

  await db.schema
    .createTable('comment_reactions')
    // The comment or the reply reacted to; comment_id is its thread, so deleting a thread takes its reactions.
    .addColumn('subject_id', 'text', (col) => c(col.notNull()))
    .addColumn('comment_id', 'text', (col) => c(col.notNull().references('comments.id').onDelete('cascade')))
    .addColumn('emoji', 'text', (col) => c(col.notNull()))
    .addColumn('user_id', 'text', (col) => c(col.notNull()))
    .addColumn('reacted_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('comment_reactions_pk', ['subject_id', 'emoji', 'user_id'])
    .execute();
  await db.schema.createIndex('comment_reactions_by_comment').on('comment_reactions').column('comment_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['comment_reactions', 'comment_replies', 'comments']) await db.schema.dropTable(table).ifExists().execute();
}
