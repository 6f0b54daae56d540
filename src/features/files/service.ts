import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { Config } from '../../config.ts';
import type { Executor } from '../../db/types.ts';
import parseRange from 'range-parser';
import { isBlobHash, type ByteRange } from '../../platform/blob-store.ts';
import { isoNow } from '../../platform/clock.ts';
import type { AppContext } from '../../platform/context.ts';
import { ApiError, badRequest } from '../../platform/errors.ts';
import { safeFetch, type SafeFetchOptions } from '../../platform/safe-fetch.ts';
import { parseMediaType, resolveContentType } from './content-type.ts';
import { imageDimensions } from './dimensions.ts';
import { findBlob, findServedBlob, insertBlobIfAbsent } from './store.ts';

export interface StoredFile {
  /** SHA-256 of the bytes: their address in the blob store and in download URLs. */
  hash: string;
  size: number;
  contentType: string;
  /** Images only, when they can be measured. */
  width?: number;
  height?: number;
}

export interface FileBytes {
  name: string;
  /** The media type the client declared, if any; the bytes have the last word (see content-type.ts). */
  contentType?: string | undefined;
  bytes: Buffer;
}

/**
 * Stores a file's bytes (once per distinct content) and returns what a file version records about them. The
 * bytes go to the blob store before the row is written, so a `blobs` row never names missing bytes; a rolled
 * back transaction at worst leaves unreferenced bytes behind. Identical bytes keep the media type decided when
 * they were first stored, so a file's `contentType` is always the one its download is served with.
 */
export async function storeFileBytes(ctx: AppContext, db: Executor, file: FileBytes): Promise<StoredFile> {
  checkFileSize(ctx.config, file.name, file.bytes.length);
  let declared: string | undefined;
  if (file.contentType !== undefined && file.contentType.trim() !== '') {
    declared = parseMediaType(file.contentType);
    if (!declared) throw badRequest(`File "${file.name}": contentType "${file.contentType}" is not a media type (type/subtype)`);
  }
  const resolved = await resolveContentType(file.bytes, file.name, declared);
  const { hash, size } = await ctx.blobs.put(file.bytes);
  await insertBlobIfAbsent(db, { hash, size, content_type: resolved, created_at: isoNow(ctx.clock) });
  const contentType = (await findBlob(db, hash))?.content_type ?? resolved;
  const dimensions = imageDimensions(file.bytes, contentType);
  return { hash, size, contentType, ...(dimensions ?? {}) };
}

/** Refuses a file over FILE_SIZE_LIMIT, naming it; for callers that can tell the size before holding the bytes. */
export function checkFileSize(config: Pick<Config, 'fileSizeLimit'>, name: string, size: number): void {
  if (size > config.fileSizeLimit) throw fileTooLarge(config, name, size);
}

/** The 413 of a file over FILE_SIZE_LIMIT, with its size when it is known (a stream is refused before its end). */
export function fileTooLarge(config: Pick<Config, 'fileSizeLimit'>, name: string, size?: number): ApiError {
  return new ApiError(
    413,
    `File "${name}" is ${size === undefined ? 'larger' : `${formatBytes(size)}, larger`} than the ${formatBytes(config.fileSizeLimit)} this server accepts per file (FILE_SIZE_LIMIT)`,
  );
}

/**
 * Downloads a remote file for storing (`insert_files` from a URL, images of an imported page): through the
 * outbound fetch guard, within FILE_SIZE_LIMIT. Call it outside a database transaction: it waits on the network.
 * The name is the last segment of the final URL's path.
 */
export async function fetchRemoteFile(
  ctx: AppContext,
  url: string,
  options: Pick<SafeFetchOptions, 'signal' | 'trustedAddresses' | 'lookup'> = {},
): Promise<FileBytes & { url: string }> {
  let response;
  try {
    response = await safeFetch(ctx.config, url, { ...options, maxBytes: ctx.config.fileSizeLimit });
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 413) {
      throw new ApiError(413, `The file at ${url} is larger than the ${formatBytes(ctx.config.fileSizeLimit)} this server accepts per file (FILE_SIZE_LIMIT)`);
    }
    throw error;
  }
  if (response.status < 200 || response.status > 299) {
    throw new ApiError(422, `Cannot download ${url}: the server answered HTTP ${response.status}`);
  }
  return { url: response.url, name: nameFromUrl(response.url), contentType: response.contentType, bytes: response.body };
}

/** Remote files downloaded at once, server-wide; more wait their turn (each may be up to FILE_SIZE_LIMIT). */
export const MAX_CONCURRENT_DOWNLOADS = 4;
let downloading = 0;
const waiting: (() => void)[] = [];

async function downloadSlot<T>(run: () => Promise<T>): Promise<T> {
  if (downloading >= MAX_CONCURRENT_DOWNLOADS) await new Promise<void>((resolve) => waiting.push(resolve));
  else downloading += 1;
  try {
    return await run();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else downloading -= 1;
  }
}

/**
 * Downloads a remote file and stores it (`insert_files` from a URL): streamed to disk as it arrives, never
 * held whole in memory, within FILE_SIZE_LIMIT, at most MAX_CONCURRENT_DOWNLOADS at a time. Its type is
 * sniffed from its first bytes. Call it outside a database transaction: it waits on the network.
 */
export async function storeRemoteFile(ctx: AppContext, db: Executor, file: { name: string; contentType?: string | undefined; url: string }): Promise<StoredFile> {
  let declared: string | undefined;
  if (file.contentType !== undefined && file.contentType.trim() !== '') {
    declared = parseMediaType(file.contentType);
    if (!declared) throw badRequest(`File "${file.name}": contentType "${file.contentType}" is not a media type (type/subtype)`);
  }
  return downloadSlot(async () => {
    const path = await ctx.blobs.incomingPath();
    let response;
    try {
      response = await safeFetch(ctx.config, file.url, { maxBytes: ctx.config.fileSizeLimit, saveTo: path });
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 413) {
        throw new ApiError(413, `The file at ${file.url} is larger than the ${formatBytes(ctx.config.fileSizeLimit)} this server accepts per file (FILE_SIZE_LIMIT)`);
      }
      throw error;
    }
    const saved = response.saved!;
    if (response.status < 200 || response.status > 299) {
      await rm(path, { force: true });
      throw new ApiError(422, `Cannot download ${file.url}: the server answered HTTP ${response.status}`);
    }
    const resolved = await resolveContentType(saved.head, file.name, declared ?? parseMediaType(response.contentType ?? ''));
    await ctx.blobs.putFile(path, saved.hash);
    await insertBlobIfAbsent(db, { hash: saved.hash, size: saved.size, content_type: resolved, created_at: isoNow(ctx.clock) });
    const contentType = (await findBlob(db, saved.hash))?.content_type ?? resolved;
    const dimensions = imageDimensions(saved.head, contentType);
    return { hash: saved.hash, size: saved.size, contentType, ...(dimensions ?? {}) };
  });
}

export interface FileDownload {
  contentType: string;
  /** The whole file's size (with a range, the body holds only `range`). */
  size: number;
  body: Readable;
  range?: ByteRange;
}

/** Where a download is logged when a row names bytes the store does not have (a store emptied or moved by hand). */
export interface DownloadLog {
  error(data: object, message: string): void;
}

/**
 * The bytes behind a download URL, or undefined when the hash names nothing stored or only files of deleted
 * spaces. With an HTTP Range (`bytes=…`, one range), only those bytes, or `unsatisfiable` when the range lies
 * beyond the file; a Range of several ranges or that does not parse is ignored, as RFC 9110 allows.
 */
export async function openFileDownload(ctx: AppContext, hash: string, options: { range?: string | undefined; log?: DownloadLog } = {}): Promise<FileDownload | { unsatisfiable: true; size: number } | undefined> {
  if (!isBlobHash(hash)) return undefined;
  const row = await findServedBlob(ctx.db, hash);
  if (!row) return undefined;
  let range: ByteRange | undefined;
  if (options.range !== undefined) {
    const parsed = parseRange(row.size, options.range, { combine: true });
    if (parsed === -1) return { unsatisfiable: true, size: row.size };
    if (Array.isArray(parsed) && parsed.type === 'bytes' && parsed.length === 1) range = { start: parsed[0]!.start, end: parsed[0]!.end };
  }
  const stored = await ctx.blobs.stream(hash, range);
  // A row is written after its bytes and bytes are never removed while a row names them: missing or cut bytes
  // mean the store was changed behind Quire's back (a bucket emptied, a restore without its files).
  if (!stored || stored.size !== row.size) {
    stored?.body.destroy();
    options.log?.error({ hash, size: row.size, storedSize: stored?.size ?? null, store: ctx.blobs.location }, stored ? 'file bytes in the store are not the recorded size' : 'file bytes missing from the store');
    return undefined;
  }
  return { contentType: row.content_type ?? 'application/octet-stream', size: stored.size, body: stored.body, ...(range ? { range } : {}) };
}

/**
 * The store's own URL for a download (S3_PRESIGNED_DOWNLOADS), after the same check as a streamed one: the hash
 * names bytes of a file that is served. Undefined when the server streams the bytes itself.
 */
export async function fileDownloadRedirect(ctx: AppContext, hash: string, served: (contentType: string) => { contentType: string; disposition: string }): Promise<string | undefined> {
  // Asked before the row is read: a store that streams its downloads costs the download no second query.
  if (!ctx.blobs.redirectsDownloads || !isBlobHash(hash)) return undefined;
  const row = await findServedBlob(ctx.db, hash);
  if (!row) return undefined;
  return ctx.blobs.downloadUrl(hash, served(row.content_type ?? 'application/octet-stream'));
}

/**
 * What `insert_files` records of a file uploaded before (uploadSpaceFile), by the upload's id: the SHA-256 of its
 * bytes. Undefined when no such bytes are served (never uploaded, or only in deleted spaces). Knowing the id takes
 * knowing the bytes, as for a download URL, so an upload may be inserted wherever its sender may insert files.
 */
export async function findUploadedFile(ctx: AppContext, hash: string): Promise<StoredFile | undefined> {
  if (!isBlobHash(hash)) return undefined;
  const row = await findServedBlob(ctx.db, hash);
  const stored = row && (await ctx.blobs.stream(hash));
  if (!row || !stored) return undefined;
  const contentType = row.content_type ?? 'application/octet-stream';
  if (!contentType.startsWith('image/')) {
    stored.body.destroy();
    return { hash, size: stored.size, contentType };
  }
  const dimensions = imageDimensions(await readHead(stored.body, MEASURED_BYTES), contentType);
  return { hash, size: stored.size, contentType, ...(dimensions ?? {}) };
}

/** What an image is measured from: its header, as for a file downloaded from a URL (safe-fetch's head). */
const MEASURED_BYTES = 64 * 1024;

async function readHead(body: Readable, bytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop early destroys the stream, which closes the file.
  for await (const chunk of body) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size >= bytes) break;
  }
  return Buffer.concat(chunks).subarray(0, bytes);
}

/** Whether the hash names stored bytes, without opening them (conditional requests). */
export async function isStoredBlob(ctx: AppContext, hash: string): Promise<boolean> {
  return isBlobHash(hash) && (await findServedBlob(ctx.db, hash)) !== undefined;
}

/**
 * The public URL of a file's bytes: `/files/<hash>/<name>`. Knowing the hash takes knowing the bytes, so the URL
 * is its own permission. The name is only what a browser saves the file as; it is shortened to stay well within
 * the router's limit on a path segment.
 */
export function fileDownloadUrl(config: Pick<Config, 'publicUrl'>, hash: string, name: string): string {
  return `${config.publicUrl}/files/${hash}/${urlName(name)}`;
}

function urlName(name: string): string {
  // encodeURIComponent throws on a lone surrogate, which a JSON string may carry.
  const wellFormed = name.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
  let chars = Array.from(wellFormed).filter((c) => c >= ' ' && c !== '\u007f');
  // "." and ".." would be resolved away by every URL parser.
  if (/^\.*$/.test(chars.join(''))) return 'file';
  let encoded = encodeURIComponent(chars.join(''));
  while (encoded.length > 300) {
    chars = chars.slice(0, Math.floor(chars.length * 0.9));
    encoded = encodeURIComponent(chars.join(''));
  }
  return encoded;
}

function nameFromUrl(url: string): string {
  const segments = new URL(url).pathname.split('/').filter(Boolean);
  const last = segments[segments.length - 1];
  if (!last) return 'file';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${bytes} bytes` : `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}
