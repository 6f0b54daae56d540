import { Type } from 'typebox';
import type { App } from '../../platform/app-type.ts';
import { callerOf } from '../../platform/auth.ts';
import { errors, listOf, ListQuery, NoContent } from '../../platform/schemas.ts';
import { SiteIdParams } from './schemas.ts';
import {
  InviteToSiteBody,
  SiteAggregateQuery,
  SiteTeamParams,
  SiteUserParams,
  TeamSitePermissionOverride,
  UpdateSiteGrantBody,
  UserSitePermission,
  UserSitePermissionOverride,
} from './site-permissions-schemas.ts';
import { inviteToSite, listSitePermissionsAggregate, listSiteTeamPermissions, listSiteUserPermissions, removeSiteGrant, setSiteGrant } from './site-permissions.ts';

/* The official site-permissions operations (site-permissions.ts): who has access to a site, and with which role. */

const SITE = '/orgs/:organizationId/sites/:siteId';

export async function sitePermissionRoutes(app: App) {
  const ctx = app.ctx;

  app.post(`${SITE}/permissions`, {
    schema: {
      operationId: 'inviteToSite', tags: ['site-permissions'], summary: 'Give a role on the site to members and teams (null takes it away)',
      params: SiteIdParams, body: InviteToSiteBody, response: { 204: NoContent, ...errors(400, 401, 403, 404) },
    },
  }, async (req, reply) => {
    await inviteToSite(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.body);
    return reply.status(204).send();
  });

  app.get(`${SITE}/permissions/aggregate`, {
    schema: {
      operationId: 'listPermissionsAggregateInSite', tags: ['site-users'], summary: 'List every member who holds a role on the site, the role and where it comes from',
      params: SiteIdParams, querystring: SiteAggregateQuery, response: { 200: listOf(UserSitePermission), ...errors(400, 401, 404) },
    },
  }, async (req) => listSitePermissionsAggregate(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.query));

  app.get(`${SITE}/permissions/users`, {
    schema: {
      operationId: 'listUserPermissionsInSite', tags: ['site-users'], summary: 'List the members given a role on the site',
      params: SiteIdParams, querystring: ListQuery, response: { 200: listOf(UserSitePermissionOverride), ...errors(400, 401, 404) },
    },
  }, async (req) => listSiteUserPermissions(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.query));

  app.get(`${SITE}/permissions/teams`, {
    schema: {
      operationId: 'listTeamPermissionsInSite', tags: ['site-permissions'], summary: 'List the teams given a role on the site',
      params: SiteIdParams, querystring: ListQuery, response: { 200: listOf(TeamSitePermissionOverride), ...errors(400, 401, 404) },
    },
  }, async (req) => listSiteTeamPermissions(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.query));

  for (const subject of ['user', 'team'] as const) {
    const path = subject === 'user' ? `${SITE}/permissions/users/:userId` : `${SITE}/permissions/teams/:teamId`;
    const tags = [subject === 'user' ? 'site-users' : 'site-permissions'];
    const who = subject === 'user' ? 'member' : 'team';
    const subjectId = (params: { userId?: string; teamId?: string }) => (subject === 'user' ? params.userId : params.teamId)!;
    app.patch(path, {
      schema: {
        operationId: subject === 'user' ? 'updateUserPermissionInSite' : 'updateTeamPermissionInSite', tags,
        summary: `Set the role of a ${who} on the site (null takes it away)`,
        params: subject === 'user' ? SiteUserParams : SiteTeamParams, body: UpdateSiteGrantBody, response: { 204: NoContent, ...errors(400, 401, 403, 404) },
      },
    }, async (req, reply) => {
      const params = req.params as { organizationId: string; siteId: string; userId?: string; teamId?: string };
      await setSiteGrant(ctx, callerOf(req), params.organizationId, params.siteId, subject, subjectId(params), req.body.role);
      return reply.status(204).send();
    });
    app.delete(path, {
      schema: {
        operationId: subject === 'user' ? 'removeUserFromSite' : 'removeTeamFromSite', tags,
        summary: `Take away the role of a ${who} on the site (205 when there was one, 204 otherwise)`,
        params: subject === 'user' ? SiteUserParams : SiteTeamParams,
        response: { 204: Type.Null({ description: `The ${who} held no role on the site` }), 205: Type.Null({ description: `The ${who}'s role on the site was taken away` }), ...errors(401, 403) },
      },
    }, async (req, reply) => {
      const params = req.params as { organizationId: string; siteId: string; userId?: string; teamId?: string };
      const removed = await removeSiteGrant(ctx, callerOf(req), params.organizationId, params.siteId, subject, subjectId(params));
      return reply.status(removed ? 205 : 204).send(null);
    });
  }
}
