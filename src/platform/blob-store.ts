import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where file bytes live, addressed by the SHA-256 of their content: the same bytes are stored once however many
 * files, revisions or spaces use them. The database's `blobs` table records what the store holds (a row is
 * written after its bytes, so a row never names missing bytes); the store only keeps bytes: a folder under
 * DATA_DIR (LocalBlobStore) or an S3-compatible bucket (S3BlobStore, FILE_STORAGE=s3).
 */
export interface BlobStore {
  /** Where the bytes are, for people: a folder, or s3://bucket/prefix at an endpoint. */
  readonly location: string;
  /** Stores the bytes (once per distinct content) and returns their address. */
  put(bytes: Buffer): Promise<{ hash: string; size: number }>;
  get(hash: string): Promise<Buffer | undefined>;
  /**
   * The bytes as a stream, for serving large files without holding them in memory; with a range, only bytes
   * `start` to `end` (inclusive, within the blob). `size` is always the whole blob's.
   */
  stream(hash: string, range?: ByteRange): Promise<{ size: number; body: Readable } | undefined>;
  /** Whether the bytes are stored; with `size`, whole (an object of another size is not the blob). */
  has(hash: string, size?: number): Promise<boolean>;
  /** The stored bytes' size and when they were written, or undefined when they are not stored. */
  stat(hash: string): Promise<Omit<StoredBlob, 'hash'> | undefined>;
  /** A new path on the local disk where a large file may be written before it is stored with putFile. */
  incomingPath(): Promise<string>;
  /** Stores a file written at `path` whose bytes hash to `hash` (computed as it was written); the file is moved or removed. */
  putFile(path: string, hash: string): Promise<void>;
  /** Every blob stored, in no particular order, with when it was written (the collecting sweep's grace). */
  list(): AsyncIterable<StoredBlob>;
  /** Removes the bytes (the collecting sweep, for bytes no row names); removing what is not there is no error. */
  delete(hash: string): Promise<void>;
  /** Whether downloadUrl gives URLs (S3_PRESIGNED_DOWNLOADS): otherwise a download need not ask for one. */
  readonly redirectsDownloads: boolean;
  /**
   * A URL from which a browser downloads the bytes directly, signed for a short while, when the store serves
   * them itself (S3_PRESIGNED_DOWNLOADS); otherwise undefined, and the server streams them.
   */
  downloadUrl(hash: string, served: { contentType: string; disposition: string }): Promise<string | undefined>;
}

/** Bytes `start` to `end` of a blob, both included (an HTTP Range's bytes=start-end). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Bytes already stored are written again when stored again after this long, which makes them young again: the
 * collecting sweep removes only bytes older than BLOB_GRACE_MS (hours at least) that no row names, so bytes that
 * someone is storing right now (their row comes next) are never among them.
 */
export const REWRITE_AFTER_MS = 60 * 60_000;

/** Whether bytes found stored (of this size, written then) can stand for `size` bytes being stored now. */
export function standsFor(found: Omit<StoredBlob, 'hash'> | undefined, size: number): boolean {
  return found !== undefined && found.size === size && Date.now() - found.storedAt.getTime() < REWRITE_AFTER_MS;
}

export interface StoredBlob {
  hash: string;
  size: number;
  storedAt: Date;
}

/** Lowercase hex SHA-256, the address of `bytes` in every blob store. */
export function blobHash(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Anything else given as a hash (from a URL, say) must never become a path. */
export function isBlobHash(value: string): boolean {
  return /^[0-9a-f]{64}$/.test(value);
}

/** What writeIncoming wrote: the size, the SHA-256 (hex) and the first bytes (up to 64 KB, to sniff the type and measure an image). */
export interface IncomingFile {
  size: number;
  hash: string;
  head: Buffer;
}

const HEAD_BYTES = 64 * 1024;

/**
 * Writes bytes to `path` (an incomingPath) as they arrive, hashing them on the way, for putFile: a file of any
 * size passes through a chunk at a time, never whole in memory. Past `maxBytes` it throws `tooLarge()`. On any
 * failure the partial file is removed, so nothing half-written is ever stored. The source is left to its owner
 * (a request's unread body may still be drained so that its sender reads the answer).
 */
export async function writeIncoming(source: AsyncIterable<Uint8Array>, path: string, limit: { maxBytes: number; tooLarge(): Error }): Promise<IncomingFile> {
  const out = createWriteStream(path, { flags: 'wx' });
  const hash = createHash('sha256');
  const head: Buffer[] = [];
  let headSize = 0;
  let total = 0;
  try {
    for await (const chunk of source) {
      const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      total += bytes.length;
      if (total > limit.maxBytes) throw limit.tooLarge();
      hash.update(bytes);
      if (headSize < HEAD_BYTES) {
        head.push(bytes.subarray(0, HEAD_BYTES - headSize));
        headSize += Math.min(bytes.length, HEAD_BYTES - headSize);
      }
      if (!out.write(bytes)) await once(out, 'drain');
    }
    await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  } catch (error) {
    out.destroy();
    await rm(path, { force: true });
    throw error;
  }
  return { size: total, hash: hash.digest('hex'), head: Buffer.concat(head) };
}

/**
 * Blobs as files under `root` (`<DATA_DIR>/blobs`), at `ab/cd/<hash>`: two levels of 256 folders keep each
 * folder small with millions of files.
 */
export class LocalBlobStore implements BlobStore {
  constructor(readonly root: string) {}

  readonly redirectsDownloads = false;

  get location(): string {
    return this.root;
  }

  /** Where the bytes of `hash` are (or would be) on disk. */
  pathOf(hash: string): string {
    return join(this.root, hash.slice(0, 2), hash.slice(2, 4), hash);
  }

  async put(bytes: Buffer): Promise<{ hash: string; size: number }> {
    const hash = blobHash(bytes);
    const path = this.pathOf(hash);
    if (standsFor(await this.stat(hash), bytes.length)) return { hash, size: bytes.length };
    const folder = dirname(path);
    await mkdir(folder, { recursive: true });
    // Written beside its final name, flushed, then renamed: a rename is atomic, so a crash leaves either no blob
    // or the whole blob, never a partial one under a valid address. Two writers of the same content both
    // rename the same bytes into place, which is harmless.
    const temporary = join(folder, `.${hash}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      const handle = await open(temporary, 'wx');
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return { hash, size: bytes.length };
  }

  async incomingPath(): Promise<string> {
    const folder = join(this.root, '.incoming');
    await mkdir(folder, { recursive: true });
    return join(folder, `${randomBytes(12).toString('hex')}.tmp`);
  }

  async putFile(path: string, hash: string): Promise<void> {
    if (!isBlobHash(hash)) throw new Error(`not a blob hash: ${hash}`);
    try {
      if (standsFor(await this.stat(hash), (await stat(path)).size)) return;
      const handle = await open(path, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      const final = this.pathOf(hash);
      await mkdir(dirname(final), { recursive: true });
      await rename(path, final);
    } finally {
      await rm(path, { force: true });
    }
  }

  async get(hash: string): Promise<Buffer | undefined> {
    if (!isBlobHash(hash)) return undefined;
    try {
      return await readFile(this.pathOf(hash));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async stream(hash: string, range?: ByteRange): Promise<{ size: number; body: Readable } | undefined> {
    if (!isBlobHash(hash)) return undefined;
    const path = this.pathOf(hash);
    try {
      const { size } = await stat(path);
      return { size, body: createReadStream(path, range && { start: range.start, end: range.end }) };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async has(hash: string, size?: number): Promise<boolean> {
    const found = await this.stat(hash);
    return found !== undefined && (size === undefined || found.size === size);
  }

  async stat(hash: string): Promise<Omit<StoredBlob, 'hash'> | undefined> {
    if (!isBlobHash(hash)) return undefined;
    try {
      const found = await stat(this.pathOf(hash));
      return found.isFile() ? { size: found.size, storedAt: found.mtime } : undefined;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async *list(): AsyncIterable<StoredBlob> {
    // ab/cd/<hash>, read a folder at a time; temporary files (.<hash>.….tmp) and .incoming are not blobs.
    for (const first of await readdirOrNone(this.root)) {
      if (!/^[0-9a-f]{2}$/.test(first)) continue;
      for (const second of await readdirOrNone(join(this.root, first))) {
        for (const name of await readdirOrNone(join(this.root, first, second))) {
          if (!isBlobHash(name)) continue;
          const found = await stat(join(this.root, first, second, name)).catch(() => undefined);
          if (found?.isFile()) yield { hash: name, size: found.size, storedAt: found.mtime };
        }
      }
    }
  }

  async delete(hash: string): Promise<void> {
    if (isBlobHash(hash)) await rm(this.pathOf(hash), { force: true });
  }

  async downloadUrl(): Promise<string | undefined> {
    return undefined;
  }
}

async function readdirOrNone(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
