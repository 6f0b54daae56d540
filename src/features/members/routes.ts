import type { App } from '../../platform/app-type.ts';
import { callerOf } from '../../platform/auth.ts';
import { sendJsonText } from '../../platform/json-text.ts';
import { errors, listOf, NoContent, OrganizationIdParams } from '../../platform/schemas.ts';
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

  app.get(
    '/orgs/:organizationId/members/:userId',
    {
      schema: {
        operationId: 'getMemberInOrganizationById',
        tags,
        summary: 'Get a member of an organization',
        params: MemberParams,
        response: { 200: Member, ...errors(401, 403, 404) },
      },
    },
    async (request) => getMemberOfOrganization(app.ctx, callerOf(request), request.params.organizationId, request.params.userId),
  );

  app.patch(
    '/orgs/:organizationId/members/:userId',
    {
      schema: {
        operationId: 'updateMemberInOrganizationById',
        tags,
        summary: "Change a member's role (null for a guest); the last admin cannot be demoted",
        params: MemberParams,
        body: UpdateMemberBody,
        response: { 200: Member, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request) => updateMemberRole(app.ctx, callerOf(request), request.params.organizationId, request.params.userId, request.body.role),
  );

  app.delete(
    '/orgs/:organizationId/members/:userId',
    {
      schema: {
        operationId: 'removeMemberFromOrganizationById',
        tags,
        summary: 'Remove a member from an organization (their content stays); the last admin cannot be removed',
        params: MemberParams,
        response: { 204: NoContent, ...errors(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await removeMember(app.ctx, callerOf(request), request.params.organizationId, request.params.userId);
      return reply.status(204).send();
    },
  );

  app.post(
    '/orgs/:organizationId/ping',
    {
      schema: {
        operationId: 'updateOrganizationMemberLastSeenAt',
        tags,
        summary: "Record the caller's activity in the organization; answers a JWT of their member claims",
        params: OrganizationIdParams,
        response: { 200: VisitorClaimsResult, ...errors(401, 404) },
      },
    },
    async (request) => pingOrganization(app.ctx, callerOf(request), request.params.organizationId),
  );

  app.post(
    '/orgs/:organizationId/members/:userId/sso',
    {
      schema: {
        operationId: 'setUserAsSSOMemberForOrganization',
        tags,
        summary: 'Mark a member as an SSO member',
        params: MemberParams,
        response: { 200: Member, ...errors(401, 403, 404) },
      },
    },
    async (request) => markMemberSso(app.ctx, callerOf(request), request.params.organizationId, request.params.userId),
  );

  app.get(
    '/orgs/:organizationId/members/:userId/spaces',
    {
      schema: {
        operationId: 'listSpacesForOrganizationMember',
        tags,
        summary: 'List the spaces where a member holds a role, with that role',
        params: MemberParams,
        querystring: ListMemberSpacesQuery,
        response: { 200: listOf(MemberSpacePermission), ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => listSpacesOfMember(app.ctx, callerOf(request), request.params.organizationId, request.params.userId, request.query),
  );

  app.get(
    '/orgs/:organizationId/members/:userId/teams',
    {
      schema: {
        operationId: 'listTeamsForOrganizationMember',
        tags,
        summary: 'List the teams of a member, with their role in each',
        params: MemberParams,
        querystring: ListMemberTeamsQuery,
        response: { 200: listOf(MemberTeam), ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => listTeamsOfMember(app.ctx, callerOf(request), request.params.organizationId, request.params.userId, request.query),
  );

  app.post(
    '/orgs/:organizationId/invites',
    {
      schema: {
        operationId: 'inviteUsersToOrganization',
        tags: ['organization-invites'],
        summary: 'Invite e-mail addresses: missing users are created, and they join the organization',
        params: OrganizationIdParams,
        body: InviteUsersBody,
        response: { 200: InviteUsersResult, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => inviteUsers(app.ctx, callerOf(request), request.params.organizationId, request.body),
  );
}
