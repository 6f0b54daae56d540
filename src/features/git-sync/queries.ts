import type { Executor } from '../../db/types.ts';
import { redirectSource } from './layout.ts';
import { findRedirect } from './store.ts';

/**
 * The page an old path of a space now leads to, from the redirects of its `.gitbook.yaml` (the reader answers
 * them with 301s); undefined when the path is not redirected or its page is gone from the import.
 */
export async function redirectOfSpace(db: Executor, spaceId: string, path: string): Promise<{ pageId: string; anchor: string | null } | undefined> {
  const source = redirectSource(path).replace(/\.md$/i, '');
  if (source === '') return undefined;
  const row = (await findRedirect(db, spaceId, source)) ?? (await findRedirect(db, spaceId, `${source}.md`));
  return row?.page_id ? { pageId: row.page_id, anchor: row.anchor } : undefined;
}
