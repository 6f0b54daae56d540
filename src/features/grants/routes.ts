import type { App } from '../../platform/app-type.ts';
import { callerOf } from '../../platform/auth.ts';
import { CollectionIdParams, errors, listOf, ListQuery, NoContent, SpaceIdParams } from '../../platform/schemas.ts';
import {
  AggregateQuery,
  CollectionTeamParams,
  CollectionUserParams,
  InviteToContentBody,
  SpaceTeamParams,
  SpaceUserParams,
  TeamPermission,
  UpdateGrantBody,
  UserPermission,
} from './schemas.ts';
import { inviteToContent, listPermissionsAggregate, listTeamPermissions, listUserPermissions, removeGrant, setGrant, type GrantKind } from './service.ts';

/**
 * The same seven operations on spaces and on collections (GitBook has both; the collection ones are outside the
 * seed's list, but without them a collection grant, which the policy honours, could not be given).
 */
const TARGETS = [
  {
    kind: 'space',
    base: '/spaces/:spaceId',
    param: 'spaceId',
    params: SpaceIdParams,
    userParams: SpaceUserParams,
    teamParams: SpaceTeamParams,
    ids: {
      invite: 'inviteToSpace',
      listUsers: 'listUserPermissionsInSpace',
      updateUser: 'updateUserPermissionInSpace',
      removeUser: 'removeUserFromSpace',
      listTeams: 'listTeamPermissionsInSpace',
      updateTeam: 'updateTeamPermissionInSpace',
      removeTeam: 'removeTeamFromSpace',
      aggregate: 'listPermissionsAggregateInSpace',
    },
  },
  {
    kind: 'collection',
    base: '/collections/:collectionId',
    param: 'collectionId',
    params: CollectionIdParams,
    userParams: CollectionUserParams,
    teamParams: CollectionTeamParams,
    ids: {
      invite: 'inviteToCollection',
      listUsers: 'listUserPermissionsInCollection',
      updateUser: 'updateUserPermissionInCollection',
      removeUser: 'removeUserFromCollection',
      listTeams: 'listTeamPermissionsInCollection',
      updateTeam: 'updateTeamPermissionInCollection',
      removeTeam: 'removeTeamFromCollection',
      aggregate: 'listPermissionsAggregateInCollection',
    },
  },
] as const;

export async function grantRoutes(app: App) {
  for (const t of TARGETS) {
    const kind: GrantKind = t.kind;
    const tags = [`${kind}-permissions`];
    const targetId = (params: unknown) => (params as Record<string, string>)[t.param]!;

    app.get(
      `${t.base}/permissions/aggregate`,
      {
        schema: {
          operationId: t.ids.aggregate,
          tags: [`${kind}-users`],
          summary: `List every member who holds a role on the ${kind}, and the role, whatever it comes from`,
          params: t.params,
          querystring: AggregateQuery,
          response: { 200: listOf(UserPermission), ...errors(400, 401, 404) },
        },
      },
      async (request) => listPermissionsAggregate(app.ctx, callerOf(request), kind, targetId(request.params), request.query),
    );

    app.post(
      `${t.base}/permissions`,
      {
        schema: {
          operationId: t.ids.invite,
          tags,
          summary: `Give a role on the ${kind} to members and teams (null takes it away)`,
          params: t.params,
          body: InviteToContentBody,
          response: { 204: NoContent, ...errors(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        await inviteToContent(app.ctx, callerOf(request), kind, targetId(request.params), request.body);
        return reply.status(204).send();
      },
    );

    app.get(
      `${t.base}/permissions/users`,
      {
        schema: {
          operationId: t.ids.listUsers,
          tags,
          summary: `List the members given a role on the ${kind}`,
          params: t.params,
          querystring: ListQuery,
          response: { 200: listOf(UserPermission), ...errors(400, 401, 404) },
        },
      },
      async (request) => listUserPermissions(app.ctx, callerOf(request), kind, targetId(request.params), request.query),
    );

    app.get(
      `${t.base}/permissions/teams`,
      {
        schema: {
          operationId: t.ids.listTeams,
          tags,
          summary: `List the teams given a role on the ${kind}`,
          params: t.params,
          querystring: ListQuery,
          response: { 200: listOf(TeamPermission), ...errors(400, 401, 404) },
        },
      },
      async (request) => listTeamPermissions(app.ctx, callerOf(request), kind, targetId(request.params), request.query),
    );

    for (const subject of ['user', 'team'] as const) {
      const path = subject === 'user' ? `${t.base}/permissions/users/:userId` : `${t.base}/permissions/teams/:teamId`;
      const subjectId = (params: unknown) => (params as Record<string, string>)[subject === 'user' ? 'userId' : 'teamId']!;
      app.patch(
        path,
        {
          schema: {
            operationId: subject === 'user' ? t.ids.updateUser : t.ids.updateTeam,
            tags,
            summary: `Set the role of a ${subject === 'user' ? 'member' : 'team'} on the ${kind} (null takes it away)`,
              params: subject === 'user' ? t.userParams : t.teamParams,
            body: UpdateGrantBody,
            response: { 204: NoContent, ...errors(400, 401, 403, 404) },
          },
        },
        async (request, reply) => {
          await setGrant(app.ctx, callerOf(request), kind, targetId(request.params), subject, subjectId(request.params), request.body.role);
          return reply.status(204).send();
        },
      );
      app.delete(
        path,
        {
          schema: {
            operationId: subject === 'user' ? t.ids.removeUser : t.ids.removeTeam,
            tags,
            summary: `Take away the role of a ${subject === 'user' ? 'member' : 'team'} on the ${kind}`,
              params: subject === 'user' ? t.userParams : t.teamParams,
            response: { 204: NoContent, ...errors(401, 403, 404) },
          },
        },
        async (request, reply) => {
          await removeGrant(app.ctx, callerOf(request), kind, targetId(request.params), subject, subjectId(request.params));
          return reply.status(204).send();
        },
      );
    }
  }
}
