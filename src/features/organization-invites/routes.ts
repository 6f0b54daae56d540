import { Type } from 'typebox';
import type { App } from '../../platform/app-type.ts';
import { apiOperation, registerOperations } from '../../platform/api-operation.ts';
import { callerOf } from '../../platform/auth.ts';
import { errors, listOf, ListQuery, NoContent, OrganizationIdParams } from '../../platform/schemas.ts';
import { CreateOrganizationInviteBody, InviteLinkToOrganization, InviteParams, UpdateOrganizationInviteBody } from './schemas.ts';
import {
  createOrganizationInvite,
  deleteOrganizationInvite,
  getOrganizationInvite,
  joinOrganizationWithInvite,
  listOrganizationInvites,
  updateOrganizationInvite,
} from './service.ts';

/** GitBook's shareable organization invite links (`/orgs/{organizationId}/link-invites`) and joining with one. */
export async function organizationInviteRoutes(app: App) {
  registerOperations(app, ['organization-invites'], [
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/link-invites',
      operationId: 'listOrganizationInviteLinks',
      summary: 'List the invite links of an organization',
      params: OrganizationIdParams,
      querystring: ListQuery,
      response: listOf(InviteLinkToOrganization),
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, query }) => listOrganizationInvites(ctx, caller, params.organizationId, query),
    }),
    apiOperation({
      method: 'POST',
      url: '/orgs/:organizationId/link-invites',
      operationId: 'createOrganizationInvite',
      summary: 'Create an invite link with a role: whoever has an account and the link joins with that role',
      params: OrganizationIdParams,
      body: CreateOrganizationInviteBody,
      status: 201,
      response: InviteLinkToOrganization,
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, body }) => createOrganizationInvite(ctx, caller, params.organizationId, body),
    }),
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/link-invites/:inviteId',
      operationId: 'getOrganizationInviteLink',
      summary: 'Get an invite link of an organization',
      params: InviteParams,
      response: InviteLinkToOrganization,
      errors: [401, 403, 404],
      run: (ctx, caller, { params }) => getOrganizationInvite(ctx, caller, params.organizationId, params.inviteId),
    }),
    apiOperation({
      method: 'PATCH',
      url: '/orgs/:organizationId/link-invites/:inviteId',
      operationId: 'updateOrganizationInviteById',
      summary: 'Change the role an invite link gives',
      params: InviteParams,
      body: UpdateOrganizationInviteBody,
      response: InviteLinkToOrganization,
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, body }) => updateOrganizationInvite(ctx, caller, params.organizationId, params.inviteId, body),
    }),
    apiOperation({
      method: 'POST',
      url: '/orgs/:organizationId/invites/:inviteId',
      operationId: 'joinOrganizationWithInvite',
      summary: 'Join an organization with an invite link',
      params: InviteParams,
      response: Type.Object({}),
      errors: [401, 403, 404],
      run: (ctx, caller, { params }) => joinOrganizationWithInvite(ctx, caller, params.organizationId, params.inviteId),
    }),
  ]);

  app.delete(
    '/orgs/:organizationId/link-invites/:inviteId',
    {
      schema: {
        operationId: 'deleteOrganizationInviteById',
        tags: ['organization-invites'],
        summary: 'Delete an invite link: 205 when it was deleted, 204 when there was none',
        params: InviteParams,
        response: { 204: NoContent, 205: NoContent, ...errors(401, 403) },
      },
    },
    async (request, reply) => {
      const deleted = await deleteOrganizationInvite(app.ctx, callerOf(request), request.params.organizationId, request.params.inviteId);
      return reply.status(deleted ? 205 : 204).send();
    },
  );
}
