import type { App } from '../../platform/app-type.ts';
import { callerOf } from '../../platform/auth.ts';
import { errors, NoContent, SpaceIdParams } from '../../platform/schemas.ts';
import { ExportToGitRepository, GitSyncState, GitSyncWebhook, ImportGitRepository, WebhookReceipt } from './schemas.ts';
import { createWebhookSecret, disconnect, receiveWebhook, requestSync } from './connection.ts';
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

/** Quire's operations of a connected space's automatic Git Sync (connection.ts). */
export async function gitSyncConnectionRoutes(app: App) {
  app.delete(
    '/spaces/:spaceId/git',
    {
      schema: {
        operationId: 'disconnectGitSync',
        'x-quire-extension': true,
        tags,
        summary: 'Stop syncing the space with its Git branch (its content and the repository stay as they are); done already when not connected',
        params: SpaceIdParams,
        response: { 204: NoContent, ...errors(401, 403) },
      },
    },
    async (request, reply) => {
      await disconnect(app.ctx, callerOf(request), request.params.spaceId);
      return reply.status(204).send();
    },
  );

  app.post(
    '/spaces/:spaceId/git/sync',
    {
      schema: {
        operationId: 'syncGitNow',
        'x-quire-extension': true,
        tags,
        summary: 'Sync the connected space with its branch both ways now (within about a second; getSpaceGitInfo tells how it went)',
        params: SpaceIdParams,
        response: { 204: NoContent, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await requestSync(app.ctx, callerOf(request), request.params.spaceId);
      return reply.status(204).send();
    },
  );

  app.post(
    '/spaces/:spaceId/git/webhook',
    {
      schema: {
        operationId: 'createGitSyncWebhook',
        'x-quire-extension': true,
        tags,
        summary: "A new secret for the space's push webhook, shown this once (the previous secret stops working)",
        params: SpaceIdParams,
        response: { 201: GitSyncWebhook, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => reply.status(201).send(await createWebhookSecret(app.ctx, callerOf(request), request.params.spaceId)),
  );
}

/**
 * The push webhook a Git server calls (no API token: the delivery proves the webhook's secret). Its own plugin: the
 * body is kept as the bytes the server signed, JSON or GitHub's form encoding.
 */
export async function gitSyncWebhookRoutes(app: App) {
  const raw = (_request: unknown, body: Buffer, done: (error: Error | null, body?: Buffer) => void) => done(null, body);
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 5 * 1024 * 1024 }, raw);
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer', bodyLimit: 5 * 1024 * 1024 }, raw);
  app.post(
    '/git-sync/hooks/:spaceId',
    {
      config: { public: true },
      schema: {
        operationId: 'receiveGitSyncWebhook',
        'x-quire-extension': true,
        tags,
        summary: 'A push webhook of GitHub, GitLab, Gitea, Forgejo or Bitbucket for a connected space (signed with its secret)',
        params: SpaceIdParams,
        response: { 202: WebhookReceipt, ...errors(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const answer = await receiveWebhook(app.ctx, request.params.spaceId, request.headers, body);
      return reply.status(answer.status).send(answer.body);
    },
  );
}
