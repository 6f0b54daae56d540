import type { Static } from 'typebox';
import type { AppContext, Caller } from '../../platform/context.ts';
import { loadChangeRequest } from '../change-requests/service.ts';
import { openContent } from '../content/service.ts';
import { presentUser } from '../users/present.ts';
import { cachedUserById } from '../users/service.ts';
import type { CollaborationPresence } from './presence.ts';
import type { ChangeRequestPresence } from './schemas.ts';

/**
 * getChangeRequestPresence: for each page of the change request someone has open in an editor, who, in the order
 * of the pages' titles and of the people's names. Answered to whoever may read the change request (404 to others,
 * as every read of it); a page that is not in the change request any more (deleted since it was opened) is left out.
 */
export async function changeRequestPresence(
  ctx: AppContext,
  caller: Caller,
  presence: CollaborationPresence,
  spaceId: string,
  changeRequestId: string,
): Promise<Static<typeof ChangeRequestPresence>> {
  const { space, cr } = await loadChangeRequest(ctx, caller, spaceId, changeRequestId);
  const openers = await presence.openers(space.id, cr.id);
  if (openers.length === 0) return { object: 'change-request-presence', items: [] };
  const { snapshot } = await openContent(ctx, caller, { kind: 'change-request', spaceId: space.id, changeRequestId: cr.id });
  const pageIds = [...new Set(openers.map((o) => o.pageId))];
  const userIds = [...new Set(openers.map((o) => o.userId))];
  const [pages, users] = await Promise.all([Promise.all(pageIds.map((id) => snapshot.page(id))), Promise.all(userIds.map((id) => cachedUserById(ctx, id)))]);
  const userById = new Map(users.flatMap((user) => (user ? [[user.id, user] as const] : [])));
  const items = pages.flatMap((page) => {
    if (!page) return [];
    const people = openers
      .filter((o) => o.pageId === page.id && userById.has(o.userId))
      .map((o) => ({ user: presentUser(ctx.config, userById.get(o.userId)!), access: o.access }))
      .sort((a, b) => a.user.displayName.localeCompare(b.user.displayName));
    return people.length > 0 ? [{ page: { id: page.id, title: page.title }, people }] : [];
  });
  items.sort((a, b) => a.page.title.localeCompare(b.page.title));
  return { object: 'change-request-presence', items };
}
