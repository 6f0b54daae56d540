import type { App } from '../../platform/app-type.ts';
import { apiOperation, registerOperations } from '../../platform/api-operation.ts';
import { ChangeRequestParams } from '../change-requests/schemas.ts';
import type { CollaborationPresence } from './presence.ts';
import { changeRequestPresence } from './presence-service.ts';
import { ChangeRequestPresence } from './schemas.ts';

export async function collaborationRoutes(app: App, presence: CollaborationPresence) {
  registerOperations(app, ['change-requests'], [
    apiOperation({
      method: 'GET',
      url: '/spaces/:spaceId/change-requests/:changeRequestId/presence',
      operationId: 'getChangeRequestPresence',
      documentation: { 'x-quire-extension': true },
      summary: 'Who has which page of the change request open in an editor now (editing together)',
      params: ChangeRequestParams,
      response: ChangeRequestPresence,
      errors: [401, 404],
      run: (ctx, caller, { params }) => changeRequestPresence(ctx, caller, presence, params.spaceId, params.changeRequestId),
    }),
  ]);
}
