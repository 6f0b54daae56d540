import type { App } from '../../platform/app-type.ts';
import { callerOf } from '../../platform/auth.ts';
import { errors } from '../../platform/schemas.ts';
import { User, UserIdParams } from './schemas.ts';
import { getAuthenticatedUser, getUserById } from './service.ts';

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
}
