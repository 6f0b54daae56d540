import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../platform/app-type.ts';
import { callerOf } from '../../platform/auth.ts';
import { errors, listOf } from '../../platform/schemas.ts';
import { FilesQuery, PageQuery, PagesResponse, Revision, RevisionFile, RevisionPage, RevisionQuery } from './schemas.ts';
import { readFile, readFiles, readPage, readPages, readRevision, readRevisionJson, type ContentSource } from './service.ts';
import { markdownRenderer } from './markdown.ts';
import { applyTemplate } from './main-branch-writes.ts';
import { TEMPLATE_IDS } from './templates.ts';
import { NoContent } from '../../platform/schemas.ts';

const tags = ['content'];
const SpaceParams = Type.Object({ spaceId: Type.String({ minLength: 1 }) });
const CrParams = Type.Object({ spaceId: Type.String({ minLength: 1 }), changeRequestId: Type.String({ minLength: 1 }) });

/**
 * The same reads exist on a space's current content and on a change request's; one table registers both,
 * with the official operation ids.
 */
const variants = [
  {
    prefix: '/spaces/:spaceId',
    params: SpaceParams,
    source: (p: Record<string, string>): ContentSource => ({ kind: 'space', spaceId: p.spaceId! }),
    ids: { revision: 'getCurrentRevision', pages: 'listPages', page: 'getPageById', path: 'getPageByPath', files: 'listFiles', file: 'getFileById' },
  },
  {
    prefix: '/spaces/:spaceId/change-requests/:changeRequestId',
    params: CrParams,
    source: (p: Record<string, string>): ContentSource => ({ kind: 'change-request', spaceId: p.spaceId!, changeRequestId: p.changeRequestId! }),
    ids: {
      revision: 'getRevisionOfChangeRequestById',
      pages: 'listPagesInChangeRequest',
      page: 'getPageInChangeRequestById',
      path: 'getPageInChangeRequestByPath',
      files: 'listFilesInChangeRequestById',
      file: 'getFileInChangeRequestById',
    },
  },
] as const;

const params = (request: FastifyRequest) => request.params as Record<string, string>;

export async function contentRoutes(app: App) {
  for (const v of variants) {
    app.get(
      `${v.prefix}/content`,
      { schema: { operationId: v.ids.revision, tags, summary: 'The current revision', params: v.params, querystring: RevisionQuery, response: { 200: Revision, ...errors(400, 401, 404) } } },
      async (request, reply) => {
        // The answer is already JSON text (kept per revision): sent as it is, not serialized again.
        // (The typed reply expects the object; text with a JSON content type is sent untouched by Fastify.)
        const json = await readRevisionJson(app.ctx, callerOf(request), v.source(params(request)), (body) => String(reply.serialize(body)));
        return reply.type('application/json; charset=utf-8').send(json as never);
      },
    );
    app.get(
      `${v.prefix}/content/pages`,
      { schema: { operationId: v.ids.pages, tags, summary: 'The page tree', params: v.params, querystring: RevisionQuery, response: { 200: PagesResponse, ...errors(400, 401, 404) } } },
      async (request) => readPages(app.ctx, callerOf(request), v.source(params(request))),
    );
    app.get(
      `${v.prefix}/content/page/:pageId`,
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
      `${v.prefix}/content/path/*`,
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
      `${v.prefix}/content/files`,
      { schema: { operationId: v.ids.files, tags, summary: 'The files of the revision', params: v.params, querystring: FilesQuery, response: { 200: listOf(RevisionFile), ...errors(400, 401, 404) } } },
      async (request) => readFiles(app.ctx, callerOf(request), v.source(params(request)), request.query),
    );
    app.get(
      `${v.prefix}/content/files/:fileId`,
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

  app.get(
    '/spaces/:spaceId/revisions/:revisionId',
    {
      schema: {
        operationId: 'getRevisionById',
        tags,
        summary: 'Any revision of a space (its main line or its change requests)',
        params: Type.Object({ spaceId: Type.String({ minLength: 1 }), revisionId: Type.String({ minLength: 1 }) }),
        querystring: RevisionQuery,
        response: { 200: Revision, ...errors(400, 401, 404) },
      },
    },
    async (request) => readRevision(app.ctx, callerOf(request), { kind: 'revision', spaceId: request.params.spaceId, revisionId: request.params.revisionId }),
  );

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
}
