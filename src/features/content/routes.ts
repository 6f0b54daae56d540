import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../platform/app-type.ts';
import { callerOf } from '../../platform/auth.ts';
import { errors, listOf } from '../../platform/schemas.ts';
import { FilesQuery, JSONDocument, PageQuery, PagesResponse, Revision, RevisionFile, RevisionPage, RevisionPageMetaLinks, RevisionQuery, RevisionReusableContent, RevisionSemanticChanges } from './schemas.ts';
import { readDocumentById, readFile, readFiles, readPage, readPageDocument, readPageMetaLinks, readPages, readReusableContent, readReusableContentDocument, readRevisionJson, type ContentSource } from './service.ts';
import { readRevisionChanges } from './revision-changes.ts';
import { apiOperation, registerOperations } from '../../platform/api-operation.ts';
import { markdownRenderer } from './markdown.ts';
import { applyTemplate, writeLiveContent } from './main-branch-writes.ts';
import { DocumentedUpdateContentBody, SaveConflictBody, UpdateContentBody } from './change-schemas.ts';
import { TEMPLATE_IDS } from './templates.ts';
import { NoContent } from '../../platform/schemas.ts';

const tags = ['content'];
const SpaceParams = Type.Object({ spaceId: Type.String({ minLength: 1 }) });
const CrParams = Type.Object({ spaceId: Type.String({ minLength: 1 }), changeRequestId: Type.String({ minLength: 1 }) });
const RevisionParams = Type.Object({ spaceId: Type.String({ minLength: 1 }), revisionId: Type.String({ minLength: 1 }) });

/**
 * The same reads exist on a space's current content, on a change request's and on any revision of the space; one
 * table registers the three, with the official operation ids. A revision's reads sit right under the revision
 * (`/revisions/:revisionId/pages`), the others under `/content`.
 */
const variants = [
  {
    prefix: '/spaces/:spaceId',
    content: '/content',
    params: SpaceParams,
    source: (p: Record<string, string>): ContentSource => ({ kind: 'space', spaceId: p.spaceId! }),
    summary: 'The current revision',
    ids: { revision: 'getCurrentRevision', pages: 'listPages', page: 'getPageById', path: 'getPageByPath', files: 'listFiles', file: 'getFileById', metaLinks: 'listSpacePageMetaLinks' },
  },
  {
    prefix: '/spaces/:spaceId/change-requests/:changeRequestId',
    content: '/content',
    params: CrParams,
    source: (p: Record<string, string>): ContentSource => ({ kind: 'change-request', spaceId: p.spaceId!, changeRequestId: p.changeRequestId! }),
    summary: 'The current revision of the change request',
    ids: {
      revision: 'getRevisionOfChangeRequestById',
      pages: 'listPagesInChangeRequest',
      page: 'getPageInChangeRequestById',
      path: 'getPageInChangeRequestByPath',
      files: 'listFilesInChangeRequestById',
      file: 'getFileInChangeRequestById',
      metaLinks: 'listChangeRequestPageMetaLinks',
    },
  },
  {
    prefix: '/spaces/:spaceId/revisions/:revisionId',
    content: '',
    params: RevisionParams,
    source: (p: Record<string, string>): ContentSource => ({ kind: 'revision', spaceId: p.spaceId!, revisionId: p.revisionId! }),
    summary: 'Any revision of a space (its main line or its change requests)',
    ids: {
      revision: 'getRevisionById',
      pages: 'listPagesInRevisionById',
      page: 'getPageInRevisionById',
      path: 'getPageInRevisionByPath',
      files: 'listFilesInRevisionById',
      file: 'getFileInRevisionById',
      metaLinks: 'listRevisionPageMetaLinks',
    },
  },
] as const;

const params = (request: FastifyRequest) => request.params as Record<string, string>;

export async function contentRoutes(app: App) {
  for (const v of variants) {
    app.get(
      `${v.prefix}${v.content}`,
      { schema: { operationId: v.ids.revision, tags, summary: v.summary, params: v.params, querystring: RevisionQuery, response: { 200: Revision, ...errors(400, 401, 404) } } },
      async (request, reply) => {
        // The answer is already JSON text (kept per revision): sent as it is, not serialized again.
        // (The typed reply expects the object; text with a JSON content type is sent untouched by Fastify.)
        const json = await readRevisionJson(app.ctx, callerOf(request), v.source(params(request)), (body) => String(reply.serialize(body)));
        return reply.type('application/json; charset=utf-8').send(json as never);
      },
    );
    app.get(
      `${v.prefix}${v.content}/pages`,
      { schema: { operationId: v.ids.pages, tags, summary: 'The page tree', params: v.params, querystring: RevisionQuery, response: { 200: PagesResponse, ...errors(400, 401, 404) } } },
      async (request) => readPages(app.ctx, callerOf(request), v.source(params(request))),
    );
    app.get(
      `${v.prefix}${v.content}/page/:pageId`,
      {
        schema: {
          operationId: v.ids.page,
          tags,
          summary: 'A page, with its document (format=document) or its markdown (format=markdown)',
          params: Type.Object({ ...v.params.properties, pageId: Type.String({ minLength: 1 }) }),
          querystring: PageQuery,
          response: { 200: RevisionPage, ...errors(400, 401, 404) },
        },
      },
      async (request) =>
        readPage(app.ctx, callerOf(request), v.source(params(request)), { pageId: params(request).pageId! }, { format: request.query.format }, (s) => markdownRenderer(app.ctx, s)),
    );
    app.get(
      `${v.prefix}${v.content}/page/:pageId/meta-links`,
      {
        schema: {
          operationId: v.ids.metaLinks,
          tags,
          summary: "The URLs a page is read at: `canonical` where the space is published first, `alternates` its other published site-spaces (empty when none publishes it)",
          params: Type.Object({ ...v.params.properties, pageId: Type.String({ minLength: 1 }) }),
          response: { 200: RevisionPageMetaLinks, ...errors(400, 401, 404) },
        },
      },
      async (request) => readPageMetaLinks(app.ctx, callerOf(request), v.source(params(request)), params(request).pageId!),
    );
    app.get(
      `${v.prefix}${v.content}/path/*`,
      {
        schema: {
          operationId: v.ids.path,
          tags,
          summary: 'A page by its path in the revision',
          params: Type.Object({ ...v.params.properties, '*': Type.String() }),
          querystring: PageQuery,
          response: { 200: RevisionPage, ...errors(400, 401, 404) },
        },
      },
      async (request) =>
        readPage(app.ctx, callerOf(request), v.source(params(request)), { path: decodeURIComponent(params(request)['*'] ?? '') }, { format: request.query.format }, (s) =>
          markdownRenderer(app.ctx, s),
        ),
    );
    app.get(
      `${v.prefix}${v.content}/files`,
      { schema: { operationId: v.ids.files, tags, summary: 'The files of the revision', params: v.params, querystring: FilesQuery, response: { 200: listOf(RevisionFile), ...errors(400, 401, 404) } } },
      async (request) => readFiles(app.ctx, callerOf(request), v.source(params(request)), request.query),
    );
    app.get(
      `${v.prefix}${v.content}/files/:fileId`,
      {
        schema: {
          operationId: v.ids.file,
          tags,
          summary: 'A file of the revision',
          params: Type.Object({ ...v.params.properties, fileId: Type.String({ minLength: 1 }) }),
          querystring: RevisionQuery,
          response: { 200: RevisionFile, ...errors(400, 401, 404) },
        },
      },
      async (request) => readFile(app.ctx, callerOf(request), v.source(params(request)), params(request).fileId!),
    );
  }

  const RevisionPageParams = Type.Object({ ...RevisionParams.properties, pageId: Type.String({ minLength: 1 }) });
  const ReusableContentParams = Type.Object({ ...RevisionParams.properties, reusableContentId: Type.String({ minLength: 1 }) });
  const revisionOf = (p: { spaceId: string; revisionId: string }): ContentSource => ({ kind: 'revision', spaceId: p.spaceId, revisionId: p.revisionId });
  const EvaluatedQuery = Type.Object({ evaluated: PageQuery.properties.evaluated });
  registerOperations(app, tags, [
    apiOperation({
      method: 'GET',
      url: '/spaces/:spaceId/revisions/:revisionId/changes',
      operationId: 'getRevisionSemanticChanges',
      summary: 'The semantic changes (pages, files, variables) of a revision against its parent',
      params: RevisionParams,
      querystring: Type.Object({ ...RevisionQuery.properties, limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 10 })) }),
      response: RevisionSemanticChanges,
      errors: [400, 401, 404],
      run: (ctx, caller, { params, query }) => readRevisionChanges(ctx, caller, params.spaceId, params.revisionId, query.limit ?? 10),
    }),
    apiOperation({
      method: 'GET',
      url: '/spaces/:spaceId/revisions/:revisionId/page/:pageId/document',
      operationId: 'getPageDocumentInRevisionById',
      summary: 'The document of a page in a revision',
      params: RevisionPageParams,
      querystring: EvaluatedQuery,
      response: JSONDocument,
      errors: [400, 401, 404],
      run: (ctx, caller, { params }) => readPageDocument(ctx, caller, revisionOf(params), params.pageId),
    }),
    apiOperation({
      method: 'GET',
      url: '/spaces/:spaceId/documents/:documentId',
      operationId: 'getDocumentById',
      summary: 'A document a page of the space holds or held, by its id (a page\'s `documentId`); this server keeps one document schema',
      params: Type.Object({ ...SpaceParams.properties, documentId: Type.String({ minLength: 1 }) }),
      querystring: Type.Object({ schema: Type.Optional(Type.Union([Type.Literal('current'), Type.Literal('next')], { description: 'Both answer the stored document' })) }),
      response: JSONDocument,
      errors: [400, 401, 404],
      run: (ctx, caller, { params }) => readDocumentById(ctx, caller, params.spaceId, params.documentId),
    }),
    apiOperation({
      method: 'GET',
      url: '/spaces/:spaceId/revisions/:revisionId/reusable-contents/:reusableContentId',
      operationId: 'getReusableContentInRevisionById',
      summary: 'A reusable content of a revision',
      params: ReusableContentParams,
      querystring: RevisionQuery,
      response: RevisionReusableContent,
      errors: [400, 401, 404],
      run: (ctx, caller, { params }) => readReusableContent(ctx, caller, revisionOf(params), params.reusableContentId),
    }),
    apiOperation({
      method: 'GET',
      url: '/spaces/:spaceId/revisions/:revisionId/reusable-contents/:reusableContentId/document',
      operationId: 'getReusableContentDocumentInRevisionById',
      summary: 'The document of a reusable content of a revision (an empty one while it has none)',
      params: ReusableContentParams,
      querystring: EvaluatedQuery,
      response: JSONDocument,
      errors: [400, 401, 404],
      run: (ctx, caller, { params }) => readReusableContentDocument(ctx, caller, revisionOf(params), params.reusableContentId),
    }),
    apiOperation({
      method: 'GET',
      url: '/spaces/:spaceId/content/reusable-contents/:reusableContentId',
      operationId: 'getReusableContentById',
      summary: "A reusable content of the space's current revision",
      params: Type.Object({ ...SpaceParams.properties, reusableContentId: Type.String({ minLength: 1 }) }),
      querystring: RevisionQuery,
      response: RevisionReusableContent,
      errors: [400, 401, 404],
      run: (ctx, caller, { params }) => readReusableContent(ctx, caller, { kind: 'space', spaceId: params.spaceId }, params.reusableContentId),
    }),
    apiOperation({
      method: 'GET',
      url: '/spaces/:spaceId/change-requests/:changeRequestId/content/reusable-contents/:reusableContentId',
      operationId: 'getReusableContentInChangeRequestById',
      summary: "A reusable content of the change request's current revision",
      params: Type.Object({ ...CrParams.properties, reusableContentId: Type.String({ minLength: 1 }) }),
      querystring: RevisionQuery,
      response: RevisionReusableContent,
      errors: [400, 401, 404],
      run: (ctx, caller, { params }) =>
        readReusableContent(ctx, caller, { kind: 'change-request', spaceId: params.spaceId, changeRequestId: params.changeRequestId }, params.reusableContentId),
    }),
  ]);

  app.post(
    '/spaces/:spaceId/content/template',
    {
      schema: {
        operationId: 'applyTemplateToSpace',
        tags,
        summary: `Add a built-in template's pages to the space (${TEMPLATE_IDS.join(', ')})`,
        params: SpaceParams,
        body: Type.Object({ id: Type.String({ minLength: 1, description: `One of: ${TEMPLATE_IDS.join(', ')}` }) }),
        response: { 201: NoContent, ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await applyTemplate(app.ctx, callerOf(request), request.params.spaceId, request.body.id);
      return reply.status(201).send();
    },
  );

  app.post(
    '/spaces/:spaceId/content',
    {
      config: { documentedBody: DocumentedUpdateContentBody },
      schema: {
        operationId: 'updateSpaceContent',
        'x-quire-extension': true,
        tags,
        summary: "Apply a batch of up to 50 content changes to a live space's main line, atomically, as one revision (the body of updateChangeRequestContent)",
        params: SpaceParams,
        body: UpdateContentBody,
        response: {
          200: Type.Unsafe<unknown>({ description: '{ revision, changes, insertedFiles, merged }: the revision written, what each page became, the files inserted, the documents merged with edits made since their baseRevision' }),
          ...errors(400, 401, 403, 404, 413),
          409: SaveConflictBody,
        },
      },
    },
    async (request) => writeLiveContent(app.ctx, callerOf(request), request.params.spaceId, request.body.changes),
  );
}
