import type { App } from '../../platform/app-type.ts';
import { apiOperation, registerOperations } from '../../platform/api-operation.ts';
import { listOf, OrganizationIdParams } from '../../platform/schemas.ts';
import { AuditEvent, AuditEventActionList, AuditEventDetails, AuditEventParams, AuditEventsQuery, AuditSettings, UpdateAuditSettingsBody } from './schemas.ts';
import {
  getAuditSettings,
  getOrganizationAuditEvent,
  listOrganizationAuditEventActions,
  listOrganizationAuditEvents,
  updateAuditSettings,
} from './service.ts';

const tags = ['organizations'];
const documentation = { 'x-quire-extension': true };

/**
 * An organization's audit log, for its admins: the events recorded with each security-relevant action, read
 * only (nothing here changes or deletes one), and how long they are kept.
 */
export async function auditRoutes(app: App) {
  registerOperations(app, tags, [
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/audit-events',
      operationId: 'listOrganizationAuditEvents',
      summary: 'List the audit events of an organization, newest first (organization admins)',
      params: OrganizationIdParams,
      querystring: AuditEventsQuery,
      response: listOf(AuditEvent),
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, query }) => listOrganizationAuditEvents(ctx, caller, params.organizationId, query),
    }),
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/audit-events/:auditEventId',
      operationId: 'getOrganizationAuditEvent',
      summary: 'Get an audit event with its details (organization admins)',
      params: AuditEventParams,
      response: AuditEventDetails,
      errors: [401, 403, 404],
      run: (ctx, caller, { params }) => getOrganizationAuditEvent(ctx, caller, params.organizationId, params.auditEventId),
    }),
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/audit-event-actions',
      operationId: 'listOrganizationAuditEventActions',
      summary: 'List the actions the audit log records, with their labels (organization admins)',
      params: OrganizationIdParams,
      response: AuditEventActionList,
      errors: [401, 403, 404],
      run: (ctx, caller, { params }) => listOrganizationAuditEventActions(ctx, caller, params.organizationId),
    }),
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/audit-settings',
      operationId: 'getOrganizationAuditSettings',
      documentation,
      summary: 'How many days the audit log keeps events (organization admins)',
      params: OrganizationIdParams,
      response: AuditSettings,
      errors: [401, 403, 404],
      run: (ctx, caller, { params }) => getAuditSettings(ctx, caller, params.organizationId),
    }),
    apiOperation({
      method: 'PATCH',
      url: '/orgs/:organizationId/audit-settings',
      operationId: 'updateOrganizationAuditSettings',
      documentation,
      summary: 'Set how many days the audit log keeps events (organization admins; default 365)',
      params: OrganizationIdParams,
      body: UpdateAuditSettingsBody,
      response: AuditSettings,
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, body }) => updateAuditSettings(ctx, caller, params.organizationId, body),
    }),
  ]);
}
