import assert from 'node:assert/strict';
import { updateSpace } from '../src/features/spaces/queries.ts';
import { findIntegrationByName } from '../src/features/integrations/queries.ts';
import { applyBatch, storeBatchFiles, validateChanges } from '../src/features/content/apply-changes.ts';
import { findRevision, lockBranch } from '../src/features/content/branch-store.ts';
import { commitToBranch } from '../src/features/content/commit-revision.ts';
import { isoNow } from '../src/platform/clock.ts';
import { dnsLookup } from '../src/features/domains/service.ts';
import { ok } from './assertions.ts';
import { corpusChanges, corpusPages } from './corpus/pages.ts';
import type { TestServer, TestUser } from './helpers.ts';

/**
 * One place to build the data a test needs, in the manner of Outline's `server/test/factories.ts`. Every
 * factory takes the test server, builds through the API as the bootstrap admin unless given another `token`
 * (through the services only where the API cannot, see `writeMain`), fails the test at once when the server
 * refuses, and returns what the API answered. Defaults are plain (a space is titled "Space"); a test passes
 * whatever it means to check.
 */

// The API's objects, as tests read them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** Who calls and where: `token` (default: the bootstrap admin), `organizationId` (default: the bootstrap organization). */
export interface BuildOptions {
  token?: string;
  organizationId?: string;
}

const as = (token: string | undefined) => (token ? { token } : {});

// Users come from the TestServer itself: `t.member(role, organizationId?)` and `t.outsider()` (test/helpers.ts).

/** A new organization of its own (so its lists and counts are the test's alone), with its admin `owner`. */
export async function buildOrganization(t: TestServer): Promise<{ id: string; owner: TestUser }> {
  const owner = await t.outsider();
  return { id: owner.organizationId, owner };
}

/**
 * An e-mail domain the organization verified (addOrganizationSSODomain, then verifyOrganizationSSODomain by DNS,
 * with DNS answering the TXT record the API asked for): its identity providers may sign in accounts of it.
 */
export async function verifyDomain(t: TestServer, admin: { token: string; organizationId: string }, domain: string): Promise<Json> {
  const added = ok(await t.api('POST', `/v1/orgs/${admin.organizationId}/sso/domains`, { token: admin.token, body: { domain } }), 201);
  const real = dnsLookup.resolveTxt;
  dnsLookup.resolveTxt = async (name) => (name === added.txtRecord.name ? [[added.txtRecord.value]] : real(name));
  try {
    return ok(await t.api('POST', `/v1/orgs/${admin.organizationId}/sso/domains/${added.id}/verify`, { token: admin.token, body: { method: 'dns' } }));
  } finally {
    dnsLookup.resolveTxt = real;
  }
}

/** A space (createSpace) with these fields; 201 or the test fails. */
export async function buildSpace(t: TestServer, fields: Record<string, unknown> = {}, options: BuildOptions = {}): Promise<Json> {
  const res = await t.api('POST', `/v1/orgs/${options.organizationId ?? t.org.id}/spaces`, { body: { title: 'Space', ...fields }, ...as(options.token) });
  return ok(res, 201);
}

/** A collection (createCollection) with these fields; 201 or the test fails. */
export async function buildCollection(t: TestServer, fields: Record<string, unknown> = {}, options: BuildOptions = {}): Promise<Json> {
  const res = await t.api('POST', `/v1/orgs/${options.organizationId ?? t.org.id}/collections`, { body: { title: 'Collection', ...fields }, ...as(options.token) });
  return ok(res, 201);
}

/** A team (createOrganizationTeam) with these fields, e.g. `members` (user ids or emails); 201 or the test fails. */
export async function buildTeam(t: TestServer, fields: Record<string, unknown> = {}, options: BuildOptions = {}): Promise<Json> {
  const res = await t.api('PUT', `/v1/orgs/${options.organizationId ?? t.org.id}/teams`, { body: { title: 'Team', ...fields }, ...as(options.token) });
  return ok(res, 201);
}

/**
 * A change request on a space (createChangeRequest, with `subject` if given). With `pages`, one page per
 * title is inserted into it (two paragraphs each), and the answer gets `pages`: their ids, in order.
 */
export async function buildChangeRequest(t: TestServer, spaceId: string, options: { subject?: string; pages?: string[]; token?: string } = {}): Promise<Json> {
  const body = options.subject !== undefined ? { subject: options.subject } : {};
  const cr = ok(await t.api('POST', `/v1/spaces/${spaceId}/change-requests`, { body, ...as(options.token) }), 201);
  if (!options.pages) return cr;
  return { ...cr, pages: await writeContent(t, spaceId, cr.id, options.pages.map(insertPageWithText), as(options.token)) };
}

/** Applies content changes to a change request (compat=false); returns the ids of the pages it touched, in order. */
export async function writeContent(t: TestServer, spaceId: string, changeRequestId: string, changes: unknown[], options: { token?: string } = {}): Promise<string[]> {
  const res = ok(await t.api('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content?compat=false`, { body: { changes }, ...as(options.token) }));
  return res.changes.map((c: { page?: { id: string } | string }) => (typeof c.page === 'string' ? c.page : c.page?.id));
}

/** Merges a change request; it must merge (not conflict). Returns the answer. */
export async function mergeChangeRequest(t: TestServer, spaceId: string, changeRequestId: string): Promise<Json> {
  const res = ok(await t.api('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/merge`));
  assert.equal(res.result, 'merge', JSON.stringify(res));
  return res;
}

/** A review of a change request by the holder of `token` (a member with the review role, not its author). */
export async function buildReview(t: TestServer, spaceId: string, changeRequestId: string, status: 'approved' | 'changes-requested', options: { token: string }): Promise<Json> {
  return ok(await t.api('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/reviews`, { body: { status }, ...as(options.token) }), 201);
}

/** Asks `users` to review a change request, as the holder of `token` (default: the bootstrap admin). */
export async function requestReviewers(t: TestServer, spaceId: string, changeRequestId: string, users: string[], options: { token?: string } = {}): Promise<Json> {
  return ok(await t.api('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/requested-reviewers`, { body: { users }, ...as(options.token) }));
}

/** Changes the space's live content through a change request merged at once; returns the ids of the pages it touched. */
export async function editLive(t: TestServer, spaceId: string, changes: unknown[]): Promise<string[]> {
  const cr = await buildChangeRequest(t, spaceId);
  const ids = await writeContent(t, spaceId, cr.id, changes);
  await mergeChangeRequest(t, spaceId, cr.id);
  return ids;
}

/** A page in the space's live content, with a paragraph (`markdown`, default "About <title>."), inside `parent` if given; returns its id. */
export async function buildPage(t: TestServer, spaceId: string, options: { title: string; markdown?: string; parent?: string }): Promise<string> {
  const change = { ...insertPageWithText(options.title), ...(options.markdown !== undefined ? { document: markdown(options.markdown) } : {}), ...(options.parent ? { into: options.parent } : {}) };
  const [id] = await editLive(t, spaceId, [change]);
  assert.ok(id, 'the page was inserted');
  return id;
}

/** A space whose current revision has pages with these titles (two paragraphs each); returns their ids in order. */
export async function buildSpaceWithPages(t: TestServer, ...titles: string[]): Promise<{ space: Json; pages: string[] }> {
  const space = await buildSpace(t, { title: 'Docs' });
  const pages = await editLive(t, space.id, titles.map(insertPageWithText));
  return { space, pages };
}

/**
 * A comment in markdown on a space (postCommentInSpace), or on one of its change requests when
 * `changeRequestId` is given; about `page` if given. Returns the comment.
 */
export async function buildComment(t: TestServer, spaceId: string, options: { markdown?: string; page?: string; changeRequestId?: string; token?: string } = {}): Promise<Json> {
  const under = options.changeRequestId ? `/v1/spaces/${spaceId}/change-requests/${options.changeRequestId}` : `/v1/spaces/${spaceId}`;
  const body = { body: markdown(options.markdown ?? 'A comment'), ...(options.page ? { page: options.page } : {}) };
  return ok(await t.api('POST', `${under}/comments`, { body, ...as(options.token) }));
}

/** A reply in markdown to a comment of a space, or of one of its change requests when `changeRequestId` is given. Returns the reply. */
export async function buildCommentReply(
  t: TestServer,
  spaceId: string,
  commentId: string,
  options: { markdown?: string; changeRequestId?: string; token?: string } = {},
): Promise<Json> {
  const under = options.changeRequestId ? `/v1/spaces/${spaceId}/change-requests/${options.changeRequestId}` : `/v1/spaces/${spaceId}`;
  return ok(await t.api('POST', `${under}/comments/${commentId}/replies`, { body: { body: markdown(options.markdown ?? 'A reply') }, ...as(options.token) }));
}

/** A content body in markdown, as documents, comments and replies take it. */
export const markdown = (text: string) => ({ markdown: text });

function insertPageWithText(title: string) {
  return { operation: 'insert_page', title, document: markdown(`About ${title}.\n\nA second paragraph of ${title}.`) };
}

/**
 * Writes a batch of content changes straight onto a space's main line, as live edits and merges do: one new
 * revision, and the space's revision moves to it. Tests of reads and of change requests use it to give a
 * space content without going through a merge (there is no API for that). Returns the new revision's id.
 */
export async function writeMain(t: TestServer, spaceId: string, changes: unknown[], variables?: Record<string, string>): Promise<string> {
  const ctx = t.app.ctx;
  const valid = validateChanges(changes);
  const files = await storeBatchFiles(ctx, valid);
  const now = isoNow(ctx.clock);
  return ctx.db.transaction().execute(async (trx) => {
    const branch = await lockBranch(trx, spaceId);
    const head = branch && (await findRevision(trx, branch.head_revision_id));
    if (!branch || !head) throw new Error(`no main branch for space ${spaceId}`);
    const batch = await applyBatch(ctx, trx, head, head.id, valid, files, now);
    const revision = await commitToBranch(ctx, trx, branch, head, {
      pages: batch.pages,
      files: batch.files,
      ...(variables ? { variables } : {}),
      type: 'edits',
      createdBy: t.admin.userId,
    });
    await updateSpace(trx, spaceId, { revision_id: revision.id, updated_at: now });
    return revision.id;
  });
}

/**
 * An OpenAPI spec (createOpenAPISpec) from `source` (`{ url }` or `{ text }`), processed by the job worker
 * before it returns; answers the spec as GET reads it then.
 */
export async function buildOpenAPISpec(t: TestServer, slug: string, source: { url: string } | { text: string }, options: BuildOptions = {}): Promise<Json> {
  const org = options.organizationId ?? t.org.id;
  ok(await t.api('POST', `/v1/orgs/${org}/openapi`, { body: { slug, source }, ...as(options.token) }), 201);
  await t.app.jobs.runDue();
  return ok(await t.api('GET', `/v1/orgs/${org}/openapi/${slug}`, { ...as(options.token) }));
}

/**
 * An integration published (publishIntegration) with these manifest fields, e.g. `endpoint` or `script`; public
 * and without scopes unless given, named `integration-<random>`. The answer of the first publish carries its
 * `signingSecret`; `id` is added (events carry it; the Integration object has none). 200 or the test fails.
 */
export async function buildIntegration(t: TestServer, fields: Record<string, unknown> = {}, options: BuildOptions = {}): Promise<Json> {
  const name = `integration-${Math.random().toString(36).slice(2, 10)}`;
  const body = { organization: options.organizationId ?? t.org.id, title: 'Integration', description: '', visibility: 'public', scopes: [], ...fields };
  const integration = ok(await t.api('POST', `/v1/integrations/${name}`, { body, ...as(options.token) }));
  return { ...integration, id: (await findIntegrationByName(t.db, name))!.id };
}

/**
 * An integration with nowhere to send its events and renders (no tunnel, script or endpoint), as one comes to
 * be: published with an endpoint, published again without one while in development mode (the tunnel receives
 * them then), then out of development mode.
 */
export async function buildIntegrationWithoutTarget(t: TestServer, options: BuildOptions = {}): Promise<Json> {
  const integration = await buildIntegration(t, { endpoint: 'http://127.0.0.1:9/' }, options);
  const path = `/v1/integrations/${integration.name}`;
  ok(await t.api('PUT', `${path}/dev`, { body: { tunnelUrl: 'http://127.0.0.1:9/tunnel' }, ...as(options.token) }), 204);
  const body = { organization: options.organizationId ?? t.org.id, title: 'Integration', description: '', visibility: 'public', scopes: [] };
  ok(await t.api('POST', path, { body, ...as(options.token) }));
  ok(await t.api('DELETE', `${path}/dev`, { ...as(options.token) }), 205);
  return integration;
}

/**
 * An installation of an integration (installIntegration) on an organization, as its admin (`token`); with
 * `spaces`, also installed on each of them (installIntegrationOnSpace). 201 or the test fails.
 */
export async function buildInstallation(t: TestServer, integrationName: string, options: BuildOptions & { spaces?: string[] } = {}): Promise<Json> {
  const installation = ok(await t.api('POST', `/v1/integrations/${integrationName}/installations`, { body: { organization: options.organizationId ?? t.org.id }, ...as(options.token) }), 201);
  for (const space of options.spaces ?? []) {
    ok(await t.api('POST', `/v1/integrations/${integrationName}/installations/${installation.id}/spaces`, { body: { space }, ...as(options.token) }), 201);
  }
  return installation;
}

/** A space holding the whole GitBook docs corpus (test/corpus), with the corpus file of each page by its id. */
export async function buildCorpusSpace(t: TestServer): Promise<{ spaceId: string; fileOf: Map<string, string> }> {
  const pages = corpusPages();
  const spaceId = (await buildSpace(t, { title: 'GitBook docs' })).id;
  const fileOf = new Map<string, string>();
  // A change request takes 50 changes at a time.
  for (let i = 0; i < pages.length; i += 50) {
    const ids = await editLive(t, spaceId, corpusChanges(pages.slice(i, i + 50)));
    ids.forEach((id, j) => fileOf.set(id, pages[i + j]!.file));
  }
  return { spaceId, fileOf };
}
