import type { App } from '../../platform/app-type.ts';
import { callerOf } from '../../platform/auth.ts';
import { errors } from '../../platform/schemas.ts';
import { UpdateUserBody, User, UserIdParams } from './schemas.ts';
import { getAuthenticatedUser, getUserById, updateUser } from './service.ts';

export async function userRoutes(app: App) {
  app.get(
    '/user',
    { schema: { operationId: 'getAuthenticatedUser', tags: ['users'], summary: 'Get the authenticated user', response: { 200: User, ...errors(401, 404) } } },
    async (request) => getAuthenticatedUser(app.ctx, callerOf(request)),
  );

  app.get(
    '/users/:userId',
    {
      schema: {
        operationId: 'getUserById',
        tags: ['users'],
        summary: 'Get a user by its id',
        params: UserIdParams,
        response: { 200: User, ...errors(401, 404) },
      },
    },
    async (request) => getUserById(app.ctx, callerOf(request), request.params.userId),
  );

  app.patch(
    '/users/:userId',
    {
      schema: {
        operationId: 'updateUserById',
        tags: ['users'],
        summary: "Change one's own name or picture (another person's profile: 403 when they are visible, else 404)",
        params: UserIdParams,
        body: UpdateUserBody,
        response: { 200: User, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => updateUser(app.ctx, callerOf(request), request.params.userId, request.body),
  );
}
