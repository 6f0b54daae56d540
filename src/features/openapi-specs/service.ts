import type { Static } from 'typebox';
import type { AppContext, Caller } from '../../platform/context.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { isoNow } from '../../platform/clock.ts';
import { recordEvent } from '../../platform/events.ts';
import { enqueueJob } from '../../platform/jobs.ts';
import { isUniqueViolation } from '../../db/dialect.ts';
import type { Executor } from '../../db/types.ts';
import { OrgAccess } from '../access/service.ts';
import { parseSpecText } from './document.ts';
import { assertCanEditSpecs, assertCanViewSpecs, specPermissions } from './policy.ts';
import { presentSpec, presentVersion, publishedVersionUrl } from './present.ts';
import type { CreateSpecBody, SpecSource, SpecVisibility } from './schemas.ts';
import {
  countSpecs,
  deleteSpec,
  findSpecBySlug,
  findVersion,
  findVersionHead,
  insertSpec,
  listSpecs,
  listVersions,
  updateSpec,
  type SpecRow,
  type SpecVersionHead,
} from './store.ts';

/** The job that fetches (or reads), parses and versions a spec's document (processing.ts). */
export const PROCESS_SPEC_JOB = 'process-openapi-spec';

type Source = Static<typeof SpecSource>;

/** The spec named `slug` in an organization the caller can read specs of; 404 otherwise. */
async function loadSpec(ctx: AppContext, caller: Caller, organizationId: string, slug: string) {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertCanViewSpecs(access);
  const spec = await findSpecBySlug(ctx.db, organizationId, slug);
  if (!spec) throw notFound(`No OpenAPI spec "${slug}" in organization ${organizationId}`);
  return { access, spec };
}

function present(ctx: AppContext, access: OrgAccess, row: SpecRow) {
  return presentSpec(ctx.config, row, specPermissions(access));
}

/** The source's columns: a URL to fetch, or the text itself (bounded like a fetched document). */
function sourceColumns(ctx: AppContext, source: Source): Pick<SpecRow, 'source_url' | 'source_text'> {
  if ('url' in source) {
    const url = new URL(source.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest(`body/source/url must be an http or https URL, not ${url.protocol.replace(/:$/, '')}`);
    return { source_url: url.href, source_text: null };
  }
  if (Buffer.byteLength(source.text) > ctx.config.openapiMaxBytes) {
    throw badRequest(`body/source/text is larger than OPENAPI_MAX_BYTES (${ctx.config.openapiMaxBytes} bytes)`);
  }
  return { source_url: null, source_text: source.text };
}

/** Queues the spec for processing, in the transaction that changed it. */
async function queueProcessing(ctx: AppContext, trx: Executor, spec: SpecRow): Promise<void> {
  await enqueueJob(ctx, trx, PROCESS_SPEC_JOB, { specId: spec.id });
}

export async function listOpenAPISpecs(ctx: AppContext, caller: Caller, organizationId: string, query: { page?: string | undefined; limit?: number | undefined }) {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertCanViewSpecs(access);
  const listKey = `openapi-specs:${organizationId}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const [rows, count] = await Promise.all([listSpecs(ctx.db, organizationId, page), countSpecs(ctx.db, organizationId)]);
  return ctx.cursors.close(listKey, page, rows, count, (row) => [row.created_at, row.id], (row) => present(ctx, access, row));
}

export async function getOpenAPISpec(ctx: AppContext, caller: Caller, organizationId: string, slug: string) {
  const { access, spec } = await loadSpec(ctx, caller, organizationId, slug);
  return present(ctx, access, spec);
}

async function insertNewSpec(ctx: AppContext, organizationId: string, slug: string, source: Source): Promise<SpecRow> {
  const now = isoNow(ctx.clock);
  const row: SpecRow = {
    id: newId(),
    organization_id: organizationId,
    slug,
    ...sourceColumns(ctx, source),
    visibility: 'private',
    processing_state: 'pending',
    last_version_id: null,
    version_count: 0,
    last_processed_at: null,
    last_error_code: null,
    last_errors: null,
    created_at: now,
    updated_at: now,
  };
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await insertSpec(trx, row);
      await queueProcessing(ctx, trx, row);
      await recordEvent(trx, ctx.clock, 'openapi_spec_created', organizationId, { specId: row.id, slug });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`body/slug: organization ${organizationId} already has an OpenAPI spec "${slug}"`);
    throw error;
  }
  return row;
}

/** A new spec; its document is fetched or parsed by the job worker (processingState `pending` until then). */
export async function createOpenAPISpec(ctx: AppContext, caller: Caller, organizationId: string, body: Static<typeof CreateSpecBody>) {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertCanEditSpecs(access);
  const row = await insertNewSpec(ctx, organizationId, body.slug, body.source);
  return present(ctx, access, row);
}

/**
 * PUT: the spec `slug` with this source, created when missing. A new source is processed again; the same URL
 * is fetched again too (a way to refresh now), and the fetch makes a version only if the document changed.
 */
export async function createOrUpdateOpenAPISpec(ctx: AppContext, caller: Caller, organizationId: string, slug: string, source: Source) {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertCanEditSpecs(access);
  const existing = await findSpecBySlug(ctx.db, organizationId, slug);
  if (!existing) {
    if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug) || slug.length > 100) {
      throw badRequest(`params/specSlug must be lowercase letters and digits in words joined by dashes, at most 100 characters; got "${slug}"`);
    }
    return { created: true, spec: present(ctx, access, await insertNewSpec(ctx, organizationId, slug, source)) };
  }
  const changes = { ...sourceColumns(ctx, source), processing_state: 'pending' as const, updated_at: isoNow(ctx.clock) };
  await ctx.db.transaction().execute(async (trx) => {
    await updateSpec(trx, existing.id, changes);
    await queueProcessing(ctx, trx, existing);
    await recordEvent(trx, ctx.clock, 'openapi_spec_updated', organizationId, { specId: existing.id, slug });
  });
  return { created: false, spec: present(ctx, access, { ...existing, ...changes }) };
}

export async function updateOpenAPISpecVisibility(ctx: AppContext, caller: Caller, organizationId: string, slug: string, visibility: SpecVisibility) {
  const { access, spec } = await loadSpec(ctx, caller, organizationId, slug);
  assertCanEditSpecs(access);
  const changes = { visibility, updated_at: isoNow(ctx.clock) };
  await ctx.db.transaction().execute(async (trx) => {
    await updateSpec(trx, spec.id, changes);
    await recordEvent(trx, ctx.clock, 'openapi_spec_updated', organizationId, { specId: spec.id, slug });
  });
  return present(ctx, access, { ...spec, ...changes });
}

/** Deletes a spec with its versions; 204 also when there is none (or none the caller can see). */
export async function deleteOpenAPISpec(ctx: AppContext, caller: Caller, organizationId: string, slug: string): Promise<void> {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  if (!access.isMember) return;
  assertCanEditSpecs(access);
  const spec = await findSpecBySlug(ctx.db, organizationId, slug);
  if (!spec) return;
  await ctx.db.transaction().execute(async (trx) => {
    await deleteSpec(trx, spec.id);
    await recordEvent(trx, ctx.clock, 'openapi_spec_deleted', organizationId, { specId: spec.id, slug });
  });
}

export async function listOpenAPISpecVersions(ctx: AppContext, caller: Caller, organizationId: string, slug: string, query: { page?: string | undefined; limit?: number | undefined }) {
  const { spec } = await loadSpec(ctx, caller, organizationId, slug);
  const listKey = `openapi-spec-versions:${spec.id}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const rows = await listVersions(ctx.db, spec.id, page);
  return ctx.cursors.close(listKey, page, rows, spec.version_count, (row) => [row.number, row.id], (row) => presentVersion(ctx.config, spec, row));
}

/** A version of the spec: `latest` or an id. */
async function loadVersion(ctx: AppContext, caller: Caller, organizationId: string, slug: string, versionId: string | 'latest') {
  const { spec } = await loadSpec(ctx, caller, organizationId, slug);
  const id = versionId === 'latest' ? spec.last_version_id : versionId;
  const version: SpecVersionHead | undefined = id ? await findVersionHead(ctx.db, spec.id, id) : undefined;
  if (!version) {
    throw notFound(versionId === 'latest' ? `The OpenAPI spec "${slug}" has no version yet (processingState ${spec.processing_state})` : `No version ${versionId} of the OpenAPI spec "${slug}"`);
  }
  return { spec, version };
}

export async function getOpenAPISpecVersion(ctx: AppContext, caller: Caller, organizationId: string, slug: string, versionId: string | 'latest') {
  const { spec, version } = await loadVersion(ctx, caller, organizationId, slug, versionId);
  return presentVersion(ctx.config, spec, version);
}

/**
 * A version's document: `filesystem` holds it by file name, parsed (`specification`), as GitBook's renderer
 * reads it; `url` is where the text can be downloaded.
 */
export async function getOpenAPISpecVersionContent(ctx: AppContext, caller: Caller, organizationId: string, slug: string, versionId: string | 'latest') {
  const { spec, version } = await loadVersion(ctx, caller, organizationId, slug, versionId);
  const row = await findVersion(ctx.db, spec.id, version.id);
  if (!row) throw notFound(`No version ${versionId} of the OpenAPI spec "${slug}"`);
  const filename = fileNameOf(row.source_url, row.text);
  return {
    filesystem: { [filename]: { filename, isEntrypoint: true, specification: parseSpecText(row.text) } },
    url: publishedVersionUrl(ctx.config, spec.organization_id, spec.slug, row.id),
  };
}

/**
 * getLatestOpenAPISpecVersionContentRaw: the latest version's document as it was given or fetched, byte for
 * byte, and whether it is JSON or YAML (the text is one or the other: the version was parsed when it was made).
 */
export async function getLatestOpenAPISpecVersionRawContent(ctx: AppContext, caller: Caller, organizationId: string, slug: string) {
  const { spec, version } = await loadVersion(ctx, caller, organizationId, slug, 'latest');
  const row = await findVersion(ctx.db, spec.id, version.id);
  if (!row) throw notFound(`The OpenAPI spec "${slug}" has no version yet`);
  return { text: row.text, format: isJsonText(row.text) ? ('json' as const) : ('yaml' as const) };
}

/** The file name of a document: the URL's last segment when it names a JSON or YAML file. */
function fileNameOf(sourceUrl: string | null, text: string): string {
  const last = sourceUrl ? decodeURIComponent(new URL(sourceUrl).pathname.split('/').pop() ?? '') : '';
  if (/^[\w.-]+\.(json|ya?ml)$/i.test(last)) return last;
  return isJsonText(text) ? 'openapi.json' : 'openapi.yaml';
}

export function isJsonText(text: string): boolean {
  return text.trimStart().startsWith('{');
}

/**
 * The text of a public spec's latest document (or of one version), for downloads without a token; undefined
 * when there is no such spec, it is private, or it has no such version.
 */
export async function readPublishedSpec(ctx: AppContext, organizationId: string, slug: string, versionId?: string): Promise<{ text: string; hash: string } | undefined> {
  const spec = await findSpecBySlug(ctx.db, organizationId, slug);
  if (!spec || spec.visibility !== 'public') return undefined;
  const id = versionId ?? spec.last_version_id;
  const version = id ? await findVersion(ctx.db, spec.id, id) : undefined;
  return version ? { text: version.text, hash: version.hash } : undefined;
}
