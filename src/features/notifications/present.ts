import type { Config } from '../../config.ts';
import { appUrl } from '../../platform/urls.ts';
import { presentUser } from '../users/present.ts';
import type { NotificationView } from './store.ts';

export function presentNotification(config: Config, row: NotificationView) {
  return {
    object: 'notification' as const,
    id: row.id,
    kind: row.kind as 'review_requested' | 'mention' | 'reply',
    title: noticeTitle(row.actor_name, row.title),
    ...(row.actor_id && row.actor_name !== null ? { actor: presentUser(config, { id: row.actor_id, display_name: row.actor_name, email: row.actor_email, photo_url: row.actor_photo }) } : {}),
    space: row.space_id,
    ...(row.change_request_id ? { changeRequest: row.change_request_id } : {}),
    ...(row.comment_id ? { comment: row.comment_id } : {}),
    read: row.read_at !== null,
    ...(row.read_at ? { readAt: row.read_at } : {}),
    createdAt: row.created_at,
    urls: { app: appUrl(config, row.app_path) },
  };
}

/** "Ann asked you to review #3 Better intro": the actor as named now, what happened as it was. */
export const noticeTitle = (actorName: string | null, what: string) => `${actorName ?? 'Someone'} ${what}`;
