import { sql, type SelectQueryBuilder } from 'kysely';
import type { PageRequest } from '../platform/pagination.ts';

/**
 * Keyset pagination: rows strictly after `page.after` in the order of `columns`, plus one row to tell whether
 * a next page exists. The last column must make the order total (an id). A deep page costs what the first does
 * when an index covers the columns.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function keysetPage<QB extends SelectQueryBuilder<any, any, any>>(
  query: QB,
  columns: readonly string[],
  order: 'asc' | 'desc',
  page: PageRequest,
): QB {
  let q = query;
  if (page.after) {
    if (page.after.length !== columns.length) throw new Error('cursor does not match the sort key');
    const left = sql.join(columns.map((c) => sql.ref(c)));
    const right = sql.join(page.after.map((v) => sql`${v}`));
    q = q.where(sql<boolean>`(${left}) ${sql.raw(order === 'asc' ? '>' : '<')} (${right})`) as QB;
  }
  for (const column of columns) q = q.orderBy(sql.ref(column), order) as QB;
  return q.limit(page.limit + 1) as QB;
}
