import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../platform/app-type.ts';
import { callerOf } from '../../platform/auth.ts';
import { errors, ListQuery } from '../../platform/schemas.ts';
import type { ContentSource } from '../content/service.ts';
import { BacklinkList, LinkList, LinksQuery } from './schemas.ts';
import { listFileBacklinks, listPageBacklinks, listPageLinks, listSpaceLinks } from './service.ts';

const tags = ['links'];
const id = Type.String({ minLength: 1 });
const SpaceParams = Type.Object({ spaceId: id });
const CrParams = Type.Object({ spaceId: id, changeRequestId: id });

/** The page and file reads exist on a space's current content and on a change request's, with the official ids. */
const variants = [
  {
    prefix: '/spaces/:spaceId',
    params: SpaceParams,
    source: (p: Record<string, string>): ContentSource => ({ kind: 'space', spaceId: p.spaceId! }),
    ids: { pageLinks: 'listPageLinksInSpace', pageBacklinks: 'listSpacePageBacklinks', fileBacklinks: 'listSpaceFileBacklinks' },
    // The spec filters a page's links by status in a space, not in a change request.
    pageLinksQuery: LinksQuery,
  },
  {
    prefix: '/spaces/:spaceId/change-requests/:changeRequestId',
    params: CrParams,
    source: (p: Record<string, string>): ContentSource => ({ kind: 'change-request', spaceId: p.spaceId!, changeRequestId: p.changeRequestId! }),
    ids: { pageLinks: 'listPageLinksInChangeRequest', pageBacklinks: 'listChangeRequestPageBacklinks', fileBacklinks: 'listChangeRequestFileBacklinks' },
    pageLinksQuery: ListQuery,
  },
] as const;

const params = (request: FastifyRequest) => request.params as Record<string, string>;
const query = (request: FastifyRequest) => request.query as { page?: string; limit?: number; status?: 'ok' | 'broken' | 'in-app' };

export async function linkRoutes(app: App) {
  app.get(
    '/spaces/:spaceId/links',
    {
      schema: {
        operationId: 'listSpaceLinks',
        tags,
        summary: "Every link of the space's current revision, by target, with its status and the pages where it appears",
        params: SpaceParams,
        querystring: LinksQuery,
        response: { 200: LinkList, ...errors(400, 401, 404) },
      },
    },
    async (request) => listSpaceLinks(app.ctx, callerOf(request), request.params.spaceId, request.query),
  );
  for (const v of variants) {
    app.get(
      `${v.prefix}/content/page/:pageId/links`,
      {
        schema: {
          operationId: v.ids.pageLinks,
          tags,
          summary: 'The links of a page, by target, with their status',
          params: Type.Object({ ...v.params.properties, pageId: id }),
          querystring: v.pageLinksQuery,
          response: { 200: LinkList, ...errors(400, 401, 404) },
        },
      },
      async (request) => listPageLinks(app.ctx, callerOf(request), v.source(params(request)), params(request).pageId!, query(request)),
    );
    app.get(
      `${v.prefix}/content/page/:pageId/backlinks`,
      {
        schema: {
          operationId: v.ids.pageBacklinks,
          tags,
          summary: 'The pages that link to a page (or to an anchor in it)',
          params: Type.Object({ ...v.params.properties, pageId: id }),
          querystring: ListQuery,
          response: { 200: BacklinkList, ...errors(400, 401, 404) },
        },
      },
      async (request) => listPageBacklinks(app.ctx, callerOf(request), v.source(params(request)), params(request).pageId!, query(request)),
    );
    app.get(
      `${v.prefix}/content/files/:fileId/backlinks`,
      {
        schema: {
          operationId: v.ids.fileBacklinks,
          tags,
          summary: 'The pages that link to or show a file',
          params: Type.Object({ ...v.params.properties, fileId: id }),
          querystring: ListQuery,
          response: { 200: BacklinkList, ...errors(400, 401, 404) },
        },
      },
      async (request) => listFileBacklinks(app.ctx, callerOf(request), v.source(params(request)), params(request).fileId!, query(request)),
    );
  }
}
