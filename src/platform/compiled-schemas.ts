import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';
import { strictBodyValidators } from './validation.ts';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type Factory = (externalSchemas: unknown, options: unknown) => (route: RouteSchema) => unknown;
interface RouteSchema {
  schema: unknown;
  httpPart?: string;
  httpStatus?: string;
  contentType?: string;
}

/**
 * Compiled validators and serializers shared by every application of the process.
 *
 * Fastify compiles the schemas of every route when an application becomes ready: some 500 routes, seconds of
 * CPU, spent again by each application built in the same process (the test suite builds one per test, the
 * bench several). Route schemas are module constants, so an application gets the functions compiled for an
 * earlier one. The key is the schema object and what it applies to (request part, or status and content type of
 * an answer): a schema built per application is a new object, compiled for that one. Sound because every
 * application is built by buildApp with the same compiler options and no shared schemas (`addSchema`).
 */
export function compilersSharedByApplications(): CompilersFactory {
  return {
    buildValidator: shared(strictBodyValidators() as unknown as Factory, (route) => route.httpPart ?? ''),
    buildSerializer: shared(SerializerSelector() as unknown as Factory, (route) => `${route.httpStatus ?? ''} ${route.contentType ?? ''}`),
  } as unknown as CompilersFactory;
}

function shared(factory: Factory, part: (route: RouteSchema) => string): Factory {
  const compiled = new WeakMap<object, Map<string, unknown>>();
  // Schemas a route module builds while it registers (`listOf(Item)`, `Type.Object(params)`) are new objects
  // for each application: about a hundred of them, a quarter of a second of compiling per application. Their
  // text tells them apart as well as their identity does (the compilers read only JSON keywords).
  const byText = new Map<string, unknown>();
  return (externalSchemas, options) => {
    const compile = factory(externalSchemas, options);
    return (route) => {
      const schema = route.schema;
      if (typeof schema !== 'object' || schema === null) return compile(route);
      let bySchema = compiled.get(schema);
      if (!bySchema) compiled.set(schema, (bySchema = new Map()));
      const key = part(route);
      let fn = bySchema.get(key);
      if (fn === undefined) {
        const text = textOf(schema);
        fn = text === undefined ? undefined : byText.get(`${key}\n${text}`);
        if (fn === undefined) {
          fn = compile(route);
          if (text !== undefined) byText.set(`${key}\n${text}`, fn);
        }
        bySchema.set(key, fn);
      }
      return fn;
    };
  };
}

/** The schema as JSON, or undefined when it holds a function (a custom keyword), which JSON would not show. */
function textOf(schema: object): string | undefined {
  let plain = true;
  const text = JSON.stringify(schema, (_key, value: unknown) => {
    if (typeof value === 'function') plain = false;
    return value;
  });
  return plain ? text : undefined;
}
