import type { BranchesTable, Executor, RevisionsTable } from '../../db/types.ts';
import { isPostgres } from '../../db/dialect.ts';
import { sql } from 'kysely';

export type BranchRow = BranchesTable;
export type RevisionRow = RevisionsTable;

export async function insertBranch(db: Executor, row: BranchRow): Promise<void> {
  await db.insertInto('branches').values(row).execute();
}

export async function findBranch(db: Executor, id: string): Promise<BranchRow | undefined> {
  return db.selectFrom('branches').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The branch row, locked until the transaction ends: writes to one branch take their turn, so sequence numbers
 * never collide. SQLite has a single writer already.
 */
export async function lockBranch(db: Executor, id: string): Promise<BranchRow | undefined> {
  let query = db.selectFrom('branches').selectAll().where('id', '=', id);
  if (isPostgres(db)) query = query.modifyEnd(sql`for update`);
  return query.executeTakeFirst();
}

export async function advanceBranch(db: Executor, id: string, changes: Pick<BranchRow, 'head_seq' | 'head_revision_id'> & Partial<BranchRow>): Promise<void> {
  await db.updateTable('branches').set(changes).where('id', '=', id).execute();
}

export async function insertRevisionRow(db: Executor, row: RevisionRow): Promise<void> {
  await db.insertInto('revisions').values(row).execute();
}

export async function findRevision(db: Executor, id: string): Promise<RevisionRow | undefined> {
  return db.selectFrom('revisions').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findRevisionAt(db: Executor, branchId: string, seq: number): Promise<RevisionRow | undefined> {
  return db.selectFrom('revisions').selectAll().where('branch_id', '=', branchId).where('seq', '=', seq).executeTakeFirst();
}
