import type { App } from '../../platform/app-type.ts';
import { apiOperation, registerOperations } from '../../platform/api-operation.ts';
import { ComputedBody, ComputedDocumentQuery, ComputedParams, ComputedRevision, JSONDocument } from './schemas.ts';
import { computeDocument, computeRevision } from './service.ts';

const tags = ['space-content'];

/** Computed content of a space's organization (OpenAPI specifications), as the published reader shows it. */
export async function computedContentRoutes(app: App) {
  registerOperations(app, tags, [
    apiOperation({
      method: 'POST',
      url: '/spaces/:spaceId/content/computed/document',
      operationId: 'getComputedDocument',
      summary: 'Compute a document from a computed source (an OpenAPI specification: its introduction, a tag, an operation, its models)',
      params: ComputedParams,
      querystring: ComputedDocumentQuery,
      body: ComputedBody,
      response: JSONDocument,
      errors: [400, 401, 404],
      run: (ctx, caller, { params, body }) => computeDocument(ctx, caller, params.spaceId, body),
    }),
    apiOperation({
      method: 'POST',
      url: '/spaces/:spaceId/content/computed/revision',
      operationId: 'getComputedRevision',
      summary: 'Compute the pages a computed source generates (an OpenAPI specification: a page per tag, and its models)',
      params: ComputedParams,
      body: ComputedBody,
      response: ComputedRevision,
      errors: [400, 401, 404],
      run: (ctx, caller, { params, body }) => computeRevision(ctx, caller, params.spaceId, body),
    }),
  ]);
}
