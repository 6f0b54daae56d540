import { Type, type TSchema } from 'typebox';
import type { App } from '../../platform/app-type.ts';
import { apiOperation, registerOperations } from '../../platform/api-operation.ts';
import { callerOf } from '../../platform/auth.ts';
import { apiUrl } from '../../platform/urls.ts';
import { errors, listOf, ListQuery, NoContent, OrganizationIdParams } from '../../platform/schemas.ts';
import { Customization } from './customization-schema.ts';
import {
  AddExternalLinkBody,
  AddSectionBody,
  AddSectionGroupBody,
  AddSectionToGroupBody,
  AddSiteSpaceBody,
  DuplicateSiteSpaceBody,
  CreateShareLinkBody,
  CreateSiteBody,
  GroupSectionParams,
  ListSiteSpacesQuery,
  ListSitesQuery,
  ListWithShareKeyQuery,
  MoveSectionBody,
  MoveSectionGroupBody,
  MoveSiteSpaceBody,
  ShareKeyQuery,
  ShareLink,
  ShareLinkIdParams,
  Site,
  ReturnPreferenceHeaders,
  SiteExternalLink,
  SiteExternalLinkIdParams,
  SiteIdParams,
  SiteSection,
  SiteSectionGroup,
  SiteSectionGroupIdParams,
  SiteSectionIdParams,
  SiteSpace,
  SiteSpaceIdParams,
  SiteStructure,
  SortStructureBody,
  UpdateExternalLinkBody,
  UpdateSectionBody,
  UpdateSectionGroupBody,
  UpdateShareLinkBody,
  UpdateSiteBody,
  UpdateSiteSpaceBody,
} from './schemas.ts';
import {
  createSite,
  deleteSiteById,
  getAdaptiveSchema,
  getCustomization,
  getPublishedContent,
  getSite,
  getStructure,
  listSitesOfOrganization,
  listTemplateConditions,
  putAdaptiveSchema,
  putCustomization,
  setPublished,
  updateSiteSettings,
} from './service.ts';
import { duplicateSiteSpace } from './duplicate-site-space.ts';
import { applyTemplateToSite } from './site-template.ts';
import { addSpaceToSite, deleteSiteSpaceById, listSiteSpaces, moveSiteSpace, updateSiteSpaceById } from './site-spaces.ts';
import {
  addSectionGroup,
  addSectionToGroup,
  addSectionToSite,
  deleteSectionGroup,
  deleteSiteSection,
  listSectionGroups,
  listSiteSections,
  moveSectionGroup,
  moveSiteSection,
  removeSectionFromGroup,
  sortSiteStructure,
  updateSectionGroup,
  updateSiteSection,
} from './sections.ts';
import { getPublishingAuth, regeneratePublishingAuth, updatePublishingAuth } from './publishing-auth.ts';
import { createSitePreview } from './preview.ts';
import { createShareLink, deleteSiteShareLink, listSiteShareLinks, updateSiteShareLink } from './share-links.ts';
import { siteRedirectRoutes } from './redirects-routes.ts';
import { sitePermissionRoutes } from './site-permissions-routes.ts';
import { customHostnameRoutes } from './custom-hostname-routes.ts';
import { addExternalLinkToSite, deleteSiteExternalLink, updateSiteExternalLink } from './external-links.ts';
import { CustomizationOverrideBody } from './customization-override.ts';
import { deleteSiteSpaceCustomization, getSiteSpaceCustomization, overrideSiteSpaceCustomization } from './site-space-customization.ts';

const tags = ['sites'];
const SITE = '/orgs/:organizationId/sites/:siteId';

const AdaptiveSchema = Type.Object({
  object: Type.Literal('site-adaptive-schema'),
  jsonSchema: Type.Object({}, { additionalProperties: true }),
  updatedAt: Type.String({ format: 'date-time' }),
});

const PublishingAuth = Type.Object({
  object: Type.Literal('publishing-auth'),
  backend: Type.Literal('custom'),
  privateKey: Type.String({ description: 'Signs visitor tokens (HS256)' }),
  fallbackURL: Type.Optional(Type.String({ format: 'uri' })),
  jwksUrl: Type.Optional(Type.String({ format: 'uri', description: 'Extension (x-quire-extension): public keys that verify visitor tokens instead of the private key' })),
});
const UpdatePublishingAuthBody = Type.Object({
  backend: Type.Optional(Type.Union([Type.Literal('custom'), Type.Literal('integration')])),
  fallbackURL: Type.Optional(Type.Union([Type.String({ format: 'uri', maxLength: 2048 }), Type.Null()])),
  jwksUrl: Type.Optional(Type.Union([Type.String({ format: 'uri', maxLength: 2048 }), Type.Null()], { description: 'Extension (x-quire-extension)' })),
});

const PublishedContentSite = Type.Object({
  object: Type.Literal('published-content-site'),
  site: Site,
  structure: SiteStructure,
  customizations: Type.Object({ site: Customization, siteSpaces: Type.Record(Type.String(), Customization) }),
  scripts: Type.Array(Type.Object({ script: Type.String(), contentSecurityPolicy: Type.Optional(Type.String()), cookies: Type.Boolean() })),
});

function schema<P extends { params?: TSchema; querystring?: TSchema; headers?: TSchema; body?: TSchema; response: Record<number, TSchema> }>(operationId: string, summary: string, parts: P, deprecated = false) {
  return { schema: { operationId, tags, summary, ...(deprecated ? { deprecated: true } : {}), ...parts } };
}

export async function siteRoutes(app: App) {
  const ctx = app.ctx;
  /** The API URL of something created under a site (the Location of a 201). */
  const location = (params: { organizationId: string; siteId: string }, below: string) => apiUrl(ctx.config, `/orgs/${params.organizationId}/sites/${params.siteId}/${below}`);

  // --- Sites
  app.get('/orgs/:organizationId/sites', schema('listSites', 'List the sites of an organization the caller can see', {
    params: OrganizationIdParams, querystring: ListSitesQuery, response: { 200: listOf(Site), ...errors(400, 401, 404) },
  }), async (req) => listSitesOfOrganization(ctx, callerOf(req), req.params.organizationId, req.query));

  registerOperations(app, tags, [apiOperation({
    method: 'POST', url: '/orgs/:organizationId/sites', operationId: 'createSite', summary: 'Create a site (organization admins)',
    params: OrganizationIdParams, body: CreateSiteBody, status: 201, response: Site, errors: [400, 401, 403, 404],
    run: (ctx, caller, { params, body }) => createSite(ctx, caller, params.organizationId, body),
    headers: (site) => ({ location: site.urls.location }),
  })]);

  app.get(SITE, schema('getSiteById', 'Get a site', { params: SiteIdParams, response: { 200: Site, ...errors(401, 404) } }),
    async (req) => getSite(ctx, callerOf(req), req.params.organizationId, req.params.siteId));

  app.patch(SITE, schema('updateSiteById', 'Update the settings of a site', {
    params: SiteIdParams, body: UpdateSiteBody, response: { 200: Site, ...errors(400, 401, 403, 404, 409) },
  }), async (req) => updateSiteSettings(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.body));

  app.delete(SITE, schema('deleteSiteById', 'Delete a site', { params: SiteIdParams, response: { 204: NoContent, ...errors(401, 403) } }),
    async (req, reply) => {
      await deleteSiteById(ctx, callerOf(req), req.params.organizationId, req.params.siteId);
      return reply.status(204).send();
    });

  app.post(`${SITE}/publish`, schema('publishSite', 'Publish a site', { params: SiteIdParams, response: { 200: Site, ...errors(401, 403, 404) } }),
    async (req) => setPublished(ctx, callerOf(req), req.params.organizationId, req.params.siteId, true));

  app.post(`${SITE}/unpublish`, schema('unpublishSite', 'Unpublish a site', { params: SiteIdParams, response: { 200: Site, ...errors(401, 403, 404) } }),
    async (req) => setPublished(ctx, callerOf(req), req.params.organizationId, req.params.siteId, false));

  app.get(`${SITE}/published`, schema('getPublishedContentSite', 'The site with its structure and customizations', {
    params: SiteIdParams, querystring: ShareKeyQuery, response: { 200: PublishedContentSite, ...errors(400, 401, 404) },
  }), async (req) => getPublishedContent(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.query.shareKey));

  app.get(`${SITE}/structure`, schema('getSiteStructure', 'The sections, section groups and site-spaces of a site, in order', {
    params: SiteIdParams, querystring: ShareKeyQuery, response: { 200: SiteStructure, ...errors(400, 401, 404) },
  }), async (req) => getStructure(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.query.shareKey));

  app.get(`${SITE}/customization`, schema('getSiteCustomizationById', 'The customization of a site', {
    params: SiteIdParams, response: { 200: Customization, ...errors(400, 401, 404) },
  }), async (req) => getCustomization(ctx, callerOf(req), req.params.organizationId, req.params.siteId));

  app.put(`${SITE}/customization`, schema('updateSiteCustomizationById', 'Replace the customization of a site', {
    params: SiteIdParams, body: Customization, response: { 200: Customization, ...errors(400, 401, 403, 404) },
  }), async (req) => putCustomization(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.body));

  app.get(`${SITE}/adaptive-schema`, schema('getSiteAdaptiveSchema', 'The claims visitors of the site can have', {
    params: SiteIdParams, response: { 200: AdaptiveSchema, ...errors(401, 404) },
  }), async (req) => getAdaptiveSchema(ctx, callerOf(req), req.params.organizationId, req.params.siteId));

  app.put(`${SITE}/adaptive-schema`, schema('updateSiteAdaptiveSchema', 'Replace the adaptive schema of the site', {
    params: SiteIdParams, body: Type.Object({ jsonSchema: Type.Unknown() }, { required: ['jsonSchema'] }), response: { 200: AdaptiveSchema, ...errors(400, 401, 403, 404) },
  }), async (req) => putAdaptiveSchema(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.body.jsonSchema));

  app.get(`${SITE}/adaptive-schema/template-conditions`, schema('listSiteAdaptiveTemplateConditions', 'Conditions suggested by the adaptive schema', {
    params: SiteIdParams, response: { 200: Type.Object({ items: Type.Array(Type.Object({ description: Type.String(), condition: Type.String() })) }), ...errors(401, 404) },
  }), async (req) => listTemplateConditions(ctx, callerOf(req), req.params.organizationId, req.params.siteId));

  // --- Visitor authentication
  app.get(`${SITE}/publishing/auth`, schema('getSitePublishingAuthById', 'The visitor authentication settings of a site (admins)', {
    params: SiteIdParams, response: { 200: PublishingAuth, ...errors(401, 403, 404) },
  }), async (req) => getPublishingAuth(ctx, callerOf(req), req.params.organizationId, req.params.siteId));

  app.patch(`${SITE}/publishing/auth`, schema('updateSitePublishingAuthById', 'Change the fallback URL or JWKS URL of visitor authentication', {
    params: SiteIdParams, body: UpdatePublishingAuthBody, response: { 200: PublishingAuth, ...errors(400, 401, 403, 404) },
  }), async (req) => updatePublishingAuth(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.body));

  app.post(`${SITE}/publishing/auth/regenerate`, schema('regenerateSitePublishingAuthById', 'Replace the private key that signs visitor tokens', {
    params: SiteIdParams, response: { 200: PublishingAuth, ...errors(401, 403, 404) },
  }), async (req) => regeneratePublishingAuth(ctx, callerOf(req), req.params.organizationId, req.params.siteId));

  app.get(`${SITE}/publishing/preview`, schema('getSitePublishingPreviewById', 'A URL that shows the site, published or not, to whoever holds it for an hour (admins)', {
    params: SiteIdParams,
    querystring: Type.Object({
      siteSpace: Type.Optional(Type.String({ minLength: 1, description: 'The site-space to open (default: the default one)' })),
      claims: Type.Optional(Type.String({ maxLength: 8192, description: 'Rison-encoded claims of the visitor to preview as, e.g. (role:admin)' })),
      draft: Type.Optional(Type.Boolean({ default: true, description: 'false: only a published site may be previewed' })),
      target: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'A URL of the site to open' })),
    }),
    response: { 200: Type.Object({ url: Type.String({ format: 'uri' }) }), ...errors(400, 401, 403, 404) },
  }), async (req) => createSitePreview(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.query));

  // --- Site-spaces
  app.get(`${SITE}/site-spaces`, schema('listSiteSpaces', 'List the site-spaces of a site', {
    params: SiteIdParams, querystring: ListSiteSpacesQuery, response: { 200: listOf(SiteSpace), ...errors(400, 401, 404) },
  }), async (req) => listSiteSpaces(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.query));

  registerOperations(app, tags, [apiOperation({
    method: 'POST', url: `${SITE}/site-spaces`, operationId: 'addSpaceToSite', summary: 'Add a space to a site',
    params: SiteIdParams, body: AddSiteSpaceBody, status: 201, response: SiteSpace, errors: [400, 401, 403, 404],
    run: (ctx, caller, { params, body }) => addSpaceToSite(ctx, caller, params.organizationId, params.siteId, body),
    headers: (siteSpace, { params }) => ({ location: location(params, `site-spaces/${siteSpace.id}`) }),
  }), apiOperation({
    method: 'POST', url: `${SITE}/site-spaces/:siteSpaceId/duplicate`, operationId: 'duplicateSiteSpace',
    summary: 'Duplicate the space of a site-space (content too) into the site: a variant after it, or a new section when it is alone in its own',
    params: SiteSpaceIdParams, body: Type.Optional(DuplicateSiteSpaceBody), status: 201, response: SiteSpace, errors: [400, 401, 403, 404],
    run: (ctx, caller, { params, body }) => duplicateSiteSpace(ctx, caller, params.organizationId, params.siteId, params.siteSpaceId, body ?? {}),
    headers: (siteSpace, { params }) => ({ location: location(params, `site-spaces/${siteSpace.id}`) }),
  })]);

  app.post(`${SITE}/template`, schema('applyTemplateToSite', 'Give an empty site a space of the product documentation template, as its site-space', {
    params: SiteIdParams, response: { 200: NoContent, ...errors(401, 403, 404, 409) },
  }), async (req, reply) => {
    await applyTemplateToSite(ctx, callerOf(req), req.params.organizationId, req.params.siteId);
    return reply.status(200).send();
  });

  app.patch(`${SITE}/site-spaces/:siteSpaceId`, schema('updateSiteSpaceById', 'Update a site-space', {
    params: SiteSpaceIdParams, body: UpdateSiteSpaceBody, response: { 200: SiteSpace, ...errors(400, 401, 403, 404, 409) },
  }), async (req) => updateSiteSpaceById(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.params.siteSpaceId, req.body));

  app.delete(`${SITE}/site-spaces/:siteSpaceId`, schema('deleteSiteSpaceById', 'Remove a space from a site', {
    params: SiteSpaceIdParams, response: { 204: NoContent, ...errors(401, 403) },
  }), async (req, reply) => {
    await deleteSiteSpaceById(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.params.siteSpaceId);
    return reply.status(204).send();
  });

  // --- A site-space's customization: the site's, with the site-space's override over it
  app.get(`${SITE}/site-spaces/:siteSpaceId/customization`, schema('getSiteSpaceCustomizationById', 'The customization a site-space shows', {
    params: SiteSpaceIdParams, response: { 200: Customization, ...errors(400, 401, 404) },
  }), async (req) => getSiteSpaceCustomization(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.params.siteSpaceId));

  app.patch(`${SITE}/site-spaces/:siteSpaceId/customization`, schema('overrideSiteSpaceCustomizationById', 'Override fields of the site customization for a site-space (null takes an override away)', {
    params: SiteSpaceIdParams, body: CustomizationOverrideBody, response: { 200: Customization, ...errors(400, 401, 403, 404) },
  }), async (req) => overrideSiteSpaceCustomization(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.params.siteSpaceId, req.body));

  app.delete(`${SITE}/site-spaces/:siteSpaceId/customization`, schema('deleteSiteSpaceCustomizationById', 'Take away the customization override of a site-space (205; 204 when it had none)', {
    params: SiteSpaceIdParams, response: { 204: NoContent, 205: NoContent, ...errors(401, 403) },
  }), async (req, reply) => {
    const removed = await deleteSiteSpaceCustomization(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.params.siteSpaceId);
    return reply.status(removed ? 205 : 204).send();
  });

  app.post(`${SITE}/site-spaces/:siteSpaceId/move`, schema('moveSiteSpace', 'Move a site-space (deprecated: sortSiteStructure)', {
    params: SiteSpaceIdParams, body: MoveSiteSpaceBody, response: { 200: SiteSpace, ...errors(400, 401, 403, 404) },
  }, true), async (req) => moveSiteSpace(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.params.siteSpaceId, req.body));

  // --- Sections
  app.get(`${SITE}/sections`, schema('listSiteSections', 'List the sections of a site', {
    params: SiteIdParams, querystring: ListWithShareKeyQuery, response: { 200: listOf(SiteSection), ...errors(400, 401, 404) },
  }), async (req) => listSiteSections(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.query));

  registerOperations(app, tags, [apiOperation({
    method: 'POST', url: `${SITE}/sections`, operationId: 'addSectionToSite', summary: 'Add a section, with a space as its first variant',
    params: SiteIdParams, body: AddSectionBody, status: 201, response: SiteSection, errors: [400, 401, 403, 404],
    run: (ctx, caller, { params, body }) => addSectionToSite(ctx, caller, params.organizationId, params.siteId, body),
    headers: (section, { params }) => ({ location: location(params, `sections/${section.id}`) }),
  })]);

  app.patch(`${SITE}/sections/:siteSectionId`, schema('updateSiteSectionById', 'Update a section', {
    params: SiteSectionIdParams, body: UpdateSectionBody, response: { 200: SiteSection, ...errors(400, 401, 403, 404, 409) },
  }), async (req) => updateSiteSection(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.params.siteSectionId, req.body));

  app.delete(`${SITE}/sections/:siteSectionId`, schema('deleteSiteSectionById', 'Delete a section and its site-spaces', {
    params: SiteSectionIdParams, response: { 204: NoContent, ...errors(401, 403) },
  }), async (req, reply) => {
    await deleteSiteSection(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.params.siteSectionId);
    return reply.status(204).send();
  });

  app.post(`${SITE}/sections/:siteSectionId/move`, schema('moveSiteSection', 'Move a section (deprecated: sortSiteStructure)', {
    params: SiteSectionIdParams, body: MoveSectionBody, response: { 200: SiteSection, ...errors(400, 401, 403, 404) },
  }, true), async (req) => moveSiteSection(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.params.siteSectionId, req.body.position));

  // --- Section groups
  app.get(`${SITE}/section-groups`, schema('listSiteSectionGroups', 'List the section groups of a site', {
    params: SiteIdParams, querystring: ListQuery, response: { 200: listOf(SiteSectionGroup), ...errors(400, 401, 404) },
  }), async (req) => listSectionGroups(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.query));

  registerOperations(app, tags, [apiOperation({
    method: 'POST', url: `${SITE}/section-groups`, operationId: 'addSectionGroupToSite', summary: 'Add a section group',
    params: SiteIdParams, body: AddSectionGroupBody, status: 201, response: SiteSectionGroup, errors: [400, 401, 403, 404],
    run: (ctx, caller, { params, body }) => addSectionGroup(ctx, caller, params.organizationId, params.siteId, body),
    headers: (group, { params }) => ({ location: location(params, `section-groups/${group.id}`) }),
  })]);

  app.patch(`${SITE}/section-groups/:siteSectionGroupId`, schema('updateSiteSectionGroupById', 'Update a section group', {
    params: SiteSectionGroupIdParams, body: UpdateSectionGroupBody, response: { 200: SiteSectionGroup, ...errors(400, 401, 403, 404) },
  }), async (req) => updateSectionGroup(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.params.siteSectionGroupId, req.body));

  app.delete(`${SITE}/section-groups/:siteSectionGroupId`, schema('deleteSiteSectionGroupById', 'Delete a section group (its sections stay)', {
    params: SiteSectionGroupIdParams, response: { 204: NoContent, ...errors(401, 403) },
  }), async (req, reply) => {
    await deleteSectionGroup(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.params.siteSectionGroupId);
    return reply.status(204).send();
  });

  registerOperations(app, tags, [apiOperation({
    method: 'POST', url: `${SITE}/section-groups/:siteSectionGroupId/sections`, operationId: 'addSectionToGroup', summary: 'Put a section in a group',
    params: SiteSectionGroupIdParams, body: AddSectionToGroupBody, status: 201, response: SiteSectionGroup, errors: [400, 401, 403, 404],
    run: (ctx, caller, { params, body }) => addSectionToGroup(ctx, caller, params.organizationId, params.siteId, params.siteSectionGroupId, body.sectionId),
    headers: (group, { params }) => ({ location: location(params, `section-groups/${group.id}`) }),
  })]);

  app.delete(`${SITE}/section-groups/:siteSectionGroupId/sections/:siteSectionId`, schema('removeSectionFromGroup', 'Take a section out of a group', {
    params: GroupSectionParams, response: { 204: NoContent, ...errors(401, 403) },
  }), async (req, reply) => {
    await removeSectionFromGroup(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.params.siteSectionGroupId, req.params.siteSectionId);
    return reply.status(204).send();
  });

  app.post(`${SITE}/section-groups/:siteSectionGroupId/move`, schema('moveSiteSectionGroup', 'Move a section group (deprecated: sortSiteStructure)', {
    params: SiteSectionGroupIdParams, body: MoveSectionGroupBody, response: { 200: SiteSectionGroup, ...errors(400, 401, 403, 404) },
  }, true), async (req) => moveSectionGroup(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.params.siteSectionGroupId, req.body.position));

  app.patch(`${SITE}/structure/sort`, schema('sortSiteStructure', 'Move a site-space, section or section group within the structure', {
    params: SiteIdParams, body: SortStructureBody, response: { 200: Type.Union([SiteSpace, SiteSection, SiteSectionGroup]), ...errors(400, 401, 403, 404) },
  }), async (req) => sortSiteStructure(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.body));

  // --- External links (0.202.0)
  registerOperations(app, tags, [apiOperation({
    method: 'POST', url: `${SITE}/external-links`, operationId: 'addExternalLinkToSite', summary: 'Add an external link to the structure of a site with sections',
    params: SiteIdParams, body: AddExternalLinkBody, status: 201, response: SiteExternalLink, errors: [400, 401, 403, 404],
    run: (ctx, caller, { params, body }) => addExternalLinkToSite(ctx, caller, params.organizationId, params.siteId, body),
    headers: (link, { params }) => ({ location: location(params, `external-links/${link.id}`) }),
  })]);

  // `Prefer: return=minimal` answers 204 without the link: two success statuses.
  app.patch(`${SITE}/external-links/:siteExternalLinkId`, schema('updateSiteExternalLinkById', 'Update an external link (Prefer: return=minimal answers 204)', {
    params: SiteExternalLinkIdParams, headers: ReturnPreferenceHeaders, body: UpdateExternalLinkBody, response: { 200: SiteExternalLink, 204: NoContent, ...errors(400, 401, 403, 404) },
  }), async (req, reply) => {
    const link = await updateSiteExternalLink(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.params.siteExternalLinkId, req.body);
    if (req.headers.prefer?.split(',').some((p) => p.trim() === 'return=minimal')) return reply.status(204).header('preference-applied', 'return=minimal').send(undefined);
    return link;
  });

  app.delete(`${SITE}/external-links/:siteExternalLinkId`, schema('deleteSiteExternalLinkById', 'Delete an external link (205; 204 when there was none)', {
    params: SiteExternalLinkIdParams, response: { 204: NoContent, 205: NoContent, ...errors(401, 403) },
  }), async (req, reply) => {
    const removed = await deleteSiteExternalLink(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.params.siteExternalLinkId);
    return reply.status(removed ? 205 : 204).send();
  });

  // --- Share links
  app.get(`${SITE}/share-links`, schema('listSiteShareLinks', 'List the share links of a site (admins)', {
    params: SiteIdParams, querystring: ListQuery, response: { 200: listOf(ShareLink), ...errors(400, 401, 403, 404) },
  }), async (req) => listSiteShareLinks(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.query));

  registerOperations(app, tags, [apiOperation({
    method: 'POST', url: `${SITE}/share-links`, operationId: 'createSiteShareLink', summary: 'Create a share link',
    params: SiteIdParams, body: CreateShareLinkBody, status: 201, response: ShareLink, errors: [400, 401, 403, 404],
    run: (ctx, caller, { params, body }) => createShareLink(ctx, caller, params.organizationId, params.siteId, body.name),
    headers: (link, { params }) => ({ location: location(params, `share-links/${link.id}`) }),
  })]);

  app.patch(`${SITE}/share-links/:shareLinkId`, schema('updateSiteShareLinkById', 'Rename, activate or deactivate a share link', {
    params: ShareLinkIdParams, body: UpdateShareLinkBody, response: { 200: ShareLink, ...errors(400, 401, 403, 404) },
  }), async (req) => updateSiteShareLink(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.params.shareLinkId, req.body));

  app.delete(`${SITE}/share-links/:shareLinkId`, schema('deleteSiteShareLinkById', 'Delete a share link', {
    params: ShareLinkIdParams, response: { 204: NoContent, ...errors(401, 403) },
  }), async (req, reply) => {
    await deleteSiteShareLink(ctx, callerOf(req), req.params.organizationId, req.params.siteId, req.params.shareLinkId);
    return reply.status(204).send();
  });

  await siteRedirectRoutes(app);
  await sitePermissionRoutes(app);
  await customHostnameRoutes(app);
}
