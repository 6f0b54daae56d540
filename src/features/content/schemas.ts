import { Type } from 'typebox';
import { ListQuery, Timestamp } from '../../platform/schemas.ts';

/**
 * Content responses are built by explicit presenters (content/present.ts); the page tree and documents are
 * recursive, open-ended JSON, so their schemas name the fixed fields and let the nested content through as is.
 */
export const RevisionPage = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    type: Type.Union([Type.Literal('document'), Type.Literal('group'), Type.Literal('link'), Type.Literal('computed')]),
    kind: Type.String(),
    pages: Type.Optional(Type.Array(Type.Unknown())),
  },
  { additionalProperties: true },
);

export const RevisionFile = Type.Object({
  id: Type.String(),
  name: Type.String(),
  contentType: Type.String(),
  downloadURL: Type.String(),
  size: Type.Number(),
  dimensions: Type.Optional(Type.Object({ width: Type.Number(), height: Type.Number() })),
});

/** The official RevisionReusableContent: `document` is the id of its document (getDocumentById reads it). */
export const RevisionReusableContent = Type.Object({ id: Type.String(), title: Type.String(), document: Type.Optional(Type.String()) });

export const Revision = Type.Object({
  object: Type.Literal('revision'),
  id: Type.String(),
  parents: Type.Array(Type.String()),
  pages: Type.Array(RevisionPage),
  files: Type.Array(RevisionFile),
  reusableContents: Type.Array(RevisionReusableContent),
  variables: Type.Record(Type.String(), Type.String()),
  createdAt: Timestamp,
  type: Type.String(),
  mergedFrom: Type.Optional(Type.Unknown()),
  authorId: Type.Optional(
    Type.String({
      'x-quire-extension': true,
      description: 'The person whose edit, merge or import made the revision (getUserById names them); absent when the server made it on its own',
    }),
  ),
  urls: Type.Object({ app: Type.String({ format: 'uri' }) }),
});

export const RevisionQuery = Type.Object({
  metadata: Type.Optional(Type.Boolean({ default: true, description: 'false omits mutable git metadata (this server has none)' })),
  computed: Type.Optional(Type.Boolean({ default: true, description: 'false skips computed content (this server has none)' })),
});

export const PageQuery = Type.Object({
  ...RevisionQuery.properties,
  format: Type.Optional(Type.Union([Type.Literal('document'), Type.Literal('markdown')], { default: 'document' })),
  evaluated: Type.Optional(Type.Union([Type.Boolean(), Type.Literal('deterministic-only')], { default: false })),
});

export const FilesQuery = Type.Object({ ...ListQuery.properties, ...RevisionQuery.properties });

export const PagesResponse = Type.Object({ pages: Type.Array(RevisionPage) });

/** A JSON document (the official JSONDocument): its blocks are open-ended JSON, let through as they are. */
export const JSONDocument = Type.Object({ object: Type.Literal('document'), data: Type.Record(Type.String(), Type.Unknown()), nodes: Type.Array(Type.Unknown()) }, { additionalProperties: true });

/** RevisionSemanticChanges: each change is one of the spec's RevisionSemanticChange variants, shaped by content/semantic-changes.ts. */
export const RevisionSemanticChanges = Type.Object({
  mergedFrom: Type.Optional(Type.Unknown({ description: 'The change request merged, for a merge revision' })),
  changes: Type.Array(Type.Object({ type: Type.String() }, { additionalProperties: true })),
  more: Type.Optional(Type.Number({ description: 'How many changes were left out past the limit' })),
});

/** The official RevisionPageMetaLinkTarget: another page (of this space unless `space` says) or a URL. */
const RevisionPageMetaLinkTarget = Type.Union([
  Type.Object({ kind: Type.Literal('page'), page: Type.String(), space: Type.Optional(Type.String()) }),
  Type.Object({ kind: Type.Literal('url'), url: Type.String() }),
]);

/** The official RevisionPageMetaLinks: where a page is read (`canonical`), and the same page elsewhere (`alternates`). */
export const RevisionPageMetaLinks = Type.Object({
  canonical: Type.Optional(RevisionPageMetaLinkTarget),
  alternates: Type.Optional(Type.Array(RevisionPageMetaLinkTarget)),
});
