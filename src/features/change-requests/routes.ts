import type { App } from '../../platform/app-type.ts';
import { apiOperation, registerOperations } from '../../platform/api-operation.ts';
import { callerOf } from '../../platform/auth.ts';
import { errors, listOf, ListQuery, NoContent, OrganizationIdParams, SpaceIdParams } from '../../platform/schemas.ts';
import {
  ChangeRequest,
  ChangeRequestParams,
  ChangeRequestRequestedReviewer,
  ChangeRequestReview,
  CreateChangeRequestBody,
  ListChangeRequestsQuery,
  ListReviewsQuery,
  RequestedReviewerParams,
  RequestReviewersBody,
  ReviewParams,
  SubmitReviewBody,
  UpdateChangeRequestBody,
  UserContributor,
} from './schemas.ts';
import { createChangeRequest, getChangeRequest, listChangeRequestsOfOrganization, listChangeRequestsOfSpace, updateChangeRequestSettings } from './service.ts';
import { getChangeRequestReview, listChangeRequestRequestedReviewers, listChangeRequestReviews, removeChangeRequestReviewer, requestChangeRequestReviewers, submitChangeRequestReview } from './reviews.ts';
import { listChangeRequestContributors } from './contributors.ts';
import { Type } from 'typebox';
import { DocumentedUpdateContentBody, SaveConflictBody, UpdateContentBody, UpdateContentQuery } from '../content/change-schemas.ts';
import { writeChangeRequestContent } from '../content/change-request-writes.ts';
import { changeRequestChanges } from './semantic-changes.ts';
import { mergeChangeRequest, updateChangeRequestFromMain } from './merging.ts';

const tags = ['change-requests'];

export async function changeRequestRoutes(app: App) {
  app.get(
    '/spaces/:spaceId/change-requests',
    {
      schema: {
        operationId: 'listChangeRequestsForSpace',
        tags,
        summary: 'List the change requests of a space (open ones by default), newest first',
        params: SpaceIdParams,
        querystring: ListChangeRequestsQuery,
        response: { 200: listOf(ChangeRequest), ...errors(400, 401, 404) },
      },
    },
    async (request) => listChangeRequestsOfSpace(app.ctx, callerOf(request), request.params.spaceId, request.query),
  );

  app.get(
    '/orgs/:organizationId/change-requests',
    {
      schema: {
        operationId: 'listChangeRequestsForOrganization',
        tags,
        summary: 'List the change requests of every space of the organization you can read (open ones by default), newest first',
        params: OrganizationIdParams,
        querystring: ListChangeRequestsQuery,
        response: { 200: listOf(ChangeRequest), ...errors(400, 401, 404) },
      },
    },
    async (request) => listChangeRequestsOfOrganization(app.ctx, callerOf(request), request.params.organizationId, request.query),
  );

  registerOperations(app, tags, [
    apiOperation({
      method: 'POST',
      url: '/spaces/:spaceId/change-requests',
      operationId: 'createChangeRequest',
      summary: 'Open a change request on the current content of a space',
      params: SpaceIdParams,
      body: CreateChangeRequestBody,
      status: 201,
      response: ChangeRequest,
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, body }) => createChangeRequest(ctx, caller, params.spaceId, body),
      headers: (cr) => ({ location: cr.urls.location }),
    }),
  ]);

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId',
    {
      schema: {
        operationId: 'getChangeRequestById',
        tags,
        summary: 'Get a change request by id or number',
        params: ChangeRequestParams,
        response: { 200: ChangeRequest, ...errors(401, 404) },
      },
    },
    async (request) => getChangeRequest(app.ctx, callerOf(request), request.params.spaceId, request.params.changeRequestId),
  );

  app.patch(
    '/spaces/:spaceId/change-requests/:changeRequestId',
    {
      schema: {
        operationId: 'updateChangeRequestById',
        tags,
        summary: 'Update the subject or status of a change request',
        params: ChangeRequestParams,
        body: UpdateChangeRequestBody,
        response: { 200: ChangeRequest, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request) => updateChangeRequestSettings(app.ctx, callerOf(request), request.params.spaceId, request.params.changeRequestId, request.body),
  );

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/content',
    {
      config: { documentedBody: DocumentedUpdateContentBody },
      schema: {
        operationId: 'updateChangeRequestContent',
        // Official since @gitbook/api 0.202.0, after the version this server's contract is pinned to.
        'x-quire-extension': true,
        tags,
        summary: 'Apply a batch of up to 50 content changes to a change request, atomically, as one revision',
        params: ChangeRequestParams,
        querystring: UpdateContentQuery,
        body: UpdateContentBody,
        response: {
          // Both shapes nest the same named schemas, which one serializer cannot hold twice; the presenters shape it.
          200: Type.Unsafe<unknown>({ description: 'The ChangeRequest (compat=true), or { changeRequest, changes, insertedFiles, revision, merged } (compat=false)' }),
          ...errors(400, 401, 403, 404, 413),
          409: SaveConflictBody,
        },
      },
    },
    async (request) =>
      writeChangeRequestContent(app.ctx, callerOf(request), request.params.spaceId, request.params.changeRequestId, request.body.changes, request.query.compat ?? true),
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/changes',
    {
      schema: {
        operationId: 'getChangeRequestChanges',
        tags,
        summary: 'The semantic changes (pages, files, variables) of a change request against its base',
        params: ChangeRequestParams,
        querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 10 })) }),
        response: {
          200: Type.Object({ changes: Type.Array(Type.Object({ type: Type.String() }, { additionalProperties: true })), more: Type.Optional(Type.Number()) }),
          ...errors(400, 401, 404),
        },
      },
    },
    async (request) => changeRequestChanges(app.ctx, callerOf(request), request.params.spaceId, request.params.changeRequestId, request.query.limit ?? 10),
  );

  const MergeResult = (result: string) =>
    Type.Object({
      revision: Type.String({ description: 'The resulting revision (unchanged when there are conflicts)' }),
      result: Type.Union([Type.Literal(result), Type.Literal('conflicts')]),
      conflicts: Type.Optional(Type.Array(Type.Object({ type: Type.String(), kind: Type.String(), message: Type.String() }, { additionalProperties: true }), { description: 'What conflicts, so a person can resolve it' })),
    });

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/merge',
    {
      schema: {
        operationId: 'mergeChangeRequest',
        tags,
        summary: 'Merge the change request into the space (three-way); conflicts change nothing',
        params: ChangeRequestParams,
        response: { 200: MergeResult('merge'), ...errors(401, 403, 404, 409) },
      },
    },
    async (request) => mergeChangeRequest(app.ctx, callerOf(request), request.params.spaceId, request.params.changeRequestId),
  );

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/update',
    {
      schema: {
        operationId: 'updateChangeRequest',
        tags,
        summary: "Bring the space's newer content into the change request (three-way)",
        params: ChangeRequestParams,
        response: { 200: MergeResult('update'), ...errors(401, 403, 404, 409) },
      },
    },
    async (request) => updateChangeRequestFromMain(app.ctx, callerOf(request), request.params.spaceId, request.params.changeRequestId),
  );

  // Reviews (issue 29): reviewing takes the space's `review` role and a person; asking for reviews, the edit role.
  registerOperations(app, ['change-requests-reviews'], [
    apiOperation({
      method: 'GET',
      url: '/spaces/:spaceId/change-requests/:changeRequestId/reviews',
      operationId: 'getReviewsByChangeRequestId',
      summary: 'The reviews of a change request, oldest first (current and outdated ones, or either with `outdated`)',
      params: ChangeRequestParams,
      querystring: ListReviewsQuery,
      response: listOf(ChangeRequestReview),
      errors: [400, 401, 404],
      run: (ctx, caller, { params, query }) => listChangeRequestReviews(ctx, caller, params.spaceId, params.changeRequestId, query),
    }),
    apiOperation({
      method: 'GET',
      url: '/spaces/:spaceId/change-requests/:changeRequestId/reviews/:reviewId',
      operationId: 'getChangeRequestReviewById',
      summary: 'One review of a change request, current or outdated (its comment in `format`)',
      params: ReviewParams,
      querystring: Type.Object({ format: ListReviewsQuery.properties.format }),
      response: ChangeRequestReview,
      errors: [400, 401, 404],
      run: (ctx, caller, { params, query }) => getChangeRequestReview(ctx, caller, params.spaceId, params.changeRequestId, params.reviewId, query.format),
    }),
    apiOperation({
      method: 'POST',
      url: '/spaces/:spaceId/change-requests/:changeRequestId/reviews',
      operationId: 'submitChangeRequestReview',
      summary: "Approve the change request as it is now, or request changes (not the author's to review)",
      params: ChangeRequestParams,
      body: SubmitReviewBody,
      status: 201,
      response: ChangeRequestReview,
      errors: [400, 401, 403, 404, 409],
      run: (ctx, caller, { params, body }) => submitChangeRequestReview(ctx, caller, params.spaceId, params.changeRequestId, body),
      headers: (review) => ({ location: review.urls.location }),
    }),
    apiOperation({
      method: 'GET',
      url: '/spaces/:spaceId/change-requests/:changeRequestId/requested-reviewers',
      operationId: 'getRequestedReviewersByChangeRequestId',
      summary: 'The reviews asked for and not given yet, in the order they were asked',
      params: ChangeRequestParams,
      querystring: ListQuery,
      response: listOf(ChangeRequestRequestedReviewer),
      errors: [400, 401, 404],
      run: (ctx, caller, { params, query }) => listChangeRequestRequestedReviewers(ctx, caller, params.spaceId, params.changeRequestId, query),
    }),
    apiOperation({
      method: 'POST',
      url: '/spaces/:spaceId/change-requests/:changeRequestId/requested-reviewers',
      operationId: 'requestReviewersForChangeRequest',
      summary: 'Ask people who may review the space to review the change request (optionally renaming it)',
      params: ChangeRequestParams,
      body: RequestReviewersBody,
      response: Type.Object({ users: Type.Array(ChangeRequestRequestedReviewer) }),
      errors: [400, 401, 403, 404, 409],
      run: (ctx, caller, { params, body }) => requestChangeRequestReviewers(ctx, caller, params.spaceId, params.changeRequestId, body),
    }),
    apiOperation({
      method: 'GET',
      url: '/spaces/:spaceId/change-requests/:changeRequestId/contributors',
      operationId: 'getContributorsByChangeRequestId',
      summary: 'Who edited the change request and who discussed it',
      params: ChangeRequestParams,
      response: listOf(UserContributor),
      errors: [401, 404],
      run: (ctx, caller, { params }) => listChangeRequestContributors(ctx, caller, params.spaceId, params.changeRequestId),
    }),
  ]);

  app.delete(
    '/spaces/:spaceId/change-requests/:changeRequestId/requested-reviewers/:userId',
    {
      schema: {
        operationId: 'removeRequestedReviewerFromChangeRequest',
        tags: ['change-requests-reviews'],
        summary: 'Withdraw a review request: 205 when it was withdrawn, 204 when there was none',
        params: RequestedReviewerParams,
        response: { 204: NoContent, 205: NoContent, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const removed = await removeChangeRequestReviewer(app.ctx, callerOf(request), request.params.spaceId, request.params.changeRequestId, request.params.userId);
      return reply.status(removed ? 205 : 204).send();
    },
  );
}
