import { Type } from 'typebox';
import { SpaceIdParams } from '../../platform/schemas.ts';
import { JSONDocument, RevisionFile, RevisionPage, RevisionReusableContent } from '../content/schemas.ts';

/*
 * getComputedDocument and getComputedRevision (0.202.0). A computed source is one of several official shapes
 * (`builtin:openapi`, `builtin:translation`, `integration:<name>:<source>`): the body is taken as an object
 * here and the service reads it field by field, so that what this server cannot compute is a 400 naming the
 * field rather than a schema's "must match one of".
 */
const ComputedSource = Type.Object(
  {
    type: Type.String({ minLength: 1, description: 'builtin:openapi (the only source this server computes), builtin:translation or integration:<name>:<source>' }),
    props: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    dependencies: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: true },
);

export const ComputedParams = SpaceIdParams;

export const ComputedDocumentQuery = Type.Object({
  schema: Type.Optional(Type.Union([Type.Literal('current'), Type.Literal('next')], { description: 'Version of the schema used for the document' })),
});

export const ComputedBody = Type.Object({
  source: ComputedSource,
  seed: Type.String({ minLength: 1, maxLength: 100, description: 'Seed of the generated ids: the same seed gives the same ids' }),
});

export const ComputedRevision = Type.Object({
  pages: Type.Array(RevisionPage),
  files: Type.Array(RevisionFile),
  reusableContents: Type.Array(RevisionReusableContent),
});

export { JSONDocument };
