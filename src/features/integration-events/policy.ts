import type { OrgAccess } from '../access/service.ts';
import type { Caller, InstallationCaller } from '../../platform/context.ts';
import { forbidden, notFound } from '../../platform/errors.ts';

/**
 * Who sees an integration's events and who may render its UI. Events carry the data of every organization the
 * integration is installed on, so only admins of the publishing (owner) organization read them; anyone else
 * is answered 404, as for anything they cannot see. Rendering is for members of an organization the
 * integration is installed on, and for the owner's members (who build it).
 */
export function assertCanReadEvents(ownerAccess: OrgAccess, integrationName: string): void {
  if (!(ownerAccess.isMember && ownerAccess.orgRole === 'admin')) throw notFound(`No integration "${integrationName}"`);
}

export function assertCanRender(ownerAccess: OrgAccess, installedForCaller: boolean, integrationName: string): void {
  if (!installedForCaller && !ownerAccess.isMember) throw notFound(`No integration "${integrationName}" installed on an organization of yours`);
}

/**
 * A task is an integration's note to itself (the official queueIntegrationTask, whose only security is the
 * integration's own token): here a token of one of its installations queues it, and the task runs as that
 * installation. Anyone else who sees the integration is refused.
 */
export function assertCanQueueTask(caller: Caller, integrationId: string, integrationName: string): asserts caller is InstallationCaller {
  if (caller.kind !== 'installation' || caller.integrationId !== integrationId) {
    throw forbidden(`Only the integration ${integrationName} queues its tasks, with a token of one of its installations`);
  }
}
