import type { App } from '../../platform/app-type.ts';
import { apiOperation, registerOperations } from '../../platform/api-operation.ts';
import { listOf, ListQuery, OrganizationIdParams } from '../../platform/schemas.ts';
import { Member } from '../members/schemas.ts';
import { Type } from 'typebox';
import { CreateTeamBody, ListTeamsQuery, PutTeamMemberBody, Team, TeamIdParams, TeamMember, TeamMemberParams, UpdateTeamBody, UpdateTeamMembersBody } from './schemas.ts';
import { createTeam, getTeam, listMembersOfTeam, listTeamsOfOrganization, putTeamMember, removeTeam, removeTeamMember, renameTeam, updateMembersOfTeam } from './service.ts';

const TeamMemberItem = Type.Object({ organization: Member, team: TeamMember, permissions: Type.Object({ view: Type.Boolean() }) });

export async function teamRoutes(app: App) {
  registerOperations(app, ['teams'], [
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/teams',
      operationId: 'listTeamsInOrganizationById',
      summary: 'List the teams of an organization',
      params: OrganizationIdParams,
      querystring: ListTeamsQuery,
      response: listOf(Team),
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, query }) => listTeamsOfOrganization(ctx, caller, params.organizationId, query),
    }),
    apiOperation({
      method: 'PUT',
      url: '/orgs/:organizationId/teams',
      operationId: 'createOrganizationTeam',
      summary: 'Create a team, optionally with members',
      params: OrganizationIdParams,
      body: CreateTeamBody,
      status: 201,
      response: Team,
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, body }) => createTeam(ctx, caller, params.organizationId, body),
    }),
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/teams/:teamId',
      operationId: 'getTeamInOrganizationById',
      summary: 'Get a team',
      params: TeamIdParams,
      response: Team,
      errors: [401, 403, 404],
      run: (ctx, caller, { params }) => getTeam(ctx, caller, params.organizationId, params.teamId),
    }),
    apiOperation({
      method: 'PATCH',
      url: '/orgs/:organizationId/teams/:teamId',
      operationId: 'updateTeamInOrganizationById',
      summary: 'Rename a team',
      params: TeamIdParams,
      body: UpdateTeamBody,
      response: Team,
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, body }) => renameTeam(ctx, caller, params.organizationId, params.teamId, body.title),
    }),
    apiOperation({
      method: 'DELETE',
      url: '/orgs/:organizationId/teams/:teamId',
      operationId: 'removeTeamFromOrganizationById',
      summary: 'Delete a team; its members lose what it was granted',
      params: TeamIdParams,
      status: 204,
      errors: [401, 403, 404],
      run: (ctx, caller, { params }) => removeTeam(ctx, caller, params.organizationId, params.teamId),
    }),
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/teams/:teamId/members',
      operationId: 'listTeamMembersInOrganizationById',
      summary: 'List the members of a team',
      params: TeamIdParams,
      querystring: ListQuery,
      response: listOf(TeamMemberItem),
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, query }) => listMembersOfTeam(ctx, caller, params.organizationId, params.teamId, query),
    }),
    apiOperation({
      method: 'PUT',
      url: '/orgs/:organizationId/teams/:teamId/members',
      operationId: 'updateMembersInOrganizationTeam',
      summary: 'Add, remove and change the roles of team members (a user both added and removed is removed)',
      params: TeamIdParams,
      body: UpdateTeamMembersBody,
      status: 204,
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, body }) => updateMembersOfTeam(ctx, caller, params.organizationId, params.teamId, body),
    }),
    apiOperation({
      method: 'PUT',
      url: '/orgs/:organizationId/teams/:teamId/members/:userId',
      operationId: 'addMemberToOrganizationTeamById',
      summary: 'Add a member to a team, or change their role in it',
      params: TeamMemberParams,
      body: PutTeamMemberBody,
      status: 204,
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, body }) => putTeamMember(ctx, caller, params.organizationId, params.teamId, params.userId, body),
    }),
    apiOperation({
      method: 'DELETE',
      url: '/orgs/:organizationId/teams/:teamId/members/:userId',
      operationId: 'deleteMemberFromOrganizationTeamById',
      summary: 'Remove a member from a team',
      params: TeamMemberParams,
      status: 204,
      errors: [401, 403, 404],
      run: (ctx, caller, { params }) => removeTeamMember(ctx, caller, params.organizationId, params.teamId, params.userId),
    }),
  ]);
}
