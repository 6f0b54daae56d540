import type { FastifyInstance } from 'fastify';
import { forbidden } from '../../platform/errors.ts';
import { ErrorBody } from '../../platform/schemas.ts';

/**
 * Which scope each operation needs when an integration installation token calls it (issue 17): the ONE table
 * of that rule. An operation is reachable when the installation's manifest holds any of the listed scopes;
 * `OWN` marks the operations on the installation's own records (its integration, its installation, a new token),
 * which need no scope. An operation absent from the table is refused to installation tokens: members, teams,
 * organization settings, grants, and whatever acts as a person are not for integrations.
 * Where the caller may act (its organization, the spaces and sites it is installed on) is decided by access
 * (features/access/service.ts, InstallationAccess), so a scope never widens the reach, only the actions.
 */
export const OWN = 'own' as const;

const contentRead = ['space:content:read', 'space:content:write'];
const contentWrite = ['space:content:write'];
const anySpace = ['space:content:read', 'space:content:write', 'space:metadata:read', 'space:metadata:write'];
const metadataRead = ['space:metadata:read', 'space:metadata:write', 'space:content:read', 'space:content:write'];
const metadataWrite = ['space:metadata:write'];
const siteRead = ['site:metadata:read'];
const adaptiveRead = ['site:adaptive:read', 'site:adaptive:write'];
const adaptiveWrite = ['site:adaptive:write'];
const openapiRead = ['openapi:read', 'openapi:write'];
const openapiWrite = ['openapi:write'];
const gitSync = ['space:git:sync'];

export const OPERATION_SCOPES: Readonly<Record<string, readonly string[] | typeof OWN>> = {
  // The installation's own records
  getOrganizationById: OWN,
  listIntegrations: OWN,
  getIntegrationByName: OWN,
  listIntegrationInstallations: OWN,
  getIntegrationInstallationById: OWN,
  updateIntegrationInstallation: OWN,
  listIntegrationSpaceInstallations: OWN,
  listIntegrationSiteInstallations: OWN,
  listIntegrationInstallationSpaces: OWN,
  getIntegrationSpaceInstallation: OWN,
  updateIntegrationSpaceInstallation: OWN,
  uninstallIntegrationFromSpace: OWN,
  listIntegrationInstallationSites: OWN,
  getIntegrationSiteInstallation: OWN,
  updateIntegrationSiteInstallation: OWN,
  uninstallIntegrationFromSite: OWN,
  createIntegrationInstallationToken: OWN,
  listIntegrationEvents: OWN,
  getIntegrationEvent: OWN,
  // What its organization may install, and what is installed there (an installation token sees its own only).
  listOrganizationIntegrations: OWN,
  listOrganizationIntegrationsStatus: OWN,
  // The official security of a task is the integration's own token: an installation's queues tasks for itself.
  queueIntegrationTask: OWN,

  // Spaces
  getSpaceById: anySpace,
  getEmbedByUrl: anySpace,
  getEmbedByUrlInSpace: anySpace,
  listSpacesInOrganizationById: metadataRead,
  listSpacesInCollectionById: metadataRead,
  updateSpaceById: metadataWrite,

  // Content of a space and of its change requests
  getCurrentRevision: contentRead,
  getRevisionById: contentRead,
  getRevisionSemanticChanges: contentRead,
  listPagesInRevisionById: contentRead,
  getPageInRevisionById: contentRead,
  getPageDocumentInRevisionById: contentRead,
  getDocumentById: contentRead,
  getComputedDocument: contentRead,
  getComputedRevision: contentRead,
  listSpacePageMetaLinks: contentRead,
  listRevisionPageMetaLinks: contentRead,
  listChangeRequestPageMetaLinks: contentRead,
  getPageInRevisionByPath: contentRead,
  listFilesInRevisionById: contentRead,
  getFileInRevisionById: contentRead,
  getReusableContentInRevisionById: contentRead,
  getReusableContentDocumentInRevisionById: contentRead,
  getReusableContentById: contentRead,
  listPages: contentRead,
  listFiles: contentRead,
  getFileById: contentRead,
  listSpaceFileBacklinks: contentRead,
  getPageById: contentRead,
  getPageByPath: contentRead,
  listPageLinksInSpace: contentRead,
  listSpacePageBacklinks: contentRead,
  listChangeRequestPageBacklinks: contentRead,
  listSpaceLinks: contentRead,
  searchSpaceContent: contentRead,
  getSpacePDF: contentRead,
  listChangeRequestsForSpace: contentRead,
  getChangeRequestById: contentRead,
  getChangeRequestChanges: contentRead,
  // Reviews are given and asked for by people only (the spec's `user` security); integrations may read them.
  getReviewsByChangeRequestId: contentRead,
  getChangeRequestReviewById: contentRead,
  getRequestedReviewersByChangeRequestId: contentRead,
  getContributorsByChangeRequestId: contentRead,
  getChangeRequestPDF: contentRead,
  getRevisionOfChangeRequestById: contentRead,
  listPagesInChangeRequest: contentRead,
  listFilesInChangeRequestById: contentRead,
  getFileInChangeRequestById: contentRead,
  getReusableContentInChangeRequestById: contentRead,
  listChangeRequestFileBacklinks: contentRead,
  getPageInChangeRequestById: contentRead,
  getPageInChangeRequestByPath: contentRead,
  listPageLinksInChangeRequest: contentRead,
  listCommentsInSpace: contentRead,
  getCommentInSpace: contentRead,
  listCommentRepliesInSpace: contentRead,
  getCommentReplyInSpace: contentRead,
  listCommentersInSpace: contentRead,
  listCommentsInChangeRequest: contentRead,
  getCommentInChangeRequest: contentRead,
  listCommentRepliesInChangeRequest: contentRead,
  getCommentReplyInChangeRequest: contentRead,
  listCommentersInChangeRequest: contentRead,
  importContent: contentWrite,
  importContentInPageById: contentWrite,
  applyTemplateToSpace: contentWrite,
  updateSpaceContent: contentWrite,
  uploadSpaceFile: contentWrite,
  createChangeRequest: contentWrite,
  updateChangeRequestById: contentWrite,
  updateChangeRequest: contentWrite,
  updateChangeRequestContent: contentWrite,
  mergeChangeRequest: contentWrite,
  importContentInChangeRequest: contentWrite,
  importContentInChangeRequestPageById: contentWrite,
  startImportRun: contentWrite,
  cancelImportRun: contentWrite,
  getImportRun: contentRead,
  listImportRuns: contentRead,

  // Git Sync
  getSpaceGitInfo: gitSync,
  importGitRepository: gitSync,
  exportToGitRepository: gitSync,
  disconnectGitSync: gitSync,
  syncGitNow: gitSync,
  createGitSyncWebhook: gitSync,

  // Sites (the ones the installation is on)
  listSites: siteRead,
  getSiteById: siteRead,
  getSiteCustomizationById: siteRead,
  getSiteStructure: siteRead,
  getSiteSpaceCustomizationById: siteRead,
  getPublishedContentSite: siteRead,
  listSiteSections: siteRead,
  listSiteSectionGroups: siteRead,
  listSiteSpaces: siteRead,
  getSiteAdaptiveSchema: adaptiveRead,
  listSiteAdaptiveTemplateConditions: adaptiveRead,
  updateSiteAdaptiveSchema: adaptiveWrite,

  // OpenAPI specifications of the organization
  listOpenAPISpecs: openapiRead,
  getOpenAPISpecBySlug: openapiRead,
  listOpenAPISpecVersions: openapiRead,
  getLatestOpenAPISpecVersion: openapiRead,
  getLatestOpenAPISpecVersionContent: openapiRead,
  getLatestOpenAPISpecVersionContentRaw: openapiRead,
  getOpenAPISpecVersionById: openapiRead,
  getOpenAPISpecVersionContentById: openapiRead,
  createOpenAPISpec: openapiWrite,
  createOrUpdateOpenAPISpecBySlug: openapiWrite,
  updateOpenAPISpecBySlug: openapiWrite,
  deleteOpenAPISpecBySlug: openapiWrite,
};

/**
 * Why an installation with these scopes may not call the operation, or null when it may. Pure. The refusal
 * (403) comes before the operation looks at its target, so it tells nothing about the target: a target out of
 * the installation's reach is a 404 from the service, as for anyone who cannot see it.
 */
export function scopeRefusal(operationId: string | undefined, scopes: readonly string[]): string | null {
  const needed = operationId ? OPERATION_SCOPES[operationId] : undefined;
  if (needed === undefined) return `${operationId ?? 'This operation'} is not available to integration installation tokens`;
  if (needed === OWN || needed.some((scope) => scopes.includes(scope))) return null;
  return `${operationId} needs the integration scope ${needed.map((s) => `"${s}"`).join(' or ')}, which the integration does not hold`;
}

/**
 * Checks every request of an installation token against the table, right after authentication (platform/auth.ts).
 * Registered before the routes: every operation an installation may be refused declares its 403.
 */
export function registerScopeGate(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as { operationId?: string; response?: Record<string, unknown> } | undefined;
    if (!schema?.operationId || !schema.response || route.config?.public) return;
    if (OPERATION_SCOPES[schema.operationId] !== OWN && !(403 in schema.response)) schema.response[403] = ErrorBody;
  });
  app.addHook('onRequest', async (request) => {
    const caller = request.caller;
    if (!caller || caller.kind !== 'installation') return;
    const schema = request.routeOptions.schema as { operationId?: string } | undefined;
    const refusal = scopeRefusal(schema?.operationId, caller.scopes);
    if (refusal) throw forbidden(refusal);
  });
}
