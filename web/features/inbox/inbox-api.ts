import { queryOptions } from '@tanstack/react-query';
import { api, type ListPage } from '../../api/client.ts';

/** One notification of /v1/user/notifications (Quire's own routes: GitBook's API has none). */
export interface Notification {
  id: string;
  kind: 'review_requested' | 'mention' | 'reply';
  title: string;
  read: boolean;
  createdAt: string;
  urls: { app: string };
}

export const inboxKeys = { all: ['user', 'notifications'] as const };

/** The unread count for the header, refreshed every minute while the app is open. */
export const unreadQuery = () =>
  queryOptions({
    queryKey: [...inboxKeys.all, 'summary'] as const,
    queryFn: ({ signal }) => api<{ unread: number }>('GET', '/user/notifications/summary', { signal }),
    refetchInterval: 60_000,
  });

export const notificationsQuery = (unread: boolean) =>
  queryOptions({
    queryKey: [...inboxKeys.all, 'list', unread] as const,
    queryFn: ({ signal }) => api<ListPage<Notification>>('GET', '/user/notifications', { query: { limit: 100, unread: unread || undefined }, signal }),
  });

export const inboxApi = {
  setRead: (id: string, read: boolean) => api<Notification>('PATCH', `/user/notifications/${id}`, { body: { read } }),
  readAll: () => api('POST', '/user/notifications/read'),
};

/** The app path of a notification's link (its urls.app is absolute, under /app). */
export function appPathOf(url: string): string {
  const path = new URL(url, 'http://app.invalid').pathname + new URL(url, 'http://app.invalid').search;
  return path.startsWith('/app/') ? path.slice(4) : path;
}
