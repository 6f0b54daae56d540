import type { App } from '../../platform/app-type.ts';
import { apiOperation, registerOperations } from '../../platform/api-operation.ts';
import { callerOf } from '../../platform/auth.ts';
import { sendJsonText } from '../../platform/json-text.ts';
import { errors, listOf, ListQuery, NoContent, OrganizationIdParams, SpaceIdParams } from '../../platform/schemas.ts';
import { MoveBody, TransferBody } from '../placement/schemas.ts';
import { CreateSpaceBody, GetSpaceQuery, Space, TrashedSpace, UpdateSpaceBody } from './schemas.ts';
import {
  createSpace,
  deleteSpace,
  duplicateSpace,
  getSpaceJson,
  listSpacesInOrganizationJson,
  listSpacesInTrash,
  moveSpace,
  restoreSpace,
  transferSpace,
  updateSpaceSettings,
} from './service.ts';

const tags = ['spaces'];

export async function spaceRoutes(app: App) {
  app.get(
    '/orgs/:organizationId/spaces',
    {
      schema: {
        operationId: 'listSpacesInOrganizationById',
        tags,
        summary: 'List the spaces of an organization the caller can read',
        params: OrganizationIdParams,
        querystring: ListQuery,
        response: { 200: listOf(Space), ...errors(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const json = await listSpacesInOrganizationJson(app.ctx, callerOf(request), request.params.organizationId, request.query, (page) => String(reply.serialize(page)));
      return sendJsonText(reply, json);
    },
  );

  registerOperations(app, tags, [
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/trash/spaces',
      operationId: 'listSpacesInTrash',
      summary: 'List the spaces deleted in the last 7 days that the caller could read, newest first (restore one with restoreSpace)',
      documentation: { 'x-quire-extension': true },
      params: OrganizationIdParams,
      querystring: ListQuery,
      response: listOf(TrashedSpace),
      errors: [400, 401, 404],
      run: (ctx, caller, { params, query }) => listSpacesInTrash(ctx, caller, params.organizationId, query),
    }),
    apiOperation({
      method: 'POST',
      url: '/orgs/:organizationId/spaces',
      operationId: 'createSpace',
      summary: 'Create a space',
      params: OrganizationIdParams,
      body: CreateSpaceBody,
      status: 201,
      response: Space,
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, body }) => createSpace(ctx, caller, params.organizationId, body),
      headers: (space) => ({ location: space.urls.location }),
    }),
  ]);

  app.get(
    '/spaces/:spaceId',
    {
      schema: { operationId: 'getSpaceById', tags, summary: 'Get a space', params: SpaceIdParams, querystring: GetSpaceQuery, response: { 200: Space, ...errors(401, 404) } },
    },
    async (request, reply) => {
      const json = await getSpaceJson(app.ctx, callerOf(request), request.params.spaceId, request.query.shareKey, (space) => String(reply.serialize(space)));
      return sendJsonText(reply, json);
    },
  );

  app.patch(
    '/spaces/:spaceId',
    {
      schema: {
        operationId: 'updateSpaceById',
        tags,
        summary: 'Update the settings of a space',
        params: SpaceIdParams,
        body: UpdateSpaceBody,
        response: { 200: Space, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => updateSpaceSettings(app.ctx, callerOf(request), request.params.spaceId, request.body),
  );

  app.delete(
    '/spaces/:spaceId',
    {
      schema: {
        operationId: 'deleteSpaceById',
        tags,
        summary: 'Delete a space (restorable for 7 days)',
        params: SpaceIdParams,
        response: { 204: NoContent, ...errors(401, 403) },
      },
    },
    async (request, reply) => {
      await deleteSpace(app.ctx, callerOf(request), request.params.spaceId);
      return reply.status(204).send();
    },
  );

  registerOperations(app, tags, [
    apiOperation({
      method: 'POST',
      url: '/spaces/:spaceId/duplicate',
      operationId: 'duplicateSpace',
      summary: 'Duplicate a space',
      params: SpaceIdParams,
      status: 201,
      response: Space,
      errors: [401, 403, 404],
      run: (ctx, caller, { params }) => duplicateSpace(ctx, caller, params.spaceId),
      headers: (space) => ({ location: space.urls.location }),
    }),
  ]);

  app.post(
    '/spaces/:spaceId/restore',
    {
      schema: {
        operationId: 'restoreSpace',
        tags,
        summary: 'Restore a space deleted in the last 7 days',
        params: SpaceIdParams,
        response: { 200: Space, ...errors(401, 403, 404, 409) },
      },
    },
    async (request) => restoreSpace(app.ctx, callerOf(request), request.params.spaceId),
  );

  app.post(
    '/spaces/:spaceId/move',
    {
      schema: {
        operationId: 'moveSpace',
        tags,
        summary: 'Move a space to another collection or position',
        params: SpaceIdParams,
        body: MoveBody,
        response: { 200: Space, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request) => moveSpace(app.ctx, callerOf(request), request.params.spaceId, request.body),
  );

  app.post(
    '/spaces/:spaceId/transfer',
    {
      schema: {
        operationId: 'transferSpace',
        tags,
        summary: 'Transfer a space to another organization',
        params: SpaceIdParams,
        body: TransferBody,
        response: { 200: Space, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request) => transferSpace(app.ctx, callerOf(request), request.params.spaceId, request.body.organization),
  );
}
