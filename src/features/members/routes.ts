import type { App } from '../../platform/app-type.ts';
import { mailInvitations } from '../auth/service.ts';
import { apiOperation, registerOperations } from '../../platform/api-operation.ts';
import { callerOf } from '../../platform/auth.ts';
import { sendJsonText } from '../../platform/json-text.ts';
import { errors, listOf, OrganizationIdParams } from '../../platform/schemas.ts';
import {
  InviteUsersBody,
  InviteUsersResult,
  ListMembersQuery,
  ListMemberSpacesQuery,
  ListMemberTeamsQuery,
  Member,
  MemberParams,
  MemberSpacePermission,
  MemberTeam,
  UpdateMemberBody,
  VisitorClaimsResult,
} from './schemas.ts';
import {
  getMemberOfOrganization,
  inviteUsers,
  listMembersOfOrganizationJson,
  listSpacesOfMember,
  listTeamsOfMember,
  markMemberSso,
  pingOrganization,
  removeMember,
  updateMemberRole,
} from './service.ts';

const tags = ['organization-members'];

export async function memberRoutes(app: App) {
  // A page of members is kept as the JSON text the route's own serializer wrote, so this one needs its reply.
  app.get(
    '/orgs/:organizationId/members',
    {
      schema: {
        operationId: 'listMembersInOrganizationById',
        tags,
        summary: 'List the members of an organization',
        params: OrganizationIdParams,
        querystring: ListMembersQuery,
        response: { 200: listOf(Member), ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const json = await listMembersOfOrganizationJson(app.ctx, callerOf(request), request.params.organizationId, request.query, (page) => String(reply.serialize(page)));
      return sendJsonText(reply, json);
    },
  );

  registerOperations(app, tags, [
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/members/:userId',
      operationId: 'getMemberInOrganizationById',
      summary: 'Get a member of an organization',
      params: MemberParams,
      response: Member,
      errors: [401, 403, 404],
      run: (ctx, caller, { params }) => getMemberOfOrganization(ctx, caller, params.organizationId, params.userId),
    }),
    apiOperation({
      method: 'PATCH',
      url: '/orgs/:organizationId/members/:userId',
      operationId: 'updateMemberInOrganizationById',
      summary: "Change a member's role (null for a guest) or disable them; the last admin cannot be demoted or disabled",
      params: MemberParams,
      body: UpdateMemberBody,
      response: Member,
      errors: [400, 401, 403, 404, 409],
      run: (ctx, caller, { params, body }) => updateMemberRole(ctx, caller, params.organizationId, params.userId, body.role, body.disabled),
    }),
    apiOperation({
      method: 'DELETE',
      url: '/orgs/:organizationId/members/:userId',
      operationId: 'removeMemberFromOrganizationById',
      summary: 'Remove a member from an organization (their content stays); the last admin cannot be removed',
      params: MemberParams,
      status: 204,
      errors: [401, 403, 404, 409],
      run: (ctx, caller, { params }) => removeMember(ctx, caller, params.organizationId, params.userId),
    }),
    apiOperation({
      method: 'POST',
      url: '/orgs/:organizationId/ping',
      operationId: 'updateOrganizationMemberLastSeenAt',
      summary: "Record the caller's activity in the organization; answers a JWT of their member claims",
      params: OrganizationIdParams,
      response: VisitorClaimsResult,
      errors: [401, 404],
      run: (ctx, caller, { params }) => pingOrganization(ctx, caller, params.organizationId),
    }),
    apiOperation({
      method: 'POST',
      url: '/orgs/:organizationId/members/:userId/sso',
      operationId: 'setUserAsSSOMemberForOrganization',
      summary: 'Mark a member as an SSO member',
      params: MemberParams,
      response: Member,
      errors: [401, 403, 404],
      run: (ctx, caller, { params }) => markMemberSso(ctx, caller, params.organizationId, params.userId),
    }),
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/members/:userId/spaces',
      operationId: 'listSpacesForOrganizationMember',
      summary: 'List the spaces where a member holds a role, with that role',
      params: MemberParams,
      querystring: ListMemberSpacesQuery,
      response: listOf(MemberSpacePermission),
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, query }) => listSpacesOfMember(ctx, caller, params.organizationId, params.userId, query),
    }),
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/members/:userId/teams',
      operationId: 'listTeamsForOrganizationMember',
      summary: 'List the teams of a member, with their role in each',
      params: MemberParams,
      querystring: ListMemberTeamsQuery,
      response: listOf(MemberTeam),
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, query }) => listTeamsOfMember(ctx, caller, params.organizationId, params.userId, query),
    }),
  ]);

  registerOperations(app, ['organization-invites'], [
    apiOperation({
      method: 'POST',
      url: '/orgs/:organizationId/invites',
      operationId: 'inviteUsersToOrganization',
      summary: 'Invite e-mail addresses: missing users are created, and they join the organization',
      params: OrganizationIdParams,
      body: InviteUsersBody,
      response: InviteUsersResult,
      errors: [400, 401, 403, 404],
      run: async (ctx, caller, { params, body }) => {
        const result = await inviteUsers(ctx, caller, params.organizationId, body);
        // Newcomers get the link that lets them set a password, when mail is set up (features/auth).
        await mailInvitations(ctx, params.organizationId, [...result.users, ...result.pending]);
        return result;
      },
    }),
  ]);
}
