import type { CompiledQuery } from 'kysely';
import { isPostgres } from './dialect.ts';
import type { Database, Executor } from './types.ts';

/**
 * An insert of one row with a fixed list of columns, built and compiled by Kysely once per dialect and then run
 * with each row's values. Kysely spends longer building and compiling a wide insert (about 150 µs for the 18
 * columns of a comment) than the database spends running it, and the hot writes (a comment, an event) insert
 * the same shape every time. Every column must be given (null, not undefined: Kysely would leave it out).
 */
export function preparedInsert<T extends keyof Database & string>(table: T, columns: readonly (keyof Database[T] & string)[]) {
  const compiled = new Map<boolean, CompiledQuery>();
  return async (db: Executor, row: { [C in keyof Database[T]]: unknown }): Promise<void> => {
    const postgres = isPostgres(db);
    let template = compiled.get(postgres);
    if (!template) {
      // Placeholder values: only the SQL text and the operation tree (which tables it writes) are kept.
      const placeholders = Object.fromEntries(columns.map((column) => [column, null]));
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      template = (db as any).insertInto(table).values(placeholders).compile() as CompiledQuery;
      compiled.set(postgres, template);
    }
    const values = columns.map((column) => {
      const value = (row as Record<string, unknown>)[column];
      if (value === undefined) throw new Error(`preparedInsert into ${table}: column ${column} has no value`);
      return value;
    });
    await db.executeQuery({ ...template, parameters: values });
  };
}
