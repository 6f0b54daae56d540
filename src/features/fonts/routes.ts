import type { App } from '../../platform/app-type.ts';
import { apiOperation, registerOperations } from '../../platform/api-operation.ts';
import { callerOf } from '../../platform/auth.ts';
import { errors, NoContent, OrganizationIdParams } from '../../platform/schemas.ts';
import { CreateFontBody, CustomFont, CustomFontList, FontParams, UpdateFontBody } from './schemas.ts';
import { createCustomFont, deleteCustomFont, getCustomFont, listCustomFonts, updateCustomFont } from './service.ts';

const tags = ['organizations'];

/** An organization's custom fonts, for its sites' customization (`styling.font`). */
export async function fontRoutes(app: App) {
  registerOperations(app, tags, [
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/fonts',
      operationId: 'listCustomFonts',
      summary: 'List the custom fonts of an organization',
      params: OrganizationIdParams,
      response: CustomFontList,
      errors: [401, 403, 404],
      run: (ctx, caller, { params }) => listCustomFonts(ctx, caller, params.organizationId),
    }),
    apiOperation({
      method: 'PUT',
      url: '/orgs/:organizationId/fonts',
      operationId: 'createCustomFont',
      summary: 'Add a custom font from WOFF2 or WOFF files stored on this server (organization admins)',
      params: OrganizationIdParams,
      body: CreateFontBody,
      status: 201,
      response: CustomFont,
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, body }) => createCustomFont(ctx, caller, params.organizationId, body),
    }),
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/fonts/:fontId',
      operationId: 'getCustomFont',
      summary: 'Get a custom font',
      params: FontParams,
      response: CustomFont,
      errors: [401, 403, 404],
      run: (ctx, caller, { params }) => getCustomFont(ctx, caller, params.organizationId, params.fontId),
    }),
    apiOperation({
      method: 'POST',
      url: '/orgs/:organizationId/fonts/:fontId',
      operationId: 'updateCustomFont',
      summary: 'Rename a custom font, or set or remove its faces by weight (organization admins)',
      params: FontParams,
      body: UpdateFontBody,
      status: 201,
      response: CustomFont,
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, body }) => updateCustomFont(ctx, caller, params.organizationId, params.fontId, body),
    }),
  ]);

  // 205 when the font was deleted, 204 when there was none: two success statuses.
  app.delete(
    '/orgs/:organizationId/fonts/:fontId',
    {
      schema: {
        operationId: 'deleteCustomFont',
        tags,
        summary: 'Delete a custom font (205; 204 when there was none)',
        params: FontParams,
        response: { 204: NoContent, 205: NoContent, ...errors(401, 403) },
      },
    },
    async (request, reply) => {
      const removed = await deleteCustomFont(app.ctx, callerOf(request), request.params.organizationId, request.params.fontId);
      return reply.status(removed ? 205 : 204).send();
    },
  );
}
