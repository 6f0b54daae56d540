import { Type } from 'typebox';
import type { App } from '../../platform/app-type.ts';
import { apiOperation, registerOperations } from '../../platform/api-operation.ts';
import { listOf } from '../../platform/schemas.ts';
import { ListNotificationsQuery, Notification, NotificationParams, NotificationSummary, UpdateNotificationBody } from './schemas.ts';
import { createNotificationsToken } from './token.ts';
import { listOwnNotifications, markOwnNotificationsRead, notificationSummary, updateOwnNotification } from './service.ts';

// GitBook's public API has no notifications: these are Quire's own, for the members' app inbox.
const documentation = { 'x-quire-extension': true };

/** The signed-in person's inbox: review requests, mentions and replies. */
export async function notificationRoutes(app: App) {
  registerOperations(app, ['users'], [
    apiOperation({
      method: 'POST',
      url: '/user/notifications/token',
      operationId: 'createUserNotificationsToken',
      summary: "A JWT valid for an hour that lets a notifications client call the person's notification operations, and no other",
      response: Type.Object({ token: Type.String({ description: 'Bearer token for the notification operations only' }) }),
      errors: [401, 403],
      run: (ctx, caller) => createNotificationsToken(ctx, caller),
    }),
  ]);
  registerOperations(app, ['user-notifications'], [
    apiOperation({
      method: 'GET',
      url: '/user/notifications',
      operationId: 'listUserNotifications',
      summary: 'Your notifications (review requests, mentions, replies), newest first',
      documentation,
      querystring: ListNotificationsQuery,
      response: listOf(Notification),
      errors: [400, 401],
      run: (ctx, caller, { query }) => listOwnNotifications(ctx, caller, query),
    }),
    apiOperation({
      method: 'GET',
      url: '/user/notifications/summary',
      operationId: 'getUserNotificationSummary',
      summary: 'How many of your notifications are unread',
      documentation,
      response: NotificationSummary,
      errors: [401],
      run: (ctx, caller) => notificationSummary(ctx, caller),
    }),
    apiOperation({
      method: 'POST',
      url: '/user/notifications/read',
      operationId: 'markUserNotificationsRead',
      summary: 'Mark all your notifications read',
      documentation,
      status: 204,
      errors: [401],
      run: (ctx, caller) => markOwnNotificationsRead(ctx, caller),
    }),
    apiOperation({
      method: 'PATCH',
      url: '/user/notifications/:notificationId',
      operationId: 'updateUserNotification',
      summary: 'Mark one of your notifications read or unread',
      documentation,
      params: NotificationParams,
      body: UpdateNotificationBody,
      response: Notification,
      errors: [400, 401, 404],
      run: (ctx, caller, { params, body }) => updateOwnNotification(ctx, caller, params.notificationId, body),
    }),
  ]);
}
