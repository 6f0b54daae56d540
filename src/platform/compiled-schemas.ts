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
  return (externalSchemas, options) => {
    const compile = factory(externalSchemas, options);
    return (route) => {
      const schema = route.schema;
      if (typeof schema !== 'object' || schema === null) return compile(route);
      let bySchema = compiled.get(schema);
      if (!bySchema) compiled.set(schema, (bySchema = new Map()));
      const key = part(route);
      let fn = bySchema.get(key);
      if (fn === undefined) bySchema.set(key, (fn = compile(route)));
      return fn;
    };
  };
}
