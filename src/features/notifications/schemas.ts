import { Type, type Static } from 'typebox';
import { ListQuery, Timestamp } from '../../platform/schemas.ts';
import { User } from '../users/schemas.ts';

export const NotificationKind = Type.Union([Type.Literal('review_requested'), Type.Literal('mention'), Type.Literal('reply')]);

export const Notification = Type.Object({
  object: Type.Literal('notification'),
  id: Type.String(),
  kind: NotificationKind,
  title: Type.String({ description: 'What happened, in words, as it was when it happened' }),
  actor: Type.Optional(Type.Object(User.properties)),
  space: Type.String(),
  changeRequest: Type.Optional(Type.String()),
  comment: Type.Optional(Type.String()),
  read: Type.Boolean(),
  readAt: Type.Optional(Timestamp),
  createdAt: Timestamp,
  urls: Type.Object({ app: Type.String({ format: 'uri' }) }),
});

export const ListNotificationsQuery = Type.Object({
  ...ListQuery.properties,
  unread: Type.Optional(Type.Boolean({ description: 'Only the unread ones' })),
});

export const NotificationParams = Type.Object({ notificationId: Type.String({ minLength: 1 }) });

export const UpdateNotificationBody = Type.Object({ read: Type.Boolean({ description: 'true marks it read, false unread again' }) });

export const NotificationSummary = Type.Object({ unread: Type.Integer({ description: 'How many notifications are unread' }) });

export type NotificationKindValue = Static<typeof NotificationKind>;
