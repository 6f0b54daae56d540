import type { Document } from '../../../src/features/content/document/types.ts';
import { allPages, api, uploadBytes } from '../../api/client.ts';
import type { ChangeRequest, Integration, OpenAPISpec, Revision, RevisionFile } from '../../api/types.ts';
import type { InstalledBlocks } from '../editor/contract.ts';
import { contentPath, pickDraft, type EditTarget } from './edit-target.ts';

/** The answer of a change batch (updateChangeRequestContent with compat=false, or updateSpaceContent). */
export interface BatchAnswer {
  revision: string;
  changes: { object: string; ref?: string; page: string | { id: string } }[];
  insertedFiles: RevisionFile[];
  merged: { page: string; document: Document }[];
}

/**
 * A change request named in the address (`?changeRequest=<id>`): the person edits in it with whoever else is
 * editing there (editing together), instead of in a draft of their own.
 */
export async function readChangeRequestTarget(spaceId: string, changeRequestId: string): Promise<EditTarget> {
  const changeRequest = await api<ChangeRequest>('GET', `/spaces/${spaceId}/change-requests/${encodeURIComponent(changeRequestId)}`);
  return { kind: 'change-request', id: changeRequest.id, number: changeRequest.number };
}

/** The signed-in person's draft change request of the space, reused, or opened (and kept a draft) when there is none. */
export async function openDraftChangeRequest(spaceId: string, user: { id: string; displayName?: string }): Promise<EditTarget> {
  const drafts = await allPages<ChangeRequest>(`/spaces/${spaceId}/change-requests`, { status: 'draft', creator: user.id });
  const found = pickDraft(drafts as unknown as { id: string; number: number; status: string; updatedAt: string; createdBy: { id: string } }[], user.id);
  if (found) return { kind: 'change-request', id: found.id, number: found.number };
  const created = await api<ChangeRequest>('POST', `/spaces/${spaceId}/change-requests`, { body: { subject: `Edits by ${user.displayName ?? 'me'}` } });
  await api('PATCH', `/spaces/${spaceId}/change-requests/${created.id}`, { body: { status: 'draft' } });
  return { kind: 'change-request', id: created.id, number: created.number };
}

/** The target's current revision: its page tree and the revision id edits are based on. */
export function readTargetRevision(spaceId: string, target: EditTarget, signal?: AbortSignal): Promise<Revision> {
  return api<Revision>('GET', contentPath(spaceId, target), { signal });
}

/** A page as it is at a revision, with its document: what an edit starts from. */
export function readPageAt(spaceId: string, revisionId: string, pageId: string, signal?: AbortSignal) {
  return api<{ id: string; title: string; description?: string; emoji?: string; cover?: { ref?: { kind: string; file?: string } }; document?: Document }>(
    'GET',
    `/spaces/${spaceId}/revisions/${revisionId}/page/${pageId}`,
    { query: { format: 'document' }, signal },
  );
}

/** A batch of changes to the target, as one revision. */
export function writeChanges(spaceId: string, target: EditTarget, changes: unknown[], options: { keepalive?: boolean } = {}): Promise<BatchAnswer> {
  const query = target.kind === 'live' ? {} : { compat: false };
  return api<BatchAnswer>('POST', contentPath(spaceId, target), { body: { changes }, query, ...(options.keepalive ? { keepalive: true } : {}) });
}

/**
 * A file uploaded into the target: its bytes sent as they are (uploadSpaceFile, never base64 in a batch, so up to
 * the server's FILE_SIZE_LIMIT), then inserted by a batch of one `insert_files` change. Resolves to the file.
 */
export async function uploadFile(spaceId: string, target: EditTarget, file: File, onProgress?: (fraction: number) => void): Promise<RevisionFile> {
  const name = file.name || 'file';
  const uploaded = await uploadBytes<{ id: string }>(`/spaces/${spaceId}/files/uploads`, file, {
    query: { name },
    onProgress: onProgress && ((sent, total) => onProgress(total > 0 ? sent / total : 1)),
  });
  const answer = await writeChanges(spaceId, target, [{ operation: 'insert_files', files: [{ name, upload: uploaded.id }] }]);
  const inserted = answer.insertedFiles[0];
  if (!inserted) throw new Error('The server stored no file');
  return inserted;
}

/** A file fetched by the server from a web address into the target (an `insert_files` change with its URL). */
export async function importFile(spaceId: string, target: EditTarget, url: string): Promise<RevisionFile> {
  const name = decodeURIComponent(new URL(url).pathname.split('/').filter(Boolean).at(-1) ?? '') || 'image';
  const answer = await writeChanges(spaceId, target, [{ operation: 'insert_files', files: [{ name, url }] }]);
  const inserted = answer.insertedFiles[0];
  if (!inserted) throw new Error('The server stored no file');
  return inserted;
}

/** A file of the target by its id (getFileById, getFileInChangeRequestById). */
export function readFile(spaceId: string, target: EditTarget, fileId: string, signal?: AbortSignal): Promise<RevisionFile> {
  return api<RevisionFile>('GET', `${contentPath(spaceId, target)}/files/${encodeURIComponent(fileId)}`, { signal });
}

/** The organization's OpenAPI specs (listOpenAPISpecs): a spec can be pointed at once a version of it is processed. */
export async function readSpecs(organizationId: string): Promise<{ slug: string; ready: boolean }[]> {
  const specs = await allPages<OpenAPISpec>(`/orgs/${organizationId}/openapi`);
  return specs.map((spec) => ({ slug: spec.slug, ready: Boolean(spec.lastVersion) }));
}

/** A spec of the organization fetched from an address (createOpenAPISpec): the server's job worker fetches it. */
export async function addSpecFromUrl(organizationId: string, slug: string, url: string): Promise<void> {
  await api('POST', `/orgs/${organizationId}/openapi`, { body: { slug, source: { url } } });
}

/**
 * The integrations installed on the space that declare blocks (listSpaceIntegrations), with their icon and the page
 * of their settings: the installation's in the organization for those who may see it (listOrganizationInstallations,
 * its admins), else the integration's.
 */
export async function readIntegrationBlocks(spaceId: string, organizationId: string): Promise<InstalledBlocks[]> {
  const [installed, installations] = await Promise.all([
    // Listed at once: the official operation has no pages.
    api<{ items: Integration[] }>('GET', `/spaces/${spaceId}/integrations`).then((answer) => answer.items),
    allPages<{ integration: { name: string }; installation: { urls: { app: string } } }>(`/orgs/${organizationId}/installations`).catch(() => []),
  ]);
  return installed
    .filter((integration) => (integration.blocks ?? []).length > 0)
    .map((integration) => {
      const settingsUrl = installations.find((i) => i.integration.name === integration.name)?.installation.urls.app ?? integration.urls.app;
      return {
        name: integration.name,
        title: integration.title,
        ...(integration.urls.icon ? { icon: integration.urls.icon } : {}),
        ...(settingsUrl ? { settingsUrl } : {}),
        blocks: (integration.blocks ?? []).map((b) => ({ id: b.id, title: b.title, ...(b.description ? { description: b.description } : {}) })),
      };
    });
}

/** An integration's rendering of one of its components (renderIntegrationUIWithPost). */
export function renderIntegrationUI(integration: string, request: Record<string, unknown>): Promise<unknown> {
  return api<unknown>('POST', `/integrations/${encodeURIComponent(integration)}/render`, { body: request });
}
