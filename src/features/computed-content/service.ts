import type { Static } from 'typebox';
import type { AppContext, Caller } from '../../platform/context.ts';
import { isoNow } from '../../platform/clock.ts';
import { badRequest } from '../../platform/errors.ts';
import type { Document } from '../content/document/types.ts';
import type { PageRecord } from '../content/pages.ts';
import { presentPage } from '../content/present.ts';
import type { PageNode } from '../content/tree.ts';
import { referencesOfSpecs } from '../openapi-specs/queries.ts';
import type { ApiReference } from '../openapi-specs/reference.ts';
import { expandComputedPages, operationDocument } from '../reader/computed-pages.ts';
import { loadSpace } from '../spaces/service.ts';
import type { ComputedBody, JSONDocument } from './schemas.ts';

/*
 * Computed content as the published reader shows it (reader/computed-pages.ts): the pages an OpenAPI
 * specification of the space's organization generates (`builtin:openapi`), or one of their documents. Nothing
 * is stored; whoever reads the space may compute. Translations (`builtin:translation`) and integrations'
 * sources are not computed by this server: a 400 says so.
 */

type Body = Static<typeof ComputedBody>;

interface OpenAPISource {
  slug: string;
  reference: ApiReference;
}

const METHODS = ['get', 'post', 'put', 'delete', 'patch', 'options', 'head', 'trace', 'hook'];

export async function computeRevision(ctx: AppContext, caller: Caller, spaceId: string, body: Body) {
  const { space } = await loadSpace(ctx, caller, spaceId);
  const props = propsOf(body);
  if (props.models !== undefined && typeof props.models !== 'boolean') throw badRequest('body/source/props/models must be a boolean');
  if (props.grouping !== undefined && props.grouping !== 'by-tag') {
    throw badRequest(`body/source/props/grouping: only "by-tag" is computed by this server (operations grouped in a page per tag), not ${JSON.stringify(props.grouping)}`);
  }
  const source = await openapiSourceOf(ctx, space.organization_id, body);
  const expanded = expandComputedPages([computedNode(body.seed, source.slug, props.models === true, isoNow(ctx.clock))], new Map([[`spec:${source.slug}`, source.reference]]));
  const pages = expanded.tree[0]!.children.map((node) => {
    const document = expanded.documents.get(node.page.id);
    return presentPage(ctx.config, space.id, node, document ? { document } : undefined);
  });
  return { pages, files: [], reusableContents: [] };
}

export async function computeDocument(ctx: AppContext, caller: Caller, spaceId: string, body: Body): Promise<Static<typeof JSONDocument>> {
  return asJson(await computedDocument(ctx, caller, spaceId, body));
}

async function computedDocument(ctx: AppContext, caller: Caller, spaceId: string, body: Body): Promise<Document> {
  const { space } = await loadSpace(ctx, caller, spaceId);
  const props = propsOf(body);
  const doc = props.doc;
  if (doc !== 'models' && doc !== 'operations' && doc !== 'info' && doc !== 'operation' && doc !== 'tag') {
    throw badRequest('body/source/props/doc must be one of "models", "operations", "info", "operation", "tag"');
  }
  const page = props.page;
  if (doc !== 'models' && (typeof page !== 'string' || page.length === 0)) throw badRequest(`body/source/props/page is required (a non-empty string) for doc "${doc}"`);
  const source = await openapiSourceOf(ctx, space.organization_id, body);
  if (doc === 'operation') {
    const method = typeof props.method === 'string' ? props.method.toLowerCase() : '';
    if (!METHODS.includes(method)) throw badRequest(`body/source/props/method must be one of ${METHODS.map((m) => `"${m}"`).join(', ')}`);
    const operation = source.reference.operations.find((op) => op.path === page && op.method.toLowerCase() === method);
    if (!operation) throw badRequest(`body/source/props: the specification "${source.slug}" has no operation ${method.toUpperCase()} ${String(page)}`);
    return operationDocument(source.slug, operation);
  }
  const parent = computedNode(body.seed, source.slug, doc === 'models', isoNow(ctx.clock));
  const expanded = expandComputedPages([parent], new Map([[`spec:${source.slug}`, source.reference]]));
  if (doc === 'info') return expanded.documents.get(parent.page.id)!;
  const generated = expanded.tree[0]!.children;
  // A tag's page, by the tag's name or its page's slug; the models' page is the one that is no tag's.
  const found = doc === 'models' ? generated.find((node) => node.page.title === 'Models' && !source.reference.operations.some((op) => op.tags[0] === 'Models')) : generated.find((node) => node.page.title === page || node.page.slug === page);
  const document = found ? expanded.documents.get(found.page.id) : undefined;
  if (!document) {
    throw badRequest(doc === 'models' ? `body/source: the specification "${source.slug}" has no schemas` : `body/source/props/page: the specification "${source.slug}" has no tag "${String(page)}"`);
  }
  return document;
}

/** A document as the official JSONDocument (its `data` always there). */
function asJson(document: Document): Static<typeof JSONDocument> {
  return { ...document, data: document.data ?? {} } as Static<typeof JSONDocument>;
}

function propsOf(body: Body): Record<string, unknown> {
  const props = body.source.props;
  if (props !== undefined && (typeof props !== 'object' || props === null || Array.isArray(props))) throw badRequest('body/source/props must be an object');
  return props ?? {};
}

/** The OpenAPI specification a source depends on, with its latest reference; 400 for any other source. */
async function openapiSourceOf(ctx: AppContext, organizationId: string, body: Body): Promise<OpenAPISource> {
  const { type, dependencies } = body.source;
  if (type === 'builtin:translation') throw badRequest('body/source/type: "builtin:translation" is not computed by this server (only "builtin:openapi" is); read the translated space instead');
  if (/^integration:[^:]+:[^:]+$/.test(type)) throw badRequest(`body/source/type: "${type}" is an integration's computed content, which this server does not compute (only "builtin:openapi")`);
  if (type !== 'builtin:openapi') throw badRequest(`body/source/type must be "builtin:openapi", "builtin:translation" or "integration:<name>:<source>", not ${JSON.stringify(type)}`);
  const spec = (dependencies as { spec?: { ref?: { kind?: unknown; spec?: unknown } } } | undefined)?.spec;
  const ref = spec?.ref;
  if (!ref || ref.kind !== 'openapi' || typeof ref.spec !== 'string' || ref.spec.length === 0) {
    throw badRequest('body/source/dependencies/spec/ref must be { "kind": "openapi", "spec": "<slug of an OpenAPI specification>" }');
  }
  const slug = ref.spec;
  const reference = (await referencesOfSpecs(ctx.db, organizationId, { slugs: [slug], urls: [] })).get(`spec:${slug}`);
  if (!reference) throw badRequest(`body/source/dependencies/spec/ref/spec: the organization has no processed OpenAPI specification "${slug}"`);
  return { slug, reference };
}

/** A computed page standing for the source; the seed is its id, so generated ids follow from it. */
function computedNode(seed: string, slug: string, models: boolean, now: string): PageNode {
  const page: PageRecord = {
    id: seed,
    parentId: null,
    position: 'a0',
    kind: 'computed',
    title: slug,
    slug,
    documentId: null,
    attributes: { computed: { type: 'builtin:openapi', props: { models }, dependencies: { spec: { ref: { kind: 'openapi', spec: slug } } } } },
    createdAt: now,
    updatedAt: now,
  };
  return { page, path: '', children: [] };
}
