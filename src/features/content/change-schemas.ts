import { Type, type Static } from 'typebox';

/** A page's document on input: markdown, the JSON document, or nothing (an empty page). */
/** Markdown per page: far more than a person writes, small enough to convert in well under a second. */
export const MAX_PAGE_MARKDOWN = 1_000_000;

export const DocumentInput = Type.Union([
  Type.Object({ markdown: Type.String({ maxLength: MAX_PAGE_MARKDOWN }) }),
  Type.Object({ document: Type.Object({ object: Type.Literal('document'), nodes: Type.Array(Type.Unknown()) }, { additionalProperties: true }) }),
  Type.Object({}, { additionalProperties: false }),
]);

const PageMetadata = {
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  slug: Type.Optional(Type.String({ minLength: 0, maxLength: 100, pattern: '^[^/\\s#?]*$' })),
  emoji: Type.Optional(Type.String({ maxLength: 50 })),
  icon: Type.Optional(Type.String({ maxLength: 50 })),
  description: Type.Optional(Type.String({ maxLength: 1000 })),
  hidden: Type.Optional(Type.Boolean()),
  noIndex: Type.Optional(Type.Boolean()),
  noRobotsIndex: Type.Optional(Type.Boolean()),
  condition: Type.Optional(Type.String({ maxLength: 1024 })),
};

const CoverRef = Type.Union([
  Type.Object({ kind: Type.Literal('file'), file: Type.String({ minLength: 1 }) }),
  Type.Object({ kind: Type.Literal('url'), url: Type.String({ minLength: 1, maxLength: 2048 }) }),
]);
/** The official RevisionPageDocumentCover; null removes the page's cover. */
const PageCover = Type.Union([Type.Object({ ref: CoverRef, refDark: Type.Optional(CoverRef), yPos: Type.Optional(Type.Number()) }), Type.Null()], {
  description: "The page's cover image (a file of the space or a URL); null removes it",
});

/**
 * The source of a computed page, as the official `ComputedContentSourceRevisionOpenAPI`: an OpenAPI
 * specification of the organization, named by its slug; `models` adds a page of its schemas.
 */
export const ComputedOpenAPISource = Type.Object(
  {
    type: Type.Literal('builtin:openapi'),
    props: Type.Object({ models: Type.Boolean() }),
    dependencies: Type.Object({
      spec: Type.Object({ ref: Type.Object({ kind: Type.Literal('openapi'), spec: Type.String({ minLength: 1, maxLength: 100 }) }) }),
    }),
  },
  { description: 'Makes the page a computed page (the official RevisionPageComputed) whose sub-pages are generated from this OpenAPI specification' },
);
export type ComputedOpenAPISource = Static<typeof ComputedOpenAPISource>;

export const InsertPageChange = Type.Object({
  operation: Type.Literal('insert_page', { description: 'Inserts a page (into `into`, at `at`; at the end of the root by default)' }),
  type: Type.Optional(
    Type.Union([Type.Literal('document'), Type.Literal('group')], { description: 'Quire extension: `group` inserts a group of pages (at the top level, without a document)' }),
  ),
  ...PageMetadata,
  into: Type.Optional(Type.String({ minLength: 1 })),
  at: Type.Optional(Type.Integer({ minimum: 0 })),
  ref: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  document: DocumentInput,
  computed: Type.Optional(ComputedOpenAPISource),
});

export const UpdatePageChange = Type.Object({
  operation: Type.Literal('update_page', { description: 'Changes a page: metadata, document, place' }),
  page: Type.String({ minLength: 1 }),
  ...PageMetadata,
  cover: Type.Optional(PageCover),
  document: Type.Optional(DocumentInput),
  into: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Null()])),
  at: Type.Optional(Type.Integer({ minimum: 0 })),
  baseRevision: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'Quire extension: the revision the sender read the page at. When the page changed since, the JSON document is merged block by block (and title, description, emoji, icon field by field) with the current one; edits of the same block answer 409 with the conflicts',
    }),
  ),
});

export const DeletePageChange = Type.Object({
  operation: Type.Literal('delete_page', { description: 'Deletes a page and its sub-pages' }),
  page: Type.String({ minLength: 1 }),
});

export const RevertPageChange = Type.Object({
  operation: Type.Literal('revert_page', { description: 'Gives a page back its content of a revision (the base by default), or only some blocks' }),
  page: Type.String({ minLength: 1 }),
  revision: Type.Optional(Type.String({ minLength: 1 })),
  block: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })),
});

export const InsertFilesChange = Type.Object({
  operation: Type.Literal('insert_files', { description: 'Inserts files: uploaded before, from base64 (up to 1 MB), or downloaded from a URL' }),
  files: Type.Array(
    Type.Object({
      ref: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      name: Type.String({ minLength: 1, maxLength: 256 }),
      contentType: Type.Optional(Type.String({ maxLength: 255 })),
      url: Type.Optional(Type.String({ maxLength: 2048 })),
      base64: Type.Optional(Type.String()),
      upload: Type.Optional(
        Type.String({
          pattern: '^[0-9a-f]{64}$',
          description: 'Quire extension: the id of a file upload (uploadSpaceFile, POST /spaces/{spaceId}/files/uploads), for files of any size up to FILE_SIZE_LIMIT; its contentType is the one decided at the upload',
        }),
      ),
    }),
    { minItems: 1, maxItems: 20 },
  ),
});

/**
 * Reusable contents (Quire's operations: GitBook's API names none that write them). Pages include one with a
 * `reusable-content` block whose `data.ref.reusableContent` is its id.
 */
const ReusableContentTitle = Type.String({ minLength: 1, maxLength: 500 });

export const InsertReusableContentChange = Type.Object({
  operation: Type.Literal('insert_reusable_content', { description: 'Quire extension: inserts a reusable content' }),
  reusableContent: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description: 'The id it takes (one is given when absent), so that pages of the same batch can include it' }),
  ),
  title: Type.Optional(ReusableContentTitle),
  document: Type.Optional(DocumentInput),
});

export const UpdateReusableContentChange = Type.Object({
  operation: Type.Literal('update_reusable_content', { description: 'Quire extension: changes the title or the document of a reusable content' }),
  reusableContent: Type.String({ minLength: 1 }),
  title: Type.Optional(ReusableContentTitle),
  document: Type.Optional(DocumentInput),
});

export const DeleteReusableContentChange = Type.Object({
  operation: Type.Literal('delete_reusable_content', { description: 'Quire extension: deletes a reusable content (the blocks that include it then show nothing)' }),
  reusableContent: Type.String({ minLength: 1 }),
});

export const CHANGE_SCHEMAS = {
  insert_page: InsertPageChange,
  update_page: UpdatePageChange,
  delete_page: DeletePageChange,
  revert_page: RevertPageChange,
  insert_files: InsertFilesChange,
  insert_reusable_content: InsertReusableContentChange,
  update_reusable_content: UpdateReusableContentChange,
  delete_reusable_content: DeleteReusableContentChange,
} as const;

export type ContentChange =
  | Static<typeof InsertPageChange>
  | Static<typeof UpdatePageChange>
  | Static<typeof DeletePageChange>
  | Static<typeof RevertPageChange>
  | Static<typeof InsertFilesChange>
  | Static<typeof InsertReusableContentChange>
  | Static<typeof UpdateReusableContentChange>
  | Static<typeof DeleteReusableContentChange>;
export type DocumentInputValue = Static<typeof DocumentInput>;

/** The request body; each change is checked against its operation's schema by the service, naming its index. */
export const UpdateContentBody = Type.Object({
  changes: Type.Array(
    Type.Object(
      { operation: Type.Union(Object.keys(CHANGE_SCHEMAS).map((op) => Type.Literal(op))) },
      { additionalProperties: true, description: `One of ${Object.keys(CHANGE_SCHEMAS).join(', ')} (DocumentedUpdateContentBody has each shape)` },
    ),
    { minItems: 1, maxItems: 50 },
  ),
});

/**
 * The request body as our OpenAPI document describes it: each change is one of the shapes above, told apart
 * by `operation` (a discriminated union). The route validates the looser UpdateContentBody and checks each
 * change against its shape in the service, so that an error names the change's index and operation.
 */
export const DocumentedUpdateContentBody = Type.Object({
  changes: Type.Array(
    Type.Unsafe<ContentChange>({
      oneOf: Object.entries(CHANGE_SCHEMAS).map(([operation, schema]) => ({ ...schema, title: operation })),
      discriminator: { propertyName: 'operation' },
      description: 'One content change; `operation` says which',
    }),
    { minItems: 1, maxItems: 50 },
  ),
});

export const UpdateContentQuery = Type.Object({
  compat: Type.Optional(Type.Boolean({ default: true, description: 'true: answer the change request; false: also the affected pages and inserted files' })),
});

/** What a 409 of a save based on an older revision holds besides the error: each conflict, and where things stand now. */
export const SaveConflictBody = Type.Object(
  {
    error: Type.Object({ code: Type.Integer(), message: Type.String() }),
    revision: Type.Optional(Type.String({ description: 'The current revision: base a resolved save on it' })),
    conflicts: Type.Optional(Type.Array(
      Type.Object(
        {
          page: Type.String(),
          field: Type.String({ description: '`document` for a block, else the page field (title, description, emoji, icon)' }),
          block: Type.Optional(Type.String({ description: 'The key of the block in conflict' })),
          kind: Type.String({ description: 'edited, deleted, added' }),
          base: Type.Unknown(),
          ours: Type.Unknown(),
          theirs: Type.Unknown(),
        },
        { additionalProperties: false },
      ),
    )),
    documents: Type.Optional(
      Type.Array(Type.Object({ page: Type.String(), document: Type.Unknown() }), {
        description: "Each page's merged document, where ours' version stands in each conflicting block (theirs' where ours deleted it)",
      }),
    ),
  },
  { description: 'A conflict. For a save based on an older revision whose edits meet others made since: the conflicts, and nothing was written' },
);
