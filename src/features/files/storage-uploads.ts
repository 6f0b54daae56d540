import { randomBytes, timingSafeEqual } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { writeIncoming } from '../../platform/blob-store.ts';
import { isoNow } from '../../platform/clock.ts';
import { personOf, type AppContext, type Caller } from '../../platform/context.ts';
import { ApiError, badRequest, conflict, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { OrgAccess } from '../access/service.ts';
import { FONT_FORMATS } from '../fonts/font-files.ts';
import { fontPolicy } from '../fonts/policy.ts';
import { assertCanInOrganization, assertOrganizationVisible } from '../organizations/policy.ts';
import { hashToken } from '../tokens/service.ts';
import { resolveContentType } from './content-type.ts';
import { checkFileSize, fileTooLarge } from './service.ts';
import { completeStorageUpload, findBlob, findStorageUpload, insertBlobIfAbsent, insertStorageUpload } from './store.ts';

/**
 * generateStorageUploadURL: a URL that takes one file's bytes (a PUT of the body, as a storage bucket's presigned
 * URL does), and the key that names the file once they came: a custom font's `storageKey` (its faces), and the
 * other kinds' file, stored like every file (content-addressed, in the blob store: the local disk or S3). The URL
 * is this server's even on S3: the blob store addresses bytes by their SHA-256, known only once they are read, so
 * the server reads them on the way (as uploadSpaceFile does) rather than let a bucket take them under a key the
 * store cannot check. The URL carries a secret (stored hashed), works for an hour and once, for exactly the
 * declared size, and for a font only for bytes that are a WOFF or WOFF2 font.
 */

const LIFETIME_MS = 60 * 60_000;
const KEY_PREFIX = 'uploads/';

export type StorageUploadKind = 'customization_font' | 'import_file' | 'organization_file';

export async function generateStorageUploadUrl(
  ctx: AppContext, caller: Caller, organizationId: string,
  body: { file: { name: string; type: string; size: number }; kind: StorageUploadKind },
) {
  const userId = personOf(caller);
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertOrganizationVisible(access);
  if (body.kind === 'customization_font') fontPolicy.assert(access, 'edit', 'Uploading a font');
  else assertCanInOrganization(access, 'createContent', 'Uploading a file');
  const { name, type, size } = body.file;
  if (!Number.isSafeInteger(size) || size <= 0) throw badRequest('body/file/size must be a whole number of bytes, at least 1');
  checkFileSize(ctx.config, name, size);
  if (body.kind === 'customization_font' && !FONT_FORMATS[type]) throw badRequest(`body/file/type: a font is font/woff2 or font/woff, not ${type}`);
  const id = newId();
  const secret = randomBytes(24).toString('base64url');
  const now = ctx.clock.now();
  await insertStorageUpload(ctx.db, {
    id, organization_id: organizationId, kind: body.kind, name, content_type: type, size, secret_hash: hashToken(secret),
    created_by: userId, created_at: now.toISOString(), expires_at: new Date(now.getTime() + LIFETIME_MS).toISOString(), blob_hash: null, uploaded_at: null,
  });
  return { object: 'storage-signed-url' as const, url: `${ctx.config.publicUrl}/storage/uploads/${id}?signature=${secret}`, key: `${KEY_PREFIX}${id}` };
}

/**
 * The PUT of a signed URL: the bytes are stored (hashed as they arrive, never whole in memory) and the upload's key
 * names them from then on. A wrong or expired signature is a 404 (the URL is the permission, and says nothing
 * more); bytes of another size than declared, or not a font for a font, are refused and not recorded.
 */
export async function receiveStorageUpload(ctx: AppContext, id: string, signature: string | undefined, body: Readable) {
  const row = await findStorageUpload(ctx.db, id);
  const expected = row ? Buffer.from(row.secret_hash, 'hex') : undefined;
  const given = Buffer.from(hashToken(signature ?? ''), 'hex');
  if (!row || !expected || !timingSafeEqual(expected, given) || Date.parse(row.expires_at) <= ctx.clock.now().getTime()) {
    body.resume();
    throw notFound('No upload at this URL: it is wrong or has expired');
  }
  if (row.blob_hash !== null) {
    body.resume();
    throw conflict('This upload URL was used already: ask for another');
  }
  const path = await ctx.blobs.incomingPath();
  const incoming = await writeIncoming(body.iterator({ destroyOnReturn: false }), path, {
    maxBytes: Math.min(row.size, ctx.config.fileSizeLimit),
    tooLarge: () => (row.size < ctx.config.fileSizeLimit ? badRequest(`body: the upload is longer than the ${row.size} bytes declared`) : fileTooLarge(ctx.config, row.name)),
  }).catch((error: unknown) => {
    body.resume();
    if (error instanceof ApiError) throw error;
    if (body.errored || body.readableAborted) throw badRequest(`The upload of "${row.name}" was cut off before its end`);
    throw error;
  });
  // Refused bytes are not stored: the incoming file is on the local disk whatever the store.
  const refuse = async (message: string) => {
    await rm(path, { force: true });
    return badRequest(message);
  };
  if (incoming.size !== row.size) throw await refuse(`body: the upload is ${incoming.size} bytes, not the ${row.size} declared`);
  const contentType = await resolveContentType(incoming.head, row.name, row.content_type);
  if (row.kind === 'customization_font' && !FONT_FORMATS[contentType]) throw await refuse(`body: the bytes are ${contentType}, not a WOFF2 or WOFF font`);
  await ctx.blobs.putFile(path, incoming.hash);
  const now = isoNow(ctx.clock);
  await insertBlobIfAbsent(ctx.db, { hash: incoming.hash, size: incoming.size, content_type: contentType, created_at: now });
  if (!(await completeStorageUpload(ctx.db, row.id, incoming.hash, now))) throw conflict('This upload URL was used already: ask for another');
  return { key: `${KEY_PREFIX}${row.id}`, size: incoming.size, contentType: (await findBlob(ctx.db, incoming.hash))?.content_type ?? contentType };
}

/** The hash of the bytes an upload's key names in this organization, once they came; undefined otherwise. */
export async function storedHashOfUploadKey(ctx: AppContext, organizationId: string, key: string): Promise<string | undefined> {
  if (!key.startsWith(KEY_PREFIX)) return undefined;
  const row = await findStorageUpload(ctx.db, key.slice(KEY_PREFIX.length));
  return row && row.organization_id === organizationId && row.blob_hash !== null ? row.blob_hash : undefined;
}
