import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Config } from '../config.ts';

/**
 * Where file bytes live, addressed by the SHA-256 of their content: the same bytes are stored once however many
 * files, revisions or spaces use them. The database's `blobs` table records what the store holds; the store only
 * keeps bytes, so an S3-compatible store can implement the same interface.
 */
export interface BlobStore {
  /** Stores the bytes (once per distinct content) and returns their address. */
  put(bytes: Buffer): Promise<{ hash: string; size: number }>;
  get(hash: string): Promise<Buffer | undefined>;
  /** The bytes as a stream, for serving large files without holding them in memory. */
  stream(hash: string): Promise<{ size: number; body: Readable } | undefined>;
  has(hash: string): Promise<boolean>;
  /** A new path where a large file may be written before it is stored with putFile (same file system). */
  incomingPath(): Promise<string>;
  /** Stores a file written at `path` whose bytes hash to `hash` (computed as it was written); the file is moved or removed. */
  putFile(path: string, hash: string): Promise<void>;
}

/** The server's blob store: a folder under DATA_DIR (the place to choose an S3-compatible store once there is one). */
export function createBlobStore(config: Pick<Config, 'dataDir'>): BlobStore {
  return new LocalBlobStore(join(config.dataDir, 'blobs'));
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

  private pathOf(hash: string): string {
    return join(this.root, hash.slice(0, 2), hash.slice(2, 4), hash);
  }

  async put(bytes: Buffer): Promise<{ hash: string; size: number }> {
    const hash = blobHash(bytes);
    const path = this.pathOf(hash);
    if (await this.has(hash)) return { hash, size: bytes.length };
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
      if (await this.has(hash)) return;
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

  async stream(hash: string): Promise<{ size: number; body: Readable } | undefined> {
    if (!isBlobHash(hash)) return undefined;
    const path = this.pathOf(hash);
    try {
      const { size } = await stat(path);
      return { size, body: createReadStream(path) };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async has(hash: string): Promise<boolean> {
    if (!isBlobHash(hash)) return false;
    try {
      return (await stat(this.pathOf(hash))).isFile();
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
