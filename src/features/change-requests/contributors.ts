import type { AppContext, Caller } from '../../platform/context.ts';
import { presentUser } from '../users/present.ts';
import { loadChangeRequest } from './service.ts';
import { contributorsOf, type ContributionRow } from './store.ts';

export interface Contribution {
  userId: string;
  actionType: 'edit' | 'comment';
  count: number;
  updatedAt: string;
}

/**
 * One contribution per person and kind (a comment and its replies add up), the most recent first, then by
 * person: the official UserContributor list, whose order the spec leaves open.
 */
export function contributionsOf(edits: readonly Pick<ContributionRow, 'user_id' | 'count' | 'updated_at'>[], comments: readonly Pick<ContributionRow, 'user_id' | 'count' | 'updated_at'>[]): Contribution[] {
  const merged = new Map<string, Contribution>();
  const add = (actionType: 'edit' | 'comment', rows: readonly Pick<ContributionRow, 'user_id' | 'count' | 'updated_at'>[]) => {
    for (const row of rows) {
      const key = `${actionType} ${row.user_id}`;
      const seen = merged.get(key);
      const updatedAt = String(row.updated_at);
      if (!seen) merged.set(key, { userId: row.user_id, actionType, count: Number(row.count), updatedAt });
      else merged.set(key, { ...seen, count: seen.count + Number(row.count), updatedAt: updatedAt > seen.updatedAt ? updatedAt : seen.updatedAt });
    }
  };
  add('edit', edits);
  add('comment', comments);
  return [...merged.values()].sort((a, b) => (a.updatedAt !== b.updatedAt ? (a.updatedAt < b.updatedAt ? 1 : -1) : a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : a.actionType < b.actionType ? -1 : 1));
}

/** getContributorsByChangeRequestId: who edited the change request and who discussed it. */
export async function listChangeRequestContributors(ctx: AppContext, caller: Caller, spaceId: string, changeRequestId: string) {
  const { cr } = await loadChangeRequest(ctx, caller, spaceId, changeRequestId);
  const { edits, comments } = await contributorsOf(ctx.db, cr.id);
  const users = new Map([...edits, ...comments].map((row) => [row.user_id, row]));
  const items = contributionsOf(edits, comments).map((c) => {
    const user = users.get(c.userId)!;
    return { updatedAt: c.updatedAt, count: c.count, user: presentUser(ctx.config, { id: user.user_id, display_name: user.display_name, email: user.email, photo_url: user.photo_url }), actionType: c.actionType };
  });
  return { items, count: items.length };
}
