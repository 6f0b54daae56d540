import type { App } from '../../platform/app-type.ts';
import { apiOperation, registerOperations } from '../../platform/api-operation.ts';
import { Embed, EmbedQuery, SpaceEmbedParams } from './schemas.ts';
import { resolveEmbed, resolveEmbedInSpace } from './service.ts';

export async function embedRoutes(app: App) {
  registerOperations(app, ['urls'], [
    apiOperation({
      method: 'GET',
      url: '/urls/embed',
      operationId: 'getEmbedByUrl',
      summary: 'Resolve a URL of the web to an embed: its title, site and icon, or its oEmbed HTML',
      querystring: EmbedQuery,
      response: Embed,
      errors: [400, 401],
      run: (ctx, caller, { query }) => resolveEmbed(ctx, caller, query.url),
    }),
    apiOperation({
      method: 'GET',
      url: '/spaces/:spaceId/embed',
      operationId: 'getEmbedByUrlInSpace',
      summary: "Resolve a URL to an embed within a space: an installed integration's block when one unfurls it",
      params: SpaceEmbedParams,
      querystring: EmbedQuery,
      response: Embed,
      errors: [400, 401, 404],
      run: (ctx, caller, { params, query }) => resolveEmbedInSpace(ctx, caller, params.spaceId, query.url),
    }),
  ]);
}
