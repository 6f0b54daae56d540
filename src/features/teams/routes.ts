import type { App } from '../../platform/app-type.ts';
import { callerOf } from '../../platform/auth.ts';
import { errors, listOf, ListQuery, NoContent, OrganizationIdParams } from '../../platform/schemas.ts';
import { Member } from '../members/schemas.ts';
import { Type } from 'typebox';
import { CreateTeamBody, ListTeamsQuery, PutTeamMemberBody, Team, TeamIdParams, TeamMember, TeamMemberParams, UpdateTeamBody, UpdateTeamMembersBody } from './schemas.ts';
import { createTeam, getTeam, listMembersOfTeam, listTeamsOfOrganization, putTeamMember, removeTeam, removeTeamMember, renameTeam, updateMembersOfTeam } from './service.ts';

const tags = ['teams'];

const TeamMemberItem = Type.Object({ organization: Member, team: TeamMember, permissions: Type.Object({ view: Type.Boolean() }) });

export async function teamRoutes(app: App) {
  app.get(
    '/orgs/:organizationId/teams',
    {
      schema: {
        operationId: 'listTeamsInOrganizationById',
        tags,
        summary: 'List the teams of an organization',
        params: OrganizationIdParams,
        querystring: ListTeamsQuery,
        response: { 200: listOf(Team), ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => listTeamsOfOrganization(app.ctx, callerOf(request), request.params.organizationId, request.query),
  );

  app.put(
    '/orgs/:organizationId/teams',
    {
      schema: {
        operationId: 'createOrganizationTeam',
        tags,
        summary: 'Create a team, optionally with members',
        params: OrganizationIdParams,
        body: CreateTeamBody,
        response: { 201: Team, ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => reply.status(201).send(await createTeam(app.ctx, callerOf(request), request.params.organizationId, request.body)),
  );

  app.get(
    '/orgs/:organizationId/teams/:teamId',
    {
      schema: { operationId: 'getTeamInOrganizationById', tags, summary: 'Get a team', params: TeamIdParams, response: { 200: Team, ...errors(401, 403, 404) } },
    },
    async (request) => getTeam(app.ctx, callerOf(request), request.params.organizationId, request.params.teamId),
  );

  app.patch(
    '/orgs/:organizationId/teams/:teamId',
    {
      schema: {
        operationId: 'updateTeamInOrganizationById',
        tags,
        summary: 'Rename a team',
        params: TeamIdParams,
        body: UpdateTeamBody,
        response: { 200: Team, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => renameTeam(app.ctx, callerOf(request), request.params.organizationId, request.params.teamId, request.body.title),
  );

  app.delete(
    '/orgs/:organizationId/teams/:teamId',
    {
      schema: {
        operationId: 'removeTeamFromOrganizationById',
        tags,
        summary: 'Delete a team; its members lose what it was granted',
        params: TeamIdParams,
        response: { 204: NoContent, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await removeTeam(app.ctx, callerOf(request), request.params.organizationId, request.params.teamId);
      return reply.status(204).send();
    },
  );

  app.get(
    '/orgs/:organizationId/teams/:teamId/members',
    {
      schema: {
        operationId: 'listTeamMembersInOrganizationById',
        tags,
        summary: 'List the members of a team',
        params: TeamIdParams,
        querystring: ListQuery,
        response: { 200: listOf(TeamMemberItem), ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => listMembersOfTeam(app.ctx, callerOf(request), request.params.organizationId, request.params.teamId, request.query),
  );

  app.put(
    '/orgs/:organizationId/teams/:teamId/members',
    {
      schema: {
        operationId: 'updateMembersInOrganizationTeam',
        tags,
        summary: 'Add, remove and change the roles of team members (a user both added and removed is removed)',
        params: TeamIdParams,
        body: UpdateTeamMembersBody,
        response: { 204: NoContent, ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await updateMembersOfTeam(app.ctx, callerOf(request), request.params.organizationId, request.params.teamId, request.body);
      return reply.status(204).send();
    },
  );

  app.put(
    '/orgs/:organizationId/teams/:teamId/members/:userId',
    {
      schema: {
        operationId: 'addMemberToOrganizationTeamById',
        tags,
        summary: 'Add a member to a team, or change their role in it',
        params: TeamMemberParams,
        body: PutTeamMemberBody,
        response: { 204: NoContent, ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { organizationId, teamId, userId } = request.params;
      await putTeamMember(app.ctx, callerOf(request), organizationId, teamId, userId, request.body);
      return reply.status(204).send();
    },
  );

  app.delete(
    '/orgs/:organizationId/teams/:teamId/members/:userId',
    {
      schema: {
        operationId: 'deleteMemberFromOrganizationTeamById',
        tags,
        summary: 'Remove a member from a team',
        params: TeamMemberParams,
        response: { 204: NoContent, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { organizationId, teamId, userId } = request.params;
      await removeTeamMember(app.ctx, callerOf(request), organizationId, teamId, userId);
      return reply.status(204).send();
    },
  );
}
