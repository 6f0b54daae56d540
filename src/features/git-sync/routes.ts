import type { App } from '../../platform/app-type.ts';
import { callerOf } from '../../platform/auth.ts';
import { errors, NoContent, SpaceIdParams } from '../../platform/schemas.ts';
import { ExportToGitRepository, GitSyncState, ImportGitRepository } from './schemas.ts';
import { exportToGitRepository, getSpaceGitInfo, importGitRepository } from './service.ts';

const tags = ['git'];

export async function gitSyncRoutes(app: App) {
  app.post(
    '/spaces/:spaceId/git/import',
    {
      schema: {
        operationId: 'importGitRepository',
        tags,
        summary: "Import a Git repository's Git Sync layout into the space (a background job; getSpaceGitInfo tells its state)",
        params: SpaceIdParams,
        body: ImportGitRepository,
        response: { 204: NoContent, ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await importGitRepository(app.ctx, callerOf(request), request.params.spaceId, request.body);
      return reply.status(204).send();
    },
  );

  app.post(
    '/spaces/:spaceId/git/export',
    {
      schema: {
        operationId: 'exportToGitRepository',
        tags,
        summary: "Export the space's content to a branch of a Git repository as one commit (a background job)",
        params: SpaceIdParams,
        body: ExportToGitRepository,
        response: { 204: NoContent, ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await exportToGitRepository(app.ctx, callerOf(request), request.params.spaceId, request.body);
      return reply.status(204).send();
    },
  );

  app.get(
    '/spaces/:spaceId/git/info',
    {
      schema: {
        operationId: 'getSpaceGitInfo',
        tags,
        summary: "The space's Git Sync and the state of its last operation",
        params: SpaceIdParams,
        response: { 200: GitSyncState, ...errors(401, 404) },
      },
    },
    async (request) => getSpaceGitInfo(app.ctx, callerOf(request), request.params.spaceId),
  );
}
