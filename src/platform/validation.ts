import AjvCompiler from '@fastify/ajv-compiler';

// Fastify calls a validator compiler with the route's schema and the part of the request it validates; the
// package's own types describe it as taking a bare schema, hence the casts below.
type RouteSchema = { schema: unknown; httpPart?: string };
type Compile = (route: RouteSchema) => unknown;
type BuildValidator = AjvCompiler.BuildCompilerFromPool;

/**
 * Path parameters and query strings arrive as text, so their schemas coerce ("limit=5" is the integer 5).
 * A JSON body already carries its types: Fastify's default coercion would silently accept {"title": 42} as
 * the title "42", {"emailDomains": "a.com"} as a list, or "" as null, so bodies are validated strictly.
 * Passed to Fastify() as `schemaController: { compilersFactory: { buildValidator } }`.
 */
export function strictBodyValidators(): BuildValidator {
  const fromPool = AjvCompiler();
  return (externalSchemas, options) => {
    const coercing = fromPool(externalSchemas, options) as unknown as Compile;
    const strictOptions = { ...options, customOptions: { ...options?.customOptions, coerceTypes: false } };
    const strict = fromPool(externalSchemas, strictOptions as Parameters<BuildValidator>[1]) as unknown as Compile;
    const compile: Compile = (route) => (route.httpPart === 'body' ? strict : coercing)(route);
    return compile as unknown as ReturnType<BuildValidator>;
  };
}
