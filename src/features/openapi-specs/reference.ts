import type { SpecDocument } from './document.ts';

/*
 * What the reader renders of a spec: its operations with their parameters, bodies and responses, and the
 * schemas of its components, the same shape for Swagger 2.0 and OpenAPI 3.x. Computed once per version (pure,
 * no I/O) and stored beside it, so rendering a page reads one row and walks no document.
 *
 * Local `$ref`s are followed here, lazily and within bounds: a schema deeper than MAX_DEPTH, a reference back
 * into itself (recursive models) and anything past the node budget render as the name they point to. So a
 * document whose references would expand exponentially still gives a reference of bounded size.
 */

export interface SchemaView {
  /** The component it came from (`Pet`), when it was a reference. */
  name?: string;
  /** A reference to the component of this name, built once in `ApiReference.schemas`: expand it from there. */
  ref?: string;
  type?: string;
  format?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  default?: unknown;
  example?: unknown;
  nullable?: boolean;
  deprecated?: boolean;
  readOnly?: boolean;
  writeOnly?: boolean;
  properties?: PropertyView[];
  additionalProperties?: SchemaView;
  items?: SchemaView;
  /** `oneOf`, `anyOf` or `allOf` alternatives (allOf is merged where it can be). */
  variants?: { kind: 'oneOf' | 'anyOf'; schemas: SchemaView[] };
  /** Cut here: a reference back into itself, too deep, or past the budget. */
  truncated?: boolean;
}

export interface PropertyView {
  name: string;
  required: boolean;
  schema: SchemaView;
}

export interface ParameterView {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  description?: string;
  deprecated?: boolean;
  schema?: SchemaView;
  example?: unknown;
}

export interface BodyView {
  contentType: string;
  required: boolean;
  description?: string;
  schema?: SchemaView;
  example?: unknown;
}

export interface ResponseView {
  status: string;
  description?: string;
  contentType?: string;
  schema?: SchemaView;
  example?: unknown;
}

/** How a request proves who it is, as curl needs it. */
export interface SecurityView {
  name: string;
  kind: 'bearer' | 'basic' | 'header' | 'query' | 'cookie';
  /** Header, query parameter or cookie name for API keys. */
  parameter?: string;
}

export interface OperationView {
  method: string;
  path: string;
  operationId?: string;
  summary?: string;
  description?: string;
  tags: string[];
  deprecated: boolean;
  parameters: ParameterView[];
  requestBody?: BodyView;
  responses: ResponseView[];
  security: SecurityView[];
}

export interface ApiReference {
  title: string;
  version: string;
  description?: string;
  /** Base URLs of the API, the first being the one examples use. */
  servers: string[];
  operations: OperationView[];
  /**
   * OpenAPI 3.1's webhooks: the requests the API sends, each an operation whose `path` is the webhook's name.
   * Absent from references stored before they were read.
   */
  webhooks?: OperationView[];
  schemas: { name: string; schema: SchemaView }[];
  /** Whether something was left out to keep the reference within its budget. */
  truncated: boolean;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const MAX_DEPTH = 12;
/** Schema nodes in one reference; a 10 MB document of ordinary shape stays well below it. */
const NODE_BUDGET = 200_000;
const MAX_ENUM = 100;
const MAX_PROPERTIES = 500;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

export function buildReference(document: SpecDocument): ApiReference {
  return new ReferenceBuilder(document).build();
}

/** Finds an operation of a reference the way a block points at one: path as written, method in any case. */
export function findOperation(reference: ApiReference, path: string, method: string): OperationView | undefined {
  const wanted = method.toLowerCase();
  return reference.operations.find((op) => op.path === path && op.method === wanted);
}

/** Finds a webhook of a reference the way an `openapi-webhook` block points at one: its name, method in any case. */
export function findWebhook(reference: ApiReference, name: string, method: string): OperationView | undefined {
  const wanted = method.toLowerCase();
  return (reference.webhooks ?? []).find((op) => op.path === name && op.method === wanted);
}

class ReferenceBuilder {
  private nodes = 0;
  private truncated = false;
  private readonly swagger: boolean;

  constructor(private readonly root: SpecDocument) {
    this.swagger = typeof root.swagger === 'string';
  }

  build(): ApiReference {
    const info = isObject(this.root.info) ? this.root.info : {};
    const operations = this.operationsOf(this.root.paths);
    const webhooks = this.operationsOf(this.root.webhooks);
    const components = this.swagger ? this.root.definitions : isObject(this.root.components) ? this.root.components.schemas : undefined;
    const schemas = isObject(components) ? Object.entries(components).map(([name, schema]) => ({ name, schema: { name, ...this.schema(schema, 0, [], name) } })) : [];
    return {
      title: text(info.title) ?? 'API',
      version: text(info.version) ?? '',
      ...(text(info.description) ? { description: text(info.description)! } : {}),
      servers: this.servers(),
      operations,
      ...(webhooks.length > 0 ? { webhooks } : {}),
      schemas,
      truncated: this.truncated,
    };
  }

  /** The operations of a map of path items: `paths` by path, or `webhooks` by name. */
  private operationsOf(items: unknown): OperationView[] {
    const operations: OperationView[] = [];
    for (const [path, rawItem] of Object.entries(isObject(items) ? items : {})) {
      const item = this.deref(rawItem);
      if (!isObject(item)) continue;
      for (const method of METHODS) {
        const op = this.deref(item[method]);
        if (isObject(op)) operations.push(this.operation(path, method, item, op));
      }
    }
    return operations;
  }

  /** A local reference followed (`#/components/…`); other references and broken pointers stay as they are. */
  private deref(value: unknown, seen: string[] = []): unknown {
    let current = value;
    for (let hops = 0; hops < 20 && isObject(current) && typeof current.$ref === 'string'; hops += 1) {
      const ref = current.$ref;
      if (!ref.startsWith('#/') || seen.includes(ref)) return current;
      const target = pointer(this.root, ref);
      if (target === undefined) return current;
      current = target;
    }
    return current;
  }

  private servers(): string[] {
    if (this.swagger) {
      const host = text(this.root.host);
      if (!host) return [];
      const schemes = Array.isArray(this.root.schemes) && this.root.schemes.length > 0 ? (this.root.schemes as string[]) : ['https'];
      const scheme = schemes.includes('https') ? 'https' : String(schemes[0]);
      return [`${scheme}://${host}${text(this.root.basePath) ?? ''}`.replace(/\/$/, '')];
    }
    const servers = Array.isArray(this.root.servers) ? this.root.servers : [];
    return servers.flatMap((server) => {
      if (!isObject(server) || typeof server.url !== 'string') return [];
      const variables = isObject(server.variables) ? server.variables : {};
      // Variables take their defaults, so that the example URL is one that works.
      const url = server.url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
        const variable = variables[name];
        return isObject(variable) && variable.default !== undefined ? String(variable.default) : whole;
      });
      return [url.replace(/\/$/, '')];
    });
  }

  private operation(path: string, method: string, item: Json, op: Json): OperationView {
    const merged = new Map<string, Json>();
    for (const source of [item.parameters, op.parameters]) {
      if (!Array.isArray(source)) continue;
      for (const raw of source) {
        const param = this.deref(raw);
        if (isObject(param) && typeof param.name === 'string' && typeof param.in === 'string') merged.set(`${param.in}:${param.name}`, param);
      }
    }
    const parameters: ParameterView[] = [];
    const formFields: Json[] = [];
    let requestBody: BodyView | undefined;
    for (const param of merged.values()) {
      const where = param.in as string;
      if (where === 'body') {
        requestBody = {
          contentType: this.consumes(op)[0] ?? 'application/json',
          required: param.required === true,
          ...(text(param.description) ? { description: text(param.description)! } : {}),
          ...(param.schema !== undefined ? { schema: this.schema(param.schema, 0, []) } : {}),
        };
      } else if (where === 'formData') {
        formFields.push(param);
      } else if (where === 'path' || where === 'query' || where === 'header' || where === 'cookie') {
        // Swagger 2.0 puts the schema keywords on the parameter itself.
        const schemaSource = this.swagger ? param : param.schema;
        parameters.push({
          name: param.name as string,
          in: where,
          required: where === 'path' || param.required === true,
          ...(text(param.description) ? { description: text(param.description)! } : {}),
          ...(param.deprecated === true ? { deprecated: true } : {}),
          ...(schemaSource !== undefined ? { schema: this.schema(schemaSource, 0, []) } : {}),
          ...(param.example !== undefined ? { example: param.example } : {}),
        });
      }
    }
    if (formFields.length > 0) requestBody = this.formBody(op, formFields);
    if (!this.swagger && op.requestBody !== undefined) requestBody = this.body(op.requestBody);
    return {
      method,
      path,
      ...(text(op.operationId) ? { operationId: text(op.operationId)! } : {}),
      ...(text(op.summary) ? { summary: text(op.summary)! } : {}),
      ...(text(op.description) ? { description: text(op.description)! } : {}),
      tags: Array.isArray(op.tags) ? op.tags.filter((t): t is string => typeof t === 'string') : [],
      deprecated: op.deprecated === true,
      parameters,
      ...(requestBody ? { requestBody } : {}),
      responses: this.responses(op),
      security: this.security(op),
    };
  }

  private consumes(op: Json): string[] {
    const list = Array.isArray(op.consumes) ? op.consumes : Array.isArray(this.root.consumes) ? this.root.consumes : [];
    return list.filter((t): t is string => typeof t === 'string');
  }

  private produces(op: Json): string[] {
    const list = Array.isArray(op.produces) ? op.produces : Array.isArray(this.root.produces) ? this.root.produces : [];
    return list.filter((t): t is string => typeof t === 'string');
  }

  private formBody(op: Json, fields: Json[]): BodyView {
    const consumes = this.consumes(op);
    const contentType = consumes.find((t) => t === 'multipart/form-data' || t === 'application/x-www-form-urlencoded') ?? 'application/x-www-form-urlencoded';
    const properties = fields.map((field) => ({ name: field.name as string, required: field.required === true, schema: this.schema(field, 0, []) }));
    return { contentType, required: fields.some((f) => f.required === true), schema: { type: 'object', properties } };
  }

  /** OpenAPI 3: the JSON media type when there is one, else the first. */
  private pickContent(content: unknown): [string, Json] | undefined {
    if (!isObject(content)) return undefined;
    const entries = Object.entries(content).filter((entry): entry is [string, Json] => isObject(entry[1]));
    return entries.find(([type]) => /json/i.test(type)) ?? entries[0];
  }

  private body(raw: unknown): BodyView | undefined {
    const body = this.deref(raw);
    if (!isObject(body)) return undefined;
    const picked = this.pickContent(body.content);
    return {
      contentType: picked?.[0] ?? 'application/json',
      required: body.required === true,
      ...(text(body.description) ? { description: text(body.description)! } : {}),
      ...(picked && picked[1].schema !== undefined ? { schema: this.schema(picked[1].schema, 0, []) } : {}),
      ...(picked ? exampleOfMedia(picked[1], (v) => this.deref(v)) : {}),
    };
  }

  private responses(op: Json): ResponseView[] {
    if (!isObject(op.responses)) return [];
    return Object.entries(op.responses).flatMap(([status, raw]) => {
      const response = this.deref(raw);
      if (!isObject(response)) return [];
      const base = { status, ...(text(response.description) ? { description: text(response.description)! } : {}) };
      if (this.swagger) {
        const contentType = this.produces(op)[0] ?? (response.schema !== undefined ? 'application/json' : undefined);
        const examples = isObject(response.examples) ? response.examples : {};
        const example = contentType !== undefined ? examples[contentType] : undefined;
        return [
          {
            ...base,
            ...(contentType ? { contentType } : {}),
            ...(response.schema !== undefined ? { schema: this.schema(response.schema, 0, []) } : {}),
            ...(example !== undefined ? { example } : {}),
          },
        ];
      }
      const picked = this.pickContent(response.content);
      return [
        {
          ...base,
          ...(picked ? { contentType: picked[0] } : {}),
          ...(picked && picked[1].schema !== undefined ? { schema: this.schema(picked[1].schema, 0, []) } : {}),
          ...(picked ? exampleOfMedia(picked[1], (v) => this.deref(v)) : {}),
        },
      ];
    });
  }

  private security(op: Json): SecurityView[] {
    const requirements = Array.isArray(op.security) ? op.security : Array.isArray(this.root.security) ? this.root.security : [];
    const schemes = this.swagger ? this.root.securityDefinitions : isObject(this.root.components) ? this.root.components.securitySchemes : undefined;
    // The first requirement is enough for an example: each lists schemes that are all needed together.
    const first = requirements.find(isObject);
    if (!first || !isObject(schemes)) return [];
    return Object.keys(first).flatMap((name): SecurityView[] => {
      const scheme = this.deref(schemes[name]);
      if (!isObject(scheme)) return [];
      const type = String(scheme.type ?? '');
      if (type === 'apiKey') {
        const where = scheme.in === 'query' ? 'query' : scheme.in === 'cookie' ? 'cookie' : 'header';
        return [{ name, kind: where, parameter: String(scheme.name ?? name) }];
      }
      if (type === 'basic' || (type === 'http' && String(scheme.scheme).toLowerCase() === 'basic')) return [{ name, kind: 'basic' }];
      if (type === 'http' || type === 'oauth2' || type === 'openIdConnect') return [{ name, kind: 'bearer' }];
      return [];
    });
  }

  /** The component a reference names (`#/components/schemas/Pet`, Swagger's `#/definitions/Pet`), if it exists. */
  private componentOf(ref: string): string | undefined {
    const prefix = this.swagger ? '#/definitions/' : '#/components/schemas/';
    if (!ref.startsWith(prefix)) return undefined;
    const name = decodeURIComponent(ref.slice(prefix.length)).replace(/~1/g, '/').replace(/~0/g, '~');
    return name.includes('/') || pointer(this.root, ref) === undefined ? undefined : name;
  }

  /**
   * A schema as the reader shows it. A reference to a component stays a reference (`{ ref: 'Pet' }`): each
   * component is built once, in `schemas`, and the reader expands references from there. So the reference is
   * linear in the document, however often a component is used. Other local references are expanded in place;
   * `refs` are those being expanded above (a cycle stops there). `component` is the component being built.
   */
  schema(raw: unknown, depth: number, refs: string[], component?: string): SchemaView {
    this.nodes += 1;
    if (this.nodes > NODE_BUDGET || depth > MAX_DEPTH) {
      this.truncated = true;
      return { truncated: true };
    }
    let node = raw;
    let path = refs;
    let refName: string | undefined;
    if (isObject(node) && typeof node.$ref === 'string') {
      const ref = node.$ref;
      const name = this.componentOf(ref);
      if (name !== undefined) return { name, ref: name };
      refName = ref.split('/').pop() ?? ref;
      if (refs.includes(ref)) return { name: refName, truncated: true };
      path = [...refs, ref];
      const target = ref.startsWith('#/') ? pointer(this.root, ref) : undefined;
      if (target === undefined) return { name: refName };
      node = target;
    }
    if (!isObject(node)) return refName ? { name: refName } : {};
    const view: SchemaView = {};
    if (refName) view.name = refName;
    const type = Array.isArray(node.type) ? node.type.filter((t) => t !== 'null') : node.type;
    if (Array.isArray(node.type) && node.type.includes('null')) view.nullable = true;
    if (typeof type === 'string') view.type = type;
    else if (Array.isArray(type) && type.length > 0) view.type = type.join(' | ');
    if (text(node.format)) view.format = text(node.format)!;
    if (text(node.title)) view.title = text(node.title)!;
    if (text(node.description)) view.description = text(node.description)!;
    if (Array.isArray(node.enum)) view.enum = node.enum.slice(0, MAX_ENUM);
    if (node.default !== undefined) view.default = node.default;
    const example = node.example !== undefined ? node.example : Array.isArray(node.examples) ? node.examples[0] : undefined;
    if (example !== undefined) view.example = example;
    if (node.nullable === true || node['x-nullable'] === true) view.nullable = true;
    if (node.deprecated === true) view.deprecated = true;
    if (node.readOnly === true) view.readOnly = true;
    if (node.writeOnly === true) view.writeOnly = true;

    const properties: PropertyView[] = [];
    const addProperties = (source: Json, requiredHere: Set<string>) => {
      if (!isObject(source.properties)) return;
      for (const [prop, schema] of Object.entries(source.properties)) {
        if (properties.length >= MAX_PROPERTIES) {
          this.truncated = true;
          break;
        }
        const existing = properties.findIndex((p) => p.name === prop);
        const entry = { name: prop, required: requiredHere.has(prop), schema: this.schema(schema, depth + 1, path, component) };
        if (existing >= 0) properties[existing] = entry;
        else properties.push(entry);
      }
    };
    const requiredOf = (source: Json) => new Set(Array.isArray(source.required) ? source.required.filter((r): r is string => typeof r === 'string') : []);
    // allOf: the parts' properties (and their own allOf parts', components included) merged into this object,
    // the usual inheritance. A part seen already on the way is skipped.
    const merge = (source: Json, required: Set<string>, seen: string[]) => {
      addProperties(source, required);
      if (!Array.isArray(source.allOf)) return;
      for (const part of source.allOf) {
        let resolved: unknown = part;
        let partSeen = seen;
        if (isObject(part) && typeof part.$ref === 'string') {
          if (seen.includes(part.$ref)) continue;
          partSeen = [...seen, part.$ref];
          resolved = this.deref(part, seen);
        }
        if (!isObject(resolved)) continue;
        if (!view.type && typeof resolved.type === 'string') view.type = resolved.type;
        if (!view.description && text(resolved.description)) view.description = text(resolved.description)!;
        const partRequired = requiredOf(resolved);
        for (const r of required) partRequired.add(r);
        merge(resolved, partRequired, partSeen);
      }
    };
    merge(node, requiredOf(node), path);
    if (properties.length > 0) {
      view.properties = properties;
      view.type ??= 'object';
    }
    if (node.items !== undefined) view.items = this.schema(node.items, depth + 1, path, component);
    if (isObject(node.additionalProperties)) view.additionalProperties = this.schema(node.additionalProperties, depth + 1, path, component);
    for (const kind of ['oneOf', 'anyOf'] as const) {
      const list = node[kind];
      if (Array.isArray(list) && list.length > 0) view.variants = { kind, schemas: list.slice(0, 50).map((s) => this.schema(s, depth + 1, path, component)) };
    }
    return view;
  }
}

/** An OpenAPI 3 media type's example: `example`, or the first of `examples` (each `{ value }`). */
function exampleOfMedia(media: Json, deref: (value: unknown) => unknown): { example?: unknown } {
  if (media.example !== undefined) return { example: media.example };
  if (isObject(media.examples)) {
    for (const raw of Object.values(media.examples)) {
      const example = deref(raw);
      if (isObject(example) && example.value !== undefined) return { example: example.value };
    }
  }
  return {};
}

/** The value at a JSON pointer (`#/components/schemas/Pet`) of the document, or undefined. */
function pointer(root: unknown, ref: string): unknown {
  let current: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current)) current = current[Number(key)];
    else if (isObject(current) && Object.hasOwn(current, key)) current = current[key];
    else return undefined;
  }
  return current;
}

/** Finds a component schema by name: how the reader expands `{ ref }`s. */
export type SchemaLookup = (name: string) => SchemaView | undefined;

const lookups = new WeakMap<ApiReference, SchemaLookup>();

export function lookupOf(reference: ApiReference): SchemaLookup {
  let lookup = lookups.get(reference);
  if (!lookup) {
    const byName = new Map(reference.schemas.map((s) => [s.name, s.schema]));
    lookup = (name) => byName.get(name);
    lookups.set(reference, lookup);
  }
  return lookup;
}

const noLookup: SchemaLookup = () => undefined;

/**
 * A value that fits a schema, for examples: the schema's own example or default first, then one made up from
 * its type; component references are followed through `lookup`, each at most once on a path, to depth 8.
 */
export function exampleFor(schema: SchemaView | undefined, lookup: SchemaLookup = noLookup, depth = 0, seen: readonly string[] = [], budget = { left: 2000 }): unknown {
  // The budget bounds the example of a model whose every property is another model.
  budget.left -= 1;
  if (!schema || depth > 8 || budget.left < 0) return undefined;
  if (schema.ref) {
    if (seen.includes(schema.ref)) return undefined;
    return exampleFor(lookup(schema.ref), lookup, depth + 1, [...seen, schema.ref], budget);
  }
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  if (schema.variants) return exampleFor(schema.variants.schemas[0], lookup, depth + 1, seen, budget);
  if (schema.properties) {
    const out: Record<string, unknown> = {};
    for (const prop of schema.properties) {
      if (prop.schema.readOnly) continue;
      const value = exampleFor(prop.schema, lookup, depth + 1, seen, budget);
      if (value !== undefined) out[prop.name] = value;
    }
    return out;
  }
  switch (schema.type) {
    case 'array': {
      const item = exampleFor(schema.items, lookup, depth + 1, seen, budget);
      return item === undefined ? [] : [item];
    }
    case 'object':
      return {};
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return true;
    case 'string':
      if (schema.format === 'date-time') return '2024-01-01T00:00:00Z';
      if (schema.format === 'date') return '2024-01-01';
      if (schema.format === 'email') return 'name@example.com';
      if (schema.format === 'uri' || schema.format === 'url') return 'https://example.com';
      if (schema.format === 'uuid') return '00000000-0000-0000-0000-000000000000';
      return 'string';
    default:
      return undefined;
  }
}
