import { Type } from 'typebox';
import { literalUnion, Timestamp } from '../../platform/schemas.ts';

export const SPEC_VISIBILITIES = ['private', 'public'] as const;
export const PROCESSING_STATES = ['pending', 'progress', 'complete'] as const;
/** Why the last processing failed: no answer in time, no usable answer (status, size, address), not a valid document. */
export const PROCESS_ERROR_CODES = ['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR'] as const;

export type SpecVisibility = (typeof SPEC_VISIBILITIES)[number];
export type ProcessingState = (typeof PROCESSING_STATES)[number];
export type ProcessErrorCode = (typeof PROCESS_ERROR_CODES)[number];

export const SpecSlug = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$',
  description: 'Names the spec in its organization: lowercase letters and digits in words joined by dashes',
});

const Url = Type.String({ format: 'uri', maxLength: 2048 });

/** Where the document comes from: a URL (fetched now and on a schedule) or the document itself as text. */
export const SpecSource = Type.Union(
  [
    Type.Object({ url: Url }, { additionalProperties: false, description: 'Create a specification from a URL' }),
    Type.Object(
      { text: Type.String({ minLength: 1, description: 'OpenAPI specification as text (JSON or YAML)' }) },
      { additionalProperties: false, description: 'Create a specification from a text string' },
    ),
  ],
  { description: 'A URL to fetch the document from, or its text' },
);

export const OpenAPISpec = Type.Object(
  {
    object: Type.Literal('openapi-spec'),
    id: Type.String(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    slug: Type.String(),
    sourceURL: Type.Optional(Type.String({ format: 'uri' })),
    processingState: literalUnion(PROCESSING_STATES, {
      description: '`pending` until the worker takes it, `progress` while it fetches and parses, `complete` after (with lastProcessErrorCode when it failed)',
    }),
    visibility: literalUnion(SPEC_VISIBILITIES, { description: '`public`: the document can be downloaded without a token at urls.published' }),
    lastVersion: Type.Optional(Type.String({ description: 'ID of the latest version' })),
    lastProcessedAt: Type.Optional(Timestamp),
    lastProcessErrorCode: Type.Optional(literalUnion(PROCESS_ERROR_CODES)),
    lastProcessedErrors: Type.Optional(Type.Array(Type.Object({ message: Type.String(), code: Type.Optional(Type.String()) }))),
    lastProcessedErrorCount: Type.Integer({ minimum: 0, description: 'Problems found by the last processing' }),
    permissions: Type.Object({
      view: Type.Boolean({ description: 'The caller can read the spec and its versions' }),
      edit: Type.Boolean({ description: 'The caller can change, refresh and delete the spec' }),
    }),
    urls: Type.Object({
      location: Type.String({ format: 'uri' }),
      app: Type.String({ format: 'uri' }),
      published: Type.Optional(Type.String({ format: 'uri', description: 'Where anyone can download the latest document; only when public' })),
    }),
  },
  { $id: 'OpenAPISpec' },
);

export const OpenAPISpecVersion = Type.Object(
  {
    object: Type.Literal('openapi-spec-version'),
    id: Type.String(),
    createdAt: Timestamp,
    url: Type.String({ format: 'uri', maxLength: 2048, description: 'Where the document of this version can be downloaded' }),
    urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
  },
  { $id: 'OpenAPISpecVersion' },
);

export const OpenAPISpecContent = Type.Object({
  filesystem: Type.Record(Type.String(), Type.Unknown(), {
    description: 'The documents of the version by file name; each entry holds the parsed `specification`',
  }),
  url: Type.String({ format: 'uri' }),
});

/** The official OpenAPISpecRawContent: the entry document's text exactly as submitted, and its format. */
export const OpenAPISpecRawContent = Type.Object({
  text: Type.String({ description: 'The text, exactly as given or fetched' }),
  format: Type.Union([Type.Literal('json'), Type.Literal('yaml')]),
});

export const SpecParams = Type.Object({ organizationId: Type.String({ minLength: 1 }), specSlug: Type.String({ minLength: 1 }) });
export const SpecVersionParams = Type.Object({
  organizationId: Type.String({ minLength: 1 }),
  specSlug: Type.String({ minLength: 1 }),
  versionId: Type.String({ minLength: 1 }),
});

export const CreateSpecBody = Type.Object({ slug: SpecSlug, source: SpecSource });
export const PutSpecBody = Type.Object({ source: SpecSource });
export const UpdateSpecBody = Type.Object({ visibility: literalUnion(SPEC_VISIBILITIES) });
