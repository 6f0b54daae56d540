import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * The oracle of the end-to-end tests: the official GitBook OpenAPI document shipped in @gitbook/api. Every
 * response the official client receives is matched to its operation (method + path) and checked against
 * what the spec declares for that status. It deliberately imports nothing from src/: the server must not
 * grade its own homework.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface SpecResponse {
  $ref?: string;
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: unknown }>;
}

interface SpecOperation {
  operationId: string;
  method: string;
  template: string;
  pattern: RegExp;
  /** Literal characters of the template: among several matching templates the most literal wins. */
  weight: number;
  responses: Record<string, SpecResponse>;
}

export interface Exchange {
  method: string;
  /** Path below `/v1`, e.g. `/spaces/abc`. */
  path: string;
  status: number;
  headers: Headers;
  text: string;
}

export interface CheckedExchange {
  operationId: string | undefined;
  method: string;
  path: string;
  status: number;
  problems: string[];
}

/**
 * Operations the server implements that the pinned spec does not have yet, described as a newer spec does.
 * `createOrganization` came after 0.143.2; it answers the `Organization` object.
 */
const OPERATIONS_NEWER_THAN_THE_SPEC: { method: string; template: string; operation: JsonObject }[] = [
  {
    method: 'post',
    template: '/orgs',
    operation: {
      operationId: 'createOrganization',
      responses: {
        '201': {
          description: 'Organization created',
          headers: { Location: { schema: { type: 'string' } } },
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Organization' } } },
        },
        '400': { $ref: '#/components/responses/BadRequestError' },
      },
    },
  },
];

/**
 * Places where the spec, read as strict JSON Schema, refuses every possible body, though its own generated
 * TypeScript types (unions and intersections) accept them. Each is rewritten to what the types say.
 */
function correctSpecErrata(document: JsonObject): void {
  const schemas = (document.components as JsonObject).schemas as Record<string, JsonObject>;
  // `Document` is one of markdown, `{ document }` or "Empty" (`additionalProperties: false`), and is mixed into
  // RevisionPageDocument with allOf: JSON Schema judges "Empty" alone and refuses every page field, so a page
  // listed without its body (listPages, a revision's tree, an empty page) could never conform. The type `{}`
  // means "neither markdown nor document".
  const variants = schemas.Document!.oneOf as JsonObject[];
  const empty = variants.findIndex((variant) => variant.title === 'Empty');
  if (empty >= 0) variants[empty] = { type: 'object', title: 'Empty', not: { anyOf: [{ required: ['markdown'] }, { required: ['document'] }] } };
  // A page_edited change's `attributes` is one of the document, group and link attribute sets, none closed:
  // every set a document page can change also satisfies the group's, so `oneOf` never holds. The type is a union.
  const pageEdited = schemas.RevisionSemanticChangePageEdited?.properties as Record<string, JsonObject> | undefined;
  const attributes = pageEdited?.attributes;
  if (attributes?.oneOf) {
    attributes.anyOf = attributes.oneOf;
    delete attributes.oneOf;
  }
  // `PlainObject` (ContentKit props) has no `type`, so a string, number or boolean value also passes it and then
  // matches two branches of its own `oneOf`: no prop could ever be a string. The type is an object map.
  if (schemas.PlainObject && schemas.PlainObject.type === undefined) schemas.PlainObject.type = 'object';
}

/**
 * Where the seed's contract (shared/spec/seed-api.md) wins over the official spec, responses are held to the
 * seed: translation settings are `object: translation-settings` with `title` and `languages` (the official
 * spec's `translation`); the official fields are all there and checked, except `source` and `language`, which
 * exist only once the settings name a source space and a target language (the seed requires only `title`).
 */
function applySeedContract(document: JsonObject): void {
  const schemas = (document.components as JsonObject).schemas as Record<string, JsonObject>;
  const translation = schemas.Translation;
  if (translation) {
    const properties = translation.properties as Record<string, JsonObject>;
    properties.object = { type: 'string', enum: ['translation-settings'] };
    properties.title = { type: 'string', minLength: 1, maxLength: 100 };
    properties.languages = { type: 'array', items: { $ref: '#/components/schemas/TranslationLanguage' } };
    translation.required = [...(translation.required as string[]).filter((name) => name !== 'source' && name !== 'language'), 'title', 'languages'];
  }
}

// GitBook's `emoji` format: emoji characters (RGI sequences), or their code points in hex ("1f389",
// "1f468-200d-1f4bb"). An empty string means no emoji.
const RGI_EMOJI = new RegExp('^(?:\\p{RGI_Emoji}|\\uFE0F)+$', 'v');
const EMOJI_CODEPOINTS = /^[0-9a-f]{2,6}(-[0-9a-f]{2,6})*$/i;
export function isSpecEmoji(value: string): boolean {
  return value === '' || EMOJI_CODEPOINTS.test(value) || RGI_EMOJI.test(value);
}

/**
 * OpenAPI 3.0 is not JSON Schema: `nullable: true` widens a type to null (also for an `enum` or a `$ref`),
 * and `example` / `discriminator` / `xml` / `externalDocs` are annotations. Returns a JSON Schema copy.
 */
export function openApiToJsonSchema(node: Json): Json {
  if (Array.isArray(node)) return node.map(openApiToJsonSchema);
  if (node === null || typeof node !== 'object') return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'example' || key === 'discriminator' || key === 'xml' || key === 'externalDocs' || key === 'nullable') continue;
    out[key] = openApiToJsonSchema(value);
  }
  if (node.nullable !== true) return out;
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  // `$ref` or a composition: null is one more alternative.
  return { anyOf: [out, { type: 'null' }] };
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

const SPEC_ID = 'https://gitbook.spec/openapi.json';

export class OfficialSpec {
  private readonly ajv: Ajv;
  private readonly operations: SpecOperation[] = [];
  private readonly byId = new Map<string, SpecOperation>();
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly document: JsonObject;
  /** The newest spec, for operations the pinned one does not have yet (they follow the newer version). */
  private readonly newer: OfficialSpec | undefined;

  private constructor(document: JsonObject, newer?: OfficialSpec) {
    this.document = document;
    this.newer = newer;
    this.ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
    addFormats.default(this.ajv);
    this.ajv.addFormat('emoji', { type: 'string', validate: isSpecEmoji });
    // An icon is a name from GitBook's icon set; any string of the declared length.
    this.ajv.addFormat('icon', { type: 'string', validate: () => true });
    this.ajv.addSchema({ ...document, $id: SPEC_ID });

    const paths = document.paths as Record<string, Record<string, JsonObject>>;
    for (const [template, item] of Object.entries(paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (typeof op !== 'object' || op === null || typeof op.operationId !== 'string') continue;
        // A page path spans segments: the official client sends `content/path/guides/install` as it is.
        const source = template
          .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
          .replace(/\{pagePath\}/g, '.+')
          .replace(/\{[^}]+\}/g, '[^/]+');
        const operation: SpecOperation = {
          operationId: op.operationId,
          method: method.toUpperCase(),
          template,
          pattern: new RegExp(`^${source}/?$`),
          weight: template.replace(/\{[^}]+\}/g, '').length,
          responses: (op.responses ?? {}) as Record<string, SpecResponse>,
        };
        this.operations.push(operation);
        this.byId.set(operation.operationId, operation);
      }
    }
    this.operations.sort((a, b) => b.weight - a.weight);
  }

  /**
   * The spec of the pinned @gitbook/api, plus the few operations newer than it (see above); an operation only
   * the newest client (`@gitbook/api-latest`, 0.202.0) has is checked against that one's spec.
   */
  static load(): OfficialSpec {
    const document = OfficialSpec.read('@gitbook/api');
    applySeedContract(document);
    const paths = document.paths as Record<string, JsonObject>;
    for (const { method, template, operation } of OPERATIONS_NEWER_THAN_THE_SPEC) {
      paths[template] = { ...(paths[template] ?? {}), [method]: operation };
    }
    return new OfficialSpec(document, OfficialSpec.loadLatest());
  }

  /** The newest official spec alone (`@gitbook/api-latest`). */
  static loadLatest(): OfficialSpec {
    const document = OfficialSpec.read('@gitbook/api-latest');
    applySeedContract(document);
    return new OfficialSpec(document);
  }

  private static read(packageName: string): JsonObject {
    const file = createRequire(import.meta.url).resolve(`${packageName}/spec/openapi.json`);
    const document = openApiToJsonSchema(JSON.parse(readFileSync(file, 'utf8')) as JsonObject) as JsonObject;
    correctSpecErrata(document);
    return document;
  }

  has(operationId: string): boolean {
    return this.byId.has(operationId) || (this.newer?.has(operationId) ?? false);
  }

  /** The operation a request goes to, by method and path below `/v1`. */
  findOperation(method: string, path: string): SpecOperation | undefined {
    return this.operations.find((op) => op.method === method.toUpperCase() && op.pattern.test(path));
  }

  /** The spec that judges a request: the newer one when only it has the operation the request goes to. */
  private judgeOf(method: string, path: string): OfficialSpec {
    const newer = this.newer?.findOperation(method, path);
    return newer && !this.byId.has(newer.operationId) ? this.newer! : this;
  }

  private pointer(...segments: string[]): string {
    return `${SPEC_ID}#/${segments.map(escapePointer).join('/')}`;
  }

  private validator(pointer: string): ValidateFunction {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: pointer });
      this.validators.set(pointer, validate);
    }
    return validate;
  }

  /**
   * What the spec says a status of an operation looks like: the operation's own response, else its
   * `default`, else (for errors) the spec's shared error response for that code (`NotFoundError`, ...),
   * else its `UnexpectedError`. Returns the response object and a pointer to its JSON body schema.
   */
  private declaredResponse(op: SpecOperation, status: number): { response: SpecResponse; schema?: string; stream?: boolean } | undefined {
    let base = ['paths', op.template, op.method.toLowerCase(), 'responses'];
    let key: string | undefined = op.responses[String(status)] ? String(status) : status >= 400 && op.responses.default ? 'default' : undefined;
    let response = key ? op.responses[key] : undefined;
    if (!response && status >= 400) {
      const shared = (this.document.components as unknown as { responses: Record<string, SpecResponse> }).responses;
      key = Object.keys(shared).find((name) => this.errorCodesOf(shared[name]!).includes(status)) ?? 'UnexpectedError';
      base = ['components', 'responses'];
      response = shared[key];
    }
    if (!response || !key) return undefined;
    let segments = [...base, key];
    if (response.$ref) {
      const name = response.$ref.replace('#/components/responses/', '');
      response = (this.document.components as unknown as { responses: Record<string, SpecResponse> }).responses[name]!;
      segments = ['components', 'responses', name];
    }
    const json = response.content?.['application/json'];
    if (json?.schema) return { response, schema: this.pointer(...segments, 'content', 'application/json', 'schema') };
    const events = response.content?.['text/event-stream'];
    return { response, schema: events?.schema ? this.pointer(...segments, 'content', 'text/event-stream', 'schema') : undefined, stream: Boolean(events?.schema) };
  }

  private errorCodesOf(response: SpecResponse): number[] {
    const schema = response.content?.['application/json']?.schema as { properties?: { error?: { properties?: { code?: { enum?: number[] } } } } } | undefined;
    return schema?.properties?.error?.properties?.code?.enum ?? [];
  }

  /**
   * What in `value` does not match the spec's schema `name` (components/schemas): for bodies of operations
   * official only in a newer version of the spec, that answer schemas this version already has.
   */
  schemaProblems(name: string, value: unknown): string[] {
    const validate = this.validator(this.pointer('components', 'schemas', name));
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => `${name}${error.instancePath} ${error.message ?? 'is invalid'}`);
  }

  /** Everything about one response that does not match the spec; empty when it conforms. */
  check(exchange: Exchange): CheckedExchange {
    const judge = this.judgeOf(exchange.method, exchange.path);
    if (judge !== this) return judge.check(exchange);
    const { method, path, status, headers, text } = exchange;
    const op = this.findOperation(method, path);
    const result: CheckedExchange = { operationId: op?.operationId, method, path, status, problems: [] };
    const problem = (message: string) => result.problems.push(message);
    if (!op) {
      problem(`no operation of the official spec answers ${method} ${path}`);
      return result;
    }
    const declared = this.declaredResponse(op, status);
    if (!declared) {
      problem(`${op.operationId} does not declare status ${status} (declared: ${Object.keys(op.responses).join(', ')})`);
      return result;
    }
    for (const name of Object.keys(declared.response.headers ?? {})) {
      if (!headers.has(name)) problem(`header ${name} is missing`);
    }
    if (!declared.schema) {
      if (text.length > 0) problem(`status ${status} has no body in the spec, got ${JSON.stringify(text.slice(0, 200))}`);
      return result;
    }
    if (declared.stream) {
      this.checkEventStream(declared.schema, headers, text, problem);
      return result;
    }
    if (!(headers.get('content-type') ?? '').includes('application/json')) problem(`content-type is ${headers.get('content-type')}, not application/json`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      problem(`body is not JSON: ${JSON.stringify(text.slice(0, 200))}`);
      return result;
    }
    const validate = this.validator(declared.schema);
    if (!validate(body)) {
      for (const error of validate.errors ?? []) {
        problem(`body${error.instancePath} ${error.message ?? 'is invalid'}${error.params ? ` ${JSON.stringify(error.params)}` : ''}`);
      }
    }
    if (status >= 400) {
      const code = (body as { error?: { code?: unknown } } | null)?.error?.code;
      if (code !== status) problem(`error.code is ${JSON.stringify(code)}, the status is ${status}`);
    }
    return result;
  }

  /**
   * A stream as the official client's `streamRequest` reads it (eventsource-parser): every event without a name
   * is one JSON value of the declared schema; `done` ends it; `error` carries `{ error: { message } }`.
   */
  private checkEventStream(schema: string, headers: Headers, text: string, problem: (message: string) => void): void {
    if (!(headers.get('content-type') ?? '').includes('text/event-stream')) problem(`content-type is ${headers.get('content-type')}, not text/event-stream`);
    const validate = this.validator(schema);
    let ended = false;
    for (const block of text.split(/\n\n/)) {
      if (block.trim() === '' || block.startsWith(':')) continue;
      const name = /^event: ?(.*)$/m.exec(block)?.[1];
      const data = [...block.matchAll(/^data: ?(.*)$/gm)].map((match) => match[1]).join('\n');
      if (ended) problem(`event after the stream's end: ${JSON.stringify(block.slice(0, 200))}`);
      if (name === 'done') {
        ended = true;
        continue;
      }
      let value: unknown;
      try {
        value = JSON.parse(data);
      } catch {
        problem(`event data is not JSON: ${JSON.stringify(data.slice(0, 200))}`);
        continue;
      }
      if (name === 'error') {
        if (typeof (value as { error?: { message?: unknown } }).error?.message !== 'string') problem(`error event without error.message: ${data.slice(0, 200)}`);
        ended = true;
        continue;
      }
      if (!validate(value)) {
        for (const error of validate.errors ?? []) problem(`event${error.instancePath} ${error.message ?? 'is invalid'}`);
      }
    }
    if (!ended) problem('the stream ended without a done or error event');
  }
}

export class SpecViolation extends Error {
  constructor(readonly exchange: CheckedExchange) {
    super(`${exchange.method} ${exchange.path} -> ${exchange.status} (${exchange.operationId ?? 'unknown operation'}) breaks the official spec:\n  - ${exchange.problems.join('\n  - ')}`);
    this.name = 'SpecViolation';
  }
}

/**
 * A `fetch` for the official client's `serviceBinding`: every response is checked against the spec before
 * the client sees it, recorded in `log`, and a non-conforming one fails the call with a SpecViolation.
 */
export function specCheckedFetch(spec: OfficialSpec, log: CheckedExchange[], timeoutMs = 20_000): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    // A request the server never answers fails the call instead of hanging the test run.
    const response = await fetch(request, { signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.clone().text();
    const { pathname } = new URL(request.url);
    const path = pathname.replace(/^\/v1(?=\/|$)/, '') || '/';
    const checked = spec.check({ method: request.method, path, status: response.status, headers: response.headers, text });
    log.push(checked);
    if (checked.problems.length > 0) throw new SpecViolation(checked);
    if (checked.status < 300 && checked.operationId) recordOfficialOperation(checked.operationId);
    return response;
  };
}

const answered = new Set<string>();

/**
 * For scripts/test.mjs (QUIRE_OFFICIAL_OPS_DIR): the operations that answered an official client of this process a
 * success conforming to the spec, written when the process ends; `npm run coverage:ops` counts them as tested
 * through the official client.
 */
function recordOfficialOperation(operationId: string): void {
  const dir = process.env.QUIRE_OFFICIAL_OPS_DIR;
  if (!dir) return;
  if (answered.size === 0) {
    process.once('exit', () => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${randomUUID()}.json`), JSON.stringify([...answered]));
    });
  }
  answered.add(operationId);
}
