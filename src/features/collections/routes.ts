import type { App } from '../../platform/app-type.ts';
import { apiOperation, registerOperations } from '../../platform/api-operation.ts';
import { callerOf } from '../../platform/auth.ts';
import { CollectionIdParams, errors, listOf, ListQuery, NoContent, OrganizationIdParams } from '../../platform/schemas.ts';
import { MoveBody, TransferBody } from '../placement/schemas.ts';
import { Space } from '../spaces/schemas.ts';
import { listSpacesInCollection } from '../spaces/service.ts';
import { Collection, CreateCollectionBody, ListCollectionsQuery, UpdateCollectionBody } from './schemas.ts';
import {
  createCollection,
  deleteCollection,
  getCollection,
  listCollectionsOfOrganization,
  moveCollection,
  transferCollection,
  updateCollectionSettings,
} from './service.ts';

const tags = ['collections'];

export async function collectionRoutes(app: App) {
  app.get(
    '/orgs/:organizationId/collections',
    {
      schema: {
        operationId: 'listCollectionsInOrganizationById',
        tags,
        summary: 'List the collections of an organization the caller can see',
        params: OrganizationIdParams,
        querystring: ListCollectionsQuery,
        response: { 200: listOf(Collection), ...errors(400, 401, 404) },
      },
    },
    async (request) => listCollectionsOfOrganization(app.ctx, callerOf(request), request.params.organizationId, request.query),
  );

  registerOperations(app, tags, [
    apiOperation({
      method: 'POST',
      url: '/orgs/:organizationId/collections',
      operationId: 'createCollection',
      summary: 'Create a collection',
      params: OrganizationIdParams,
      body: CreateCollectionBody,
      status: 201,
      response: Collection,
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, body }) => createCollection(ctx, caller, params.organizationId, body),
      headers: (collection) => ({ location: collection.urls.location }),
    }),
  ]);

  app.get(
    '/collections/:collectionId',
    {
      schema: { operationId: 'getCollectionById', tags, summary: 'Get a collection', params: CollectionIdParams, response: { 200: Collection, ...errors(401, 404) } },
    },
    async (request) => getCollection(app.ctx, callerOf(request), request.params.collectionId),
  );

  app.patch(
    '/collections/:collectionId',
    {
      schema: {
        operationId: 'updateCollectionById',
        tags,
        summary: 'Update a collection',
        params: CollectionIdParams,
        body: UpdateCollectionBody,
        response: { 200: Collection, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => updateCollectionSettings(app.ctx, callerOf(request), request.params.collectionId, request.body),
  );

  app.delete(
    '/collections/:collectionId',
    {
      schema: {
        operationId: 'deleteCollectionById',
        tags,
        summary: 'Delete a collection, its sub-collections, and move its spaces to the trash',
        params: CollectionIdParams,
        response: { 204: NoContent, ...errors(401, 403) },
      },
    },
    async (request, reply) => {
      await deleteCollection(app.ctx, callerOf(request), request.params.collectionId);
      return reply.status(204).send();
    },
  );

  app.get(
    '/collections/:collectionId/spaces',
    {
      schema: {
        operationId: 'listSpacesInCollectionById',
        tags,
        summary: 'List the spaces directly in a collection, in their order',
        params: CollectionIdParams,
        querystring: ListQuery,
        response: { 200: listOf(Space), ...errors(400, 401, 404) },
      },
    },
    async (request) => listSpacesInCollection(app.ctx, callerOf(request), request.params.collectionId, request.query),
  );

  app.post(
    '/collections/:collectionId/move',
    {
      schema: {
        operationId: 'moveCollection',
        tags,
        summary: 'Move a collection to another parent or position',
        params: CollectionIdParams,
        body: MoveBody,
        response: { 200: Collection, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request) => moveCollection(app.ctx, callerOf(request), request.params.collectionId, request.body),
  );

  app.post(
    '/collections/:collectionId/transfer',
    {
      schema: {
        operationId: 'transferCollection',
        tags,
        summary: 'Transfer a collection and its content to another organization',
        params: CollectionIdParams,
        body: TransferBody,
        response: { 200: Collection, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request) => transferCollection(app.ctx, callerOf(request), request.params.collectionId, request.body.organization),
  );
}
