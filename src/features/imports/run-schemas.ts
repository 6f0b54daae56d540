import { Type, type Static } from 'typebox';
import { ListQuery, Timestamp } from '../../platform/schemas.ts';

/*
 * Import runs, in the shape of @gitbook/api 0.202's ContentImportRun (a superset of 0.143's: `id`, `status`,
 * `startedAt`, `completedAt` and `pages` are the same), so both versions of the official client read them.
 */

export const ImportRunStatus = Type.Union(
  [Type.Literal('pending'), Type.Literal('in-progress'), Type.Literal('completed'), Type.Literal('failed'), Type.Literal('cancelled')],
  { description: 'Status of the import' },
);

export const ContentImportSource = Type.Union(
  [
    Type.Object({
      type: Type.Literal('website'),
      url: Type.String({ format: 'uri', maxLength: 2048, description: 'Start page of the website to crawl' }),
    }),
    Type.Object({
      type: Type.Literal('file'),
      files: Type.Array(Type.String({ minLength: 1, maxLength: 200, description: 'Key of file: the id of a file of the target content (uploaded with insert_files)' }), {
        minItems: 1,
        maxItems: 50,
        description: 'Files to import: markdown, HTML and Word (.docx) documents become a page each; a zip archive (a Git Sync layout or markdown folders) is imported alone',
      }),
    }),
  ],
  { description: 'Where the content is imported from' },
);

export const ContentImportTarget = Type.Object(
  {
    space: Type.String({ minLength: 1, description: 'ID of the space to import in' }),
    changeRequest: Type.Optional(Type.String({ minLength: 1, description: 'ID of the change request to import in' })),
    page: Type.Optional(Type.String({ minLength: 1, description: 'ID of the page to import in' })),
  },
  { description: 'Where the content is imported into' },
);

export const StartImportRunBody = Type.Object({ source: ContentImportSource, target: ContentImportTarget });
export type StartImportRunBody = Static<typeof StartImportRunBody>;

export const ImportRunParams = Type.Object({ organizationId: Type.String({ minLength: 1 }), importRunId: Type.String({ minLength: 1 }) });

export const ListImportRunsQuery = Type.Object({
  ...ListQuery.properties,
  space: Type.Optional(Type.String({ minLength: 1, description: 'Only the import runs targeting this space' })),
  changeRequest: Type.Optional(Type.String({ minLength: 1, description: 'Only the import runs targeting this change request' })),
  status: Type.Optional(
    Type.Union([Type.Literal('active'), Type.Literal('pending'), Type.Literal('in-progress'), Type.Literal('completed'), Type.Literal('failed'), Type.Literal('cancelled')], {
      description: 'Only the import runs in this status; `active` covers `pending` and `in-progress`',
    }),
  ),
});
export type ListImportRunsQuery = Static<typeof ListImportRunsQuery>;

export const ContentImportRun = Type.Object({
  object: Type.Literal('import-run'),
  id: Type.String({ description: 'Unique ID of the import' }),
  status: ImportRunStatus,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  startedAt: Type.Optional(Type.String({ format: 'date-time', description: 'When the job started the import' })),
  completedAt: Type.Optional(Type.String({ format: 'date-time', description: 'When the import completed (status "completed")' })),
  reason: Type.Optional(Type.String({ description: 'Why the import failed (status "failed")' })),
  source: ContentImportSource,
  target: ContentImportTarget,
  createdBy: Type.String({ description: 'ID of the user who started the import' }),
  urls: Type.Object({ location: Type.String({ format: 'uri', description: 'URL of the import run in the API' }) }),
  // Extensions of this server: what ImportContentResult tells of a synchronous import, and the job's step.
  revision: Type.Optional(Type.String({ description: 'The revision the import wrote (status "completed")' })),
  importedResources: Type.Optional(Type.Integer({ minimum: 0, description: 'Pages and images imported (status "completed")' })),
  totalResources: Type.Optional(Type.Integer({ minimum: 0, description: 'Pages and images found, including those the import limits left out (status "completed")' })),
  step: Type.Optional(Type.Union([Type.Literal('queued'), Type.Literal('fetching'), Type.Literal('writing')], { description: 'What the job is doing (status "in-progress")' })),
  pages: Type.Array(
    Type.Object({
      id: Type.String({ description: 'ID of page' }),
      sourceURL: Type.Optional(Type.String({ description: 'Where the page was imported from' })),
      type: Type.Union([Type.Literal('page'), Type.Literal('folder')]),
      status: Type.Union([Type.Literal('complete'), Type.Literal('pending')]),
    }),
    { description: 'Pages the import wrote' },
  ),
});
export type ContentImportRun = Static<typeof ContentImportRun>;
