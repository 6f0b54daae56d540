import type { FastifyReply } from 'fastify';
import type { App } from '../../platform/app-type.ts';
import { apiOperation, registerOperations } from '../../platform/api-operation.ts';
import { OrganizationIdParams } from '../../platform/schemas.ts';
import { domainConfirmPage, domainVerifiedPage, signInErrorPage } from '../sso/pages.ts';
import { AddDomainBody, DomainList, DomainParams, MailTokenParams, VerifiedDomain, VerifyDomainBody } from './schemas.ts';
import { addOrganizationDomain, confirmMailLink, describeMailLink, listOrganizationDomains, removeOrganizationDomain, verifyOrganizationDomain } from './service.ts';

const tags = ['sso'];
const documentation = { 'x-quire-extension': true };

/** The e-mail domains an organization proved it holds: its identity providers may sign in accounts of them. */
export async function domainRoutes(app: App) {
  registerOperations(app, tags, [
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/sso/domains',
      operationId: 'listOrganizationSSODomains',
      documentation,
      summary: 'The e-mail domains of the organization, verified or waiting for their proof',
      params: OrganizationIdParams,
      response: DomainList,
      errors: [401, 403, 404],
      run: (ctx, caller, { params }) => listOrganizationDomains(ctx, caller, params.organizationId),
    }),
    apiOperation({
      method: 'POST',
      url: '/orgs/:organizationId/sso/domains',
      operationId: 'addOrganizationSSODomain',
      documentation,
      summary: 'Add an e-mail domain to verify (its DNS TXT record is in the answer)',
      params: OrganizationIdParams,
      body: AddDomainBody,
      status: 201,
      response: VerifiedDomain,
      errors: [400, 401, 403, 404, 409],
      run: (ctx, caller, { params, body }) => addOrganizationDomain(ctx, caller, params.organizationId, body),
    }),
    apiOperation({
      method: 'POST',
      url: '/orgs/:organizationId/sso/domains/:domainId/verify',
      operationId: 'verifyOrganizationSSODomain',
      documentation,
      summary: 'Verify a domain: look up its DNS TXT record now, or mail a confirmation link to an address of it',
      params: DomainParams,
      body: VerifyDomainBody,
      response: VerifiedDomain,
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, body }) => verifyOrganizationDomain(ctx, caller, params.organizationId, params.domainId, body),
    }),
    apiOperation({
      method: 'DELETE',
      url: '/orgs/:organizationId/sso/domains/:domainId',
      operationId: 'removeOrganizationSSODomain',
      documentation,
      summary: 'Remove a domain (accounts already linked through it stay linked)',
      params: DomainParams,
      status: 204,
      errors: [401, 403, 404],
      run: (ctx, caller, { params }) => removeOrganizationDomain(ctx, caller, params.organizationId, params.domainId),
    }),
  ]);
}

function sendPage(reply: FastifyReply, status: number, html: string) {
  return reply.status(status).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
}

/**
 * The mailed link's pages (outside /v1): opening it shows what is confirmed, and only the form's POST confirms
 * (a mail scanner that follows links must not verify a domain).
 */
export async function domainLinkRoutes(app: App) {
  const config = { public: true };
  app.get('/sso/domains/verify/:token', { config, schema: { hide: true, params: MailTokenParams } }, async (request, reply) => {
    try {
      const { domain } = await describeMailLink(app.ctx, request.params.token);
      return sendPage(reply, 200, domainConfirmPage(domain));
    } catch (error) {
      return sendPage(reply, 404, signInErrorPage((error as Error).message));
    }
  });
  app.post('/sso/domains/verify/:token', { config, schema: { hide: true, params: MailTokenParams } }, async (request, reply) => {
    try {
      const { domain } = await confirmMailLink(app.ctx, request.params.token);
      return sendPage(reply, 200, domainVerifiedPage(domain));
    } catch (error) {
      return sendPage(reply, 404, signInErrorPage((error as Error).message));
    }
  });
}
