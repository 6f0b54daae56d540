import { Type, type TSchema, type TSchemaOptions } from 'typebox';

/** Schemas shared by every feature. Feature-specific ones live in features/<area>/schemas.ts. */

export const Timestamp = Type.String({ format: 'date-time' });

export const ErrorBody = Type.Object(
  {
    error: Type.Object({
      code: Type.Integer(),
      message: Type.String(),
    }),
  },
  { $id: 'Error' },
);

export const ListQuery = Type.Object({
  page: Type.Optional(Type.String({ description: 'Opaque cursor: next.page of the previous response' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Page size (default 50)' })),
});

export function listOf<T extends TSchema>(item: T) {
  return Type.Object({
    next: Type.Optional(Type.Object({ page: Type.String() })),
    count: Type.Number(),
    items: Type.Array(item),
  });
}

export const NoContent = Type.Unsafe<undefined>({ type: 'null', description: 'No content' });

/** Error responses a route declares besides its success, for the OpenAPI document. */
export function errors(...codes: number[]): Record<number, typeof ErrorBody> {
  return Object.fromEntries(codes.map((code) => [code, ErrorBody]));
}

export const OrganizationIdParams = Type.Object({ organizationId: Type.String({ minLength: 1 }) });
export const SpaceIdParams = Type.Object({ spaceId: Type.String({ minLength: 1 }) });
export const CollectionIdParams = Type.Object({ collectionId: Type.String({ minLength: 1 }) });

/**
 * A union of string literals from a list written once as a constant (roles, visibilities): the schema validates
 * and documents the values, and the type is exactly the list's, where mapping over the list would lose it.
 */
export function literalUnion<const Values extends readonly string[]>(values: Values, options: TSchemaOptions = {}) {
  return Type.Unsafe<Values[number]>(Type.Union(values.map((value) => Type.Literal(value)), options));
}
