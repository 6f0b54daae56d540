import { Type } from 'typebox';
import type { App } from '../../platform/app-type.ts';
import { apiOperation, registerOperations } from '../../platform/api-operation.ts';
import { listOf, OrganizationIdParams } from '../../platform/schemas.ts';
import { apiUrl } from '../../platform/urls.ts';
import { ImportReportSchema } from '../git-sync/schemas.ts';
import { IMPORT_SOURCES, importContent, type ImportTarget } from './service.ts';
import { ContentImportRun, ImportRunParams, ListImportRunsQuery, StartImportRunBody } from './run-schemas.ts';
import { cancelImportRun, getImportRun, listImportRunsOfOrganization, startImportRun } from './runs.ts';

const tags = ['content'];

const ImportContentBody = Type.Object({
  url: Type.String({ format: 'uri', maxLength: 2048, description: 'URL of the content to import: the start page of a website, or the document or archive' }),
  source: Type.Union(
    IMPORT_SOURCES.map((s) => Type.Literal(s)),
    { description: '"website" crawls the site from the URL; "markdown", "html" and "docx" import one document as a page; "zip" imports an archive of a Git Sync layout or of markdown files. The others answer 400.' },
  ),
});

const ImportContentResult = Type.Object({
  revision: Type.String({ description: 'ID of the newly created revision' }),
  importedResources: Type.Number({ description: 'Pages and images imported' }),
  totalResources: Type.Number({ description: 'Pages and images found, including those the import limits left out' }),
  // An archive's import (source zip) only.
  report: Type.Optional(ImportReportSchema),
});

const id = Type.String({ minLength: 1 });

/** The four official import operations: into the space or a change request, at the root or into a page. */
const variants = [
  { operationId: 'importContent', path: '/spaces/:spaceId/content/import', params: { spaceId: id } },
  { operationId: 'importContentInPageById', path: '/spaces/:spaceId/content/page/:pageId/import', params: { spaceId: id, pageId: id } },
  { operationId: 'importContentInChangeRequest', path: '/spaces/:spaceId/change-requests/:changeRequestId/content/import', params: { spaceId: id, changeRequestId: id } },
  {
    operationId: 'importContentInChangeRequestPageById',
    path: '/spaces/:spaceId/change-requests/:changeRequestId/content/page/:pageId/import',
    params: { spaceId: id, changeRequestId: id, pageId: id },
  },
] as const;

function targetOf(params: { spaceId: string; changeRequestId?: string; pageId?: string }): ImportTarget {
  const { spaceId, changeRequestId, pageId } = params;
  return changeRequestId ? { kind: 'change-request', spaceId, changeRequestId, pageId } : { kind: 'space', spaceId, pageId };
}

export async function importRoutes(app: App) {
  registerOperations(
    app,
    tags,
    variants.map((v) =>
      apiOperation({
        method: 'POST',
        url: v.path,
        operationId: v.operationId,
        summary: `Import a website, a document or an archive ${v.operationId.includes('ChangeRequest') ? 'into a change request' : 'into the space'}${v.operationId.endsWith('PageById') ? "'s page (the start page replaces it, the others become its sub-pages)" : ''}, as one new revision`,
        params: Type.Object(v.params),
        body: ImportContentBody,
        status: 201,
        response: ImportContentResult,
        errors: [400, 401, 403, 404, 409, 413, 422],
        run: (ctx, caller, { params, body }) => importContent(ctx, caller, targetOf(params), body),
        // The revision the import wrote, in the space of the path (its result names only the revision).
        headers: (result, { params }) => ({ location: apiUrl(app.ctx.config, `/spaces/${params.spaceId}/revisions/${result.revision}`) }),
      }),
    ),
  );
}

/**
 * Import runs (startImportRun, getImportRun, listImportRuns, cancelImportRun): an import done by a job, read
 * back by its id. cancelImportRun answers 201 as @gitbook/api 0.143 declares (0.202 says 200).
 */
export async function importRunRoutes(app: App) {
  registerOperations(app, ['imports'], [
    apiOperation({
      method: 'POST',
      url: '/org/:organizationId/imports',
      operationId: 'startImportRun',
      summary: 'Start importing a website or uploaded files into a space, a change request or a page; a job does the import',
      params: OrganizationIdParams,
      body: StartImportRunBody,
      status: 201,
      response: ContentImportRun,
      errors: [400, 401, 403, 404, 409],
      run: (ctx, caller, { params, body }) => startImportRun(ctx, caller, params.organizationId, body),
    }),
    apiOperation({
      method: 'GET',
      url: '/org/:organizationId/imports',
      operationId: 'listImportRuns',
      // Official since @gitbook/api 0.202.0, after the version this server's contract is pinned to.
      documentation: { 'x-quire-extension': true },
      summary: 'List the import runs of an organization into spaces the caller can see, newest first',
      params: OrganizationIdParams,
      querystring: ListImportRunsQuery,
      response: listOf(ContentImportRun),
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, query }) => listImportRunsOfOrganization(ctx, caller, params.organizationId, query),
    }),
    apiOperation({
      method: 'GET',
      url: '/org/:organizationId/imports/:importRunId',
      operationId: 'getImportRun',
      // Official since @gitbook/api 0.202.0, after the version this server's contract is pinned to.
      documentation: { 'x-quire-extension': true },
      summary: 'Get an import run: its status, and once completed the revision and pages it wrote',
      params: ImportRunParams,
      response: ContentImportRun,
      errors: [401, 404],
      run: (ctx, caller, { params }) => getImportRun(ctx, caller, params.organizationId, params.importRunId),
    }),
    apiOperation({
      method: 'POST',
      url: '/org/:organizationId/imports/:importRunId/cancel',
      operationId: 'cancelImportRun',
      summary: 'Cancel a pending or in-progress import run: it writes nothing',
      params: ImportRunParams,
      status: 201,
      response: ContentImportRun,
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params }) => cancelImportRun(ctx, caller, params.organizationId, params.importRunId),
    }),
  ]);
}
