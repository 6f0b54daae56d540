import type { Executor, NotificationsTable } from '../../db/types.ts';
import { keysetPage } from '../../db/keyset.ts';
import type { PageRequest } from '../../platform/pagination.ts';

export type NotificationRow = NotificationsTable;
export type NotificationView = NotificationRow & { actor_name: string | null; actor_email: string | null; actor_photo: string | null };

export async function insertNotifications(db: Executor, rows: readonly NotificationRow[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('notifications').values([...rows]).execute();
}

function withActor(db: Executor) {
  return db
    .selectFrom('notifications')
    .leftJoin('users', 'users.id', 'notifications.actor_id')
    .selectAll('notifications')
    .select(['users.display_name as actor_name', 'users.email as actor_email', 'users.photo_url as actor_photo']);
}

/** A person's notifications, newest first (only the unread ones with `unread`). */
export async function listNotificationsOf(db: Executor, userId: string, unread: boolean, page: PageRequest): Promise<NotificationView[]> {
  let q = withActor(db).where('notifications.user_id', '=', userId);
  if (unread) q = q.where('notifications.read_at', 'is', null);
  return keysetPage(q, ['notifications.created_at', 'notifications.id'], 'desc', page).execute();
}

export async function countNotificationsOf(db: Executor, userId: string, unread: boolean): Promise<number> {
  let q = db.selectFrom('notifications').select((eb) => eb.fn.countAll<number | string>().as('n')).where('user_id', '=', userId);
  if (unread) q = q.where('read_at', 'is', null);
  return Number((await q.executeTakeFirst())?.n ?? 0);
}

/** One notification of one person: another person's reads as none. */
export async function findNotificationOf(db: Executor, userId: string, id: string): Promise<NotificationView | undefined> {
  return withActor(db).where('notifications.id', '=', id).where('notifications.user_id', '=', userId).executeTakeFirst();
}

export async function setNotificationRead(db: Executor, userId: string, id: string, readAt: string | null): Promise<void> {
  await db.updateTable('notifications').set({ read_at: readAt }).where('id', '=', id).where('user_id', '=', userId).execute();
}

export async function markAllNotificationsRead(db: Executor, userId: string, readAt: string): Promise<void> {
  await db.updateTable('notifications').set({ read_at: readAt }).where('user_id', '=', userId).where('read_at', 'is', null).execute();
}

/** What a notification's mail needs: the row and its recipient's address. */
export async function findNotificationForMail(db: Executor, id: string) {
  return db
    .selectFrom('notifications')
    .innerJoin('users', 'users.id', 'notifications.user_id')
    .leftJoin('users as actor', 'actor.id', 'notifications.actor_id')
    .select(['notifications.id', 'notifications.title', 'notifications.app_path', 'users.email', 'actor.display_name as actor_name'])
    .where('notifications.id', '=', id)
    .executeTakeFirst();
}
