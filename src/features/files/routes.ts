import { Type } from 'typebox';
import type { App } from '../../platform/app-type.ts';
import { callerOf } from '../../platform/auth.ts';
import { notFound } from '../../platform/errors.ts';
import { errors, OrganizationIdParams, SpaceIdParams } from '../../platform/schemas.ts';
import { apiOperation, registerOperations } from '../../platform/api-operation.ts';
import { servedAs } from './content-type.ts';
import { fileDownloadRedirect, isStoredBlob, openFileDownload } from './service.ts';
import { generateStorageUploadUrl, receiveStorageUpload } from './storage-uploads.ts';
import { uploadSpaceFile } from './uploads.ts';

const DownloadParams = Type.Object({ hash: Type.String(), name: Type.String() });

/**
 * File downloads, outside /v1 and without a token: the hash in the URL cannot be guessed without the bytes, so
 * the URL is the permission (as GitBook's `downloadURL`s are). The bytes at an address never change, hence
 * the year-long immutable caching.
 */
export async function fileDownloadRoutes(app: App) {
  app.get(
    '/files/:hash/:name',
    { config: { public: true }, schema: { hide: true, params: DownloadParams } },
    async (request, reply) => {
      const { hash, name } = request.params;
      const missing = () => notFound(`No file ${hash}: the download URL is wrong or the file was never stored`);
      const etag = `"${hash}"`;
      if (matchesEtag(request.headers['if-none-match'], etag)) {
        if (!(await isStoredBlob(app.ctx, hash))) throw missing();
        return reply.status(304).header('etag', etag).header('cache-control', CACHE).send();
      }
      const redirect = await fileDownloadRedirect(app.ctx, hash, (contentType) => {
        const served = servedAs(contentType);
        return { contentType: served.contentType, disposition: contentDisposition(served.disposition, name) };
      });
      // The bucket serves the bytes (S3_PRESIGNED_DOWNLOADS): its signed URL works for minutes, so the redirect
      // is cached no longer than one.
      if (redirect) return reply.status(302).header('location', redirect).header('cache-control', 'private, max-age=60').send();
      const file = await openFileDownload(app.ctx, hash, { range: request.headers.range, log: request.log });
      if (!file) throw missing();
      if ('unsatisfiable' in file) return reply.status(416).header('content-range', `bytes */${file.size}`).header('accept-ranges', 'bytes').send();
      const served = servedAs(file.contentType);
      reply
        .header('content-type', served.contentType)
        .header('content-length', file.range ? file.range.end - file.range.start + 1 : file.size)
        .header('accept-ranges', 'bytes')
        .header('etag', etag)
        .header('cache-control', CACHE)
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', contentDisposition(served.disposition, name));
      if (file.range) reply.status(206).header('content-range', `bytes ${file.range.start}-${file.range.end}/${file.size}`);
      // An uploaded page or SVG opened from this origin must not run script with its cookies and storage.
      if (served.sandbox) reply.header('content-security-policy', 'sandbox');
      return reply.send(file.body);
    },
  );
}

const CACHE = 'public, max-age=31536000, immutable';

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const value = candidate.trim().replace(/^W\//, '');
    return value === etag || value === '*';
  });
}

/** The disposition with the name from the URL: RFC 6266's ASCII fallback plus the exact UTF-8 name (RFC 8187). */
function contentDisposition(disposition: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const exact = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

export const FileUpload = Type.Object({
  object: Type.Literal('file-upload'),
  id: Type.String({ description: 'The SHA-256 of the bytes: what insert_files takes as `upload`' }),
  name: Type.String(),
  contentType: Type.String({ description: 'Decided from the bytes, the declared Content-Type, then the name' }),
  size: Type.Number(),
  dimensions: Type.Optional(Type.Object({ width: Type.Number(), height: Type.Number() })),
  downloadURL: Type.String(),
});

const UploadQuery = Type.Object({ name: Type.String({ minLength: 1, maxLength: 256, description: 'The file\'s name, as insert_files will name it' }) });

/**
 * A file's bytes as a request's body, streamed to the blob store (features/files/uploads.ts): the editor's images
 * and attachments, up to FILE_SIZE_LIMIT, where base64 in a change batch stops at 1 MB. The official spec's
 * upload (generateStorageUploadURL) signs a URL of a storage bucket for fonts and imports; a self-hosted server
 * is its own storage, so the bytes come here directly, and a change batch inserts them (`insert_files` with
 * `upload`) in the space or the change request where they belong. Registered in a context of its own: its
 * body parser, which leaves the body unread for the handler, applies to this route alone.
 */
export async function fileUploadRoutes(app: App) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _body, done) => done(null));
  app.post(
    '/spaces/:spaceId/files/uploads',
    {
      config: { documentedBody: Type.Unsafe({ type: 'string', format: 'binary', description: 'The file\'s bytes, sent as they are, with its Content-Type' }) },
      schema: {
        operationId: 'uploadSpaceFile',
        'x-quire-extension': true,
        tags: ['content'],
        summary: 'Upload a file\'s bytes (up to FILE_SIZE_LIMIT) for a change batch to insert (insert_files with `upload`)',
        consumes: ['application/octet-stream'],
        params: SpaceIdParams,
        querystring: UploadQuery,
        response: { 201: FileUpload, ...errors(400, 401, 403, 404, 413) },
      },
    },
    async (request, reply) => {
      const uploaded = await uploadSpaceFile(app.ctx, callerOf(request), request.params.spaceId, {
        name: request.query.name,
        contentType: request.headers['content-type'],
        length: request.headers['content-length'],
        body: request.raw,
      });
      return reply.status(201).send(uploaded);
    },
  );
}

const StorageUploadBody = Type.Object({
  file: Type.Object({
    name: Type.String({ minLength: 1, maxLength: 256, description: 'Original filename' }),
    type: Type.String({ minLength: 1, maxLength: 200, description: 'MIME type of the file' }),
    size: Type.Number({ description: 'Size of the file in bytes: the upload must be exactly this long' }),
  }),
  kind: Type.Union([Type.Literal('customization_font'), Type.Literal('import_file'), Type.Literal('organization_file')]),
});
const StorageUploadUrl = Type.Object({
  object: Type.Literal('storage-signed-url'),
  url: Type.String({ description: 'Where to PUT the bytes, for an hour and once' }),
  key: Type.String({ description: 'What names the file once uploaded (a font face\'s storageKey)' }),
});

/** generateStorageUploadURL (features/files/storage-uploads.ts). */
export async function storageUploadRoutes(app: App) {
  registerOperations(app, ['storage'], [
    apiOperation({
      method: 'POST',
      url: '/orgs/:organizationId/storage/upload',
      operationId: 'generateStorageUploadURL',
      summary: 'A signed URL that takes one file\'s bytes (PUT), and the key naming the file once uploaded',
      params: OrganizationIdParams,
      body: StorageUploadBody,
      status: 201,
      response: StorageUploadUrl,
      errors: [400, 401, 403, 404, 413],
      run: (ctx, caller, { params, body }) => generateStorageUploadUrl(ctx, caller, params.organizationId, body),
    }),
  ]);
}

const UploadTargetParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
const UploadTargetQuery = Type.Object({ signature: Type.Optional(Type.String({ maxLength: 200 })) });

/**
 * The URLs generateStorageUploadURL signs, outside /v1 and without a token: the signature is the permission (as a
 * bucket's presigned URL). In a context of its own, whose body parser leaves the body for the handler to stream.
 */
export async function storageUploadTargetRoutes(app: App) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _body, done) => done(null));
  app.put(
    '/storage/uploads/:id',
    { config: { public: true }, schema: { hide: true, params: UploadTargetParams, querystring: UploadTargetQuery } },
    async (request) => receiveStorageUpload(app.ctx, request.params.id, request.query.signature, request.raw),
  );
}
