import type { App } from '../../platform/app-type.ts';
import { apiOperation, registerOperations } from '../../platform/api-operation.ts';
import { callerOf } from '../../platform/auth.ts';
import { errors, listOf, ListQuery, OrganizationIdParams } from '../../platform/schemas.ts';
import { Type } from 'typebox';
import { CreateOrganizationBody, Organization, OrganizationHostname, Subdomain, UpdateOrganizationBody } from './schemas.ts';
import { getSubdomain, joinOrganizationByEmailDomain, listOrganizationsForEmailDomain } from './email-domains.ts';
import { createOrganization, getOrganization, listOrganizations, updateOrganizationSettings } from './service.ts';

export async function organizationRoutes(app: App) {
  app.get(
    '/orgs',
    {
      schema: {
        operationId: 'listOrganizationsForAuthenticatedUser',
        tags: ['organizations'],
        summary: 'List the organizations of the authenticated user',
        querystring: ListQuery,
        response: { 200: listOf(Organization), ...errors(400, 401) },
      },
    },
    async (request) => listOrganizations(app.ctx, callerOf(request), request.query),
  );

  registerOperations(app, ['organizations'], [
    apiOperation({
      method: 'POST',
      url: '/orgs',
      operationId: 'createOrganization',
      // Official only in @gitbook/api releases newer than the pinned 0.143.2; marked so the operationId check knows.
      documentation: { 'x-quire-extension': true },
      summary: 'Create an organization; the caller becomes its admin',
      body: CreateOrganizationBody,
      status: 201,
      response: Organization,
      errors: [400, 401],
      run: (ctx, caller, { body }) => createOrganization(ctx, caller, body),
      headers: (org) => ({ location: org.urls.location }),
    }),
    apiOperation({
      method: 'GET',
      url: '/email-domains/:emailDomain/orgs',
      operationId: 'getOrganizationsForEmailDomain',
      summary: 'The organizations the caller may join with their verified e-mail address of this domain (none for another domain)',
      params: Type.Object({ emailDomain: Type.String({ minLength: 1, maxLength: 253 }) }),
      response: Type.Object({ organizations: Type.Array(Organization) }),
      errors: [400, 401],
      run: (ctx, caller, { params }) => listOrganizationsForEmailDomain(ctx, caller, params.emailDomain),
    }),
    apiOperation({
      method: 'POST',
      url: '/orgs/:organizationId/join',
      operationId: 'joinOrganization',
      summary: "Join an organization whose emailDomains admit the domain of the caller's verified e-mail address, with its default role",
      params: OrganizationIdParams,
      status: 204,
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params }) => joinOrganizationByEmailDomain(ctx, caller, params.organizationId),
    }),
  ]);

  registerOperations(app, ['subdomains'], [
    apiOperation({
      method: 'GET',
      url: '/subdomains/:subdomain',
      operationId: 'getSubdomain',
      summary: 'The organization a subdomain (an organization hostname) belongs to, for callers who can see it',
      params: Type.Object({ subdomain: OrganizationHostname }),
      response: Subdomain,
      errors: [400, 401, 404],
      run: (ctx, caller, { params }) => getSubdomain(ctx, caller, params.subdomain),
    }),
  ]);

  app.get(
    '/orgs/:organizationId',
    {
      schema: {
        operationId: 'getOrganizationById',
        tags: ['organizations'],
        summary: 'Get an organization',
        params: OrganizationIdParams,
        response: { 200: Organization, ...errors(401, 404) },
      },
    },
    async (request) => getOrganization(app.ctx, callerOf(request), request.params.organizationId),
  );

  app.patch(
    '/orgs/:organizationId',
    {
      schema: {
        operationId: 'updateOrganizationById',
        tags: ['organizations'],
        summary: 'Update the settings of an organization',
        params: OrganizationIdParams,
        body: UpdateOrganizationBody,
        response: { 200: Organization, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request) => updateOrganizationSettings(app.ctx, callerOf(request), request.params.organizationId, request.body),
  );
}
