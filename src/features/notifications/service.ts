import type { Executor, SpacesTable } from '../../db/types.ts';
import { type AppContext, type Caller, personOf } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import { isoNow } from '../../platform/clock.ts';
import { newId } from '../../platform/ids.ts';
import { appUrl } from '../../platform/urls.ts';
import { enqueueJob } from '../../platform/jobs.ts';
import { OrgAccess } from '../access/service.ts';
import { listActiveMembersByUser } from '../members/queries.ts';
import { mayMention, mentionedUsers } from './mentions.ts';
import { noticeTitle, presentNotification } from './present.ts';
import {
  countNotificationsOf,
  findNotificationForMail,
  findNotificationOf,
  insertNotifications,
  listNotificationsOf,
  markAllNotificationsRead,
  setNotificationRead,
  type NotificationRow,
} from './store.ts';
import type { NotificationKindValue } from './schemas.ts';

export const NOTIFICATION_MAIL_JOB = 'notification-mail';

/** Mentions are looked for among this many members of an organization at most (a comment is not a mailing list). */
const MENTION_CANDIDATES = 5000;

/** Where something happened: a space, or one of its change requests. */
export interface NoticePlace {
  organizationId: string;
  space: SpacesTable;
  changeRequest?: { id: string; number: number; subject: string } | null;
  /** The page a comment is about, so that the notice opens its diff. */
  pageId?: string | null;
}

export interface Notice {
  userId: string;
  kind: NotificationKindValue;
  actorId: string;
  place: NoticePlace;
  commentId?: string | null;
  /** Said after the actor's name: "asked you to review …". */
  what: string;
}

const placeName = (place: NoticePlace) => (place.changeRequest ? `#${place.changeRequest.number} ${place.changeRequest.subject || 'Untitled change request'}` : `the space ${place.space.title}`);

function appPath(place: NoticePlace): string {
  if (!place.changeRequest) return `/s/${place.space.id}/`;
  return `/s/${place.space.id}/~/changes/${place.changeRequest.number}${place.pageId ? `?page=${encodeURIComponent(place.pageId)}` : ''}`;
}

/**
 * Writes notices in the caller's transaction (the review request or comment that causes them), one per person and
 * never to the person who acted; with SMTP_URL set, each is also mailed by the job worker after the commit.
 */
export async function writeNotices(ctx: AppContext, trx: Executor, notices: readonly Notice[]): Promise<void> {
  const now = isoNow(ctx.clock);
  const seen = new Set<string>();
  const rows: NotificationRow[] = [];
  for (const notice of notices) {
    if (notice.userId === notice.actorId || seen.has(notice.userId)) continue;
    seen.add(notice.userId);
    rows.push({
      id: newId(),
      user_id: notice.userId,
      kind: notice.kind,
      actor_id: notice.actorId,
      organization_id: notice.place.organizationId,
      space_id: notice.place.space.id,
      change_request_id: notice.place.changeRequest?.id ?? null,
      comment_id: notice.commentId ?? null,
      // Without the actor's name, joined when read: nothing is read in the caller's transaction.
      title: `${notice.what} ${placeName(notice.place)}`,
      app_path: appPath(notice.place),
      read_at: null,
      created_at: now,
    });
  }
  await insertNotifications(trx, rows);
  if (ctx.mailer.enabled) for (const row of rows) await enqueueJob(ctx, trx, NOTIFICATION_MAIL_JOB, { notificationId: row.id });
}

/**
 * The people a comment's body mentions who can see where it was written: read before the comment's transaction
 * opens (members and their roles), so that the transaction only writes.
 */
export async function mentionNotices(ctx: AppContext, input: { document: unknown; actorId: string; place: NoticePlace; commentId: string }): Promise<Notice[]> {
  if (!mayMention(input.document)) return [];
  const members = await listActiveMembersByUser(ctx.db, input.place.organizationId, MENTION_CANDIDATES);
  const candidates = members.filter((m) => m.user_id !== input.actorId).map((m) => ({ userId: m.user_id, displayName: m.display_name, email: m.email }));
  const notices: Notice[] = [];
  for (const userId of mentionedUsers(input.document, candidates)) {
    const access = await OrgAccess.loadForUser(ctx.db, input.place.organizationId, userId);
    if (!(await access.roleOn(input.place.space))) continue;
    notices.push({ userId, kind: 'mention', actorId: input.actorId, place: input.place, commentId: input.commentId, what: 'mentioned you in a comment on' });
  }
  return notices;
}

export async function listOwnNotifications(ctx: AppContext, caller: Caller, query: { page?: string; limit?: number; unread?: boolean }) {
  const userId = personOf(caller);
  const unread = query.unread === true;
  const listKey = `notifications:${userId}:${unread}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const rows = await listNotificationsOf(ctx.db, userId, unread, page);
  const count = await countNotificationsOf(ctx.db, userId, unread);
  return ctx.cursors.close(listKey, page, rows, count, (row) => [row.created_at, row.id], (row) => presentNotification(ctx.config, row));
}

export async function notificationSummary(ctx: AppContext, caller: Caller) {
  return { unread: await countNotificationsOf(ctx.db, personOf(caller), true) };
}

/** Marks one of the caller's notifications read or unread; another person's is not found. */
export async function updateOwnNotification(ctx: AppContext, caller: Caller, id: string, body: { read: boolean }) {
  const userId = personOf(caller);
  const found = await findNotificationOf(ctx.db, userId, id);
  if (!found) throw notFound(`No notification "${id}"`);
  await setNotificationRead(ctx.db, userId, id, body.read ? (found.read_at ?? isoNow(ctx.clock)) : null);
  return presentNotification(ctx.config, (await findNotificationOf(ctx.db, userId, id))!);
}

export async function markOwnNotificationsRead(ctx: AppContext, caller: Caller): Promise<void> {
  await markAllNotificationsRead(ctx.db, personOf(caller), isoNow(ctx.clock));
}

/** The job: mails one notification to its person (a failure is logged by the mailer, and not retried: the inbox has it). */
export async function mailNotification(ctx: AppContext, payload: unknown): Promise<void> {
  const row = await findNotificationForMail(ctx.db, (payload as { notificationId: string }).notificationId);
  if (!row?.email) return;
  const title = noticeTitle(row.actor_name, row.title);
  await ctx.mailer.send({ to: row.email, subject: title, text: `${title}\n\n${appUrl(ctx.config, row.app_path)}\n` });
}
