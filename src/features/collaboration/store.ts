import type { CollaborationStatesTable, Executor } from '../../db/types.ts';

export type CollaborationStateRow = CollaborationStatesTable;

export async function findCollaborationState(db: Executor, name: string): Promise<CollaborationStateRow | undefined> {
  return db.selectFrom('collaboration_states').selectAll().where('name', '=', name).executeTakeFirst();
}

/** Writes the state of a collaboration document (inserted the first time, replaced after). */
export async function saveCollaborationState(db: Executor, row: CollaborationStateRow): Promise<void> {
  await db
    .insertInto('collaboration_states')
    .values(row)
    .onConflict((oc) => oc.column('name').doUpdateSet({ state: row.state, document_id: row.document_id, updated_at: row.updated_at }))
    .execute();
}
