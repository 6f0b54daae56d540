import type { Readable } from 'node:stream';
import { writeIncoming } from '../../platform/blob-store.ts';
import { isoNow } from '../../platform/clock.ts';
import type { AppContext, Caller } from '../../platform/context.ts';
import { badRequest } from '../../platform/errors.ts';
import { assertCanEditContent } from '../spaces/policy.ts';
import { loadSpace } from '../spaces/service.ts';
import { parseMediaType, resolveContentType } from './content-type.ts';
import { imageDimensions } from './dimensions.ts';
import { checkFileSize, fileDownloadUrl, fileTooLarge, type StoredFile } from './service.ts';
import { findBlob, insertBlobIfAbsent } from './store.ts';

export interface FileUpload {
  name: string;
  /** The request's Content-Type: the type the sender declares (the bytes have the last word, see content-type.ts). */
  contentType: string | undefined;
  /** The request's Content-Length, when it was sent (a chunked body has none). */
  length: string | undefined;
  /** The request's body, read here as it arrives. */
  body: Readable;
}

/**
 * Stores the bytes of a file sent as a request's body (`uploadSpaceFile`), for a later change batch to insert as
 * a file of the space or of one of its change requests (`insert_files` with `upload`). The bytes go to the blob
 * store's incoming folder as they arrive, hashed on the way, so a file of FILE_SIZE_LIMIT costs a chunk of memory,
 * not its size; only then are they stored under their hash and recorded. A body that fails (too large, cut off)
 * leaves neither bytes nor a row. The caller must be able to edit the space's content before a byte is read.
 */
export async function uploadSpaceFile(ctx: AppContext, caller: Caller, spaceId: string, upload: FileUpload) {
  const { space, role } = await loadSpace(ctx, caller, spaceId);
  assertCanEditContent(role, space.edit_mode);
  let declared: string | undefined;
  if (upload.contentType !== undefined && upload.contentType.trim() !== '') {
    declared = parseMediaType(upload.contentType);
    if (!declared) throw badRequest(`headers/content-type "${upload.contentType}" is not a media type (type/subtype)`);
  }
  const length = upload.length === undefined ? undefined : Number(upload.length);
  if (length !== undefined && Number.isSafeInteger(length)) checkFileSize(ctx.config, upload.name, length);

  const path = await ctx.blobs.incomingPath();
  const incoming = await writeIncoming(upload.body.iterator({ destroyOnReturn: false }), path, {
    maxBytes: ctx.config.fileSizeLimit,
    tooLarge: () => fileTooLarge(ctx.config, upload.name),
  }).catch((error: unknown) => {
    // Sent to the end, so that the sender reads the answer instead of a connection reset mid-upload.
    upload.body.resume();
    if (upload.body.errored || upload.body.readableAborted) throw badRequest(`The upload of "${upload.name}" was cut off before its end`);
    throw error;
  });
  const resolved = await resolveContentType(incoming.head, upload.name, declared);
  await ctx.blobs.putFile(path, incoming.hash);
  await insertBlobIfAbsent(ctx.db, { hash: incoming.hash, size: incoming.size, content_type: resolved, created_at: isoNow(ctx.clock) });
  const contentType = (await findBlob(ctx.db, incoming.hash))?.content_type ?? resolved;
  const stored: StoredFile = { hash: incoming.hash, size: incoming.size, contentType, ...(imageDimensions(incoming.head, contentType) ?? {}) };
  return presentUpload(ctx, upload.name, stored);
}

function presentUpload(ctx: AppContext, name: string, file: StoredFile) {
  return {
    object: 'file-upload' as const,
    id: file.hash,
    name,
    contentType: file.contentType,
    size: file.size,
    ...(file.width !== undefined && file.height !== undefined ? { dimensions: { width: file.width, height: file.height } } : {}),
    downloadURL: fileDownloadUrl(ctx.config, file.hash, name),
  };
}
