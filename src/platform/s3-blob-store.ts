import { createReadStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Settings } from '../config.ts';
import { blobHash, isBlobHash, standsFor, type BlobStore, type ByteRange, type StoredBlob } from './blob-store.ts';

/** How long a presigned download URL works: long enough to start a large download, short enough not to be a share link. */
const PRESIGNED_SECONDS = 5 * 60;

/**
 * Blobs as objects of an S3-compatible bucket (AWS S3, MinIO, Ceph, R2, GCS's S3 API), at `<prefix>ab/cd/<hash>`
 * as on disk, so that processes on several machines share them with no shared file system.
 *
 * Every PUT carries the SHA-256 the object must have (x-amz-checksum-sha256, which is the blob's address in
 * base64): the store refuses bytes that do not match it, and the SDK needs no `aws-chunked` body with a trailing
 * checksum, which not every S3-compatible server reads. A PUT is atomic on S3: a process killed mid-upload leaves
 * no object, and the row naming it is written only after the PUT succeeded. Servers that do keep a cut PUT's
 * bytes are guarded by the size check before a PUT is skipped (an object of another size is written again).
 */
export class S3BlobStore implements BlobStore {
  readonly client: S3Client;
  readonly redirectsDownloads: boolean;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(
    private readonly settings: S3Settings,
    private readonly incoming: string,
    /** Objects per listing request (S3's own maximum, 1,000, unless a test wants several pages). */
    private readonly listPageSize = 1000,
  ) {
    this.bucket = settings.bucket;
    this.prefix = settings.prefix;
    this.redirectsDownloads = settings.presignedDownloads;
    this.client = new S3Client({
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(settings.accessKeyId && settings.secretAccessKey ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } } : {}),
      // The checksum is ours (the content's SHA-256), sent as a header: no checksum computed again as a trailer.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  get location(): string {
    return `s3://${this.bucket}/${this.prefix}${this.settings.endpoint ? ` at ${this.settings.endpoint}` : ''}`;
  }

  /**
   * Whether the bucket answers with these settings: checked when a process starts, so that a wrong bucket,
   * endpoint or key is one clear line then rather than a missing file later (S3 answers 404 alike for a missing
   * object and a missing bucket).
   */
  async verify(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      const status = error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
      const why =
        status === 404 ? 'there is no such bucket'
        : status === 403 || status === 401 ? 'access is denied (check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY)'
        : `it failed: ${error instanceof Error ? error.message : String(error)}`;
      throw new Error(`FILE_STORAGE=s3: S3_BUCKET "${this.bucket}" at ${this.settings.endpoint ?? `AWS S3 (${this.settings.region})`} cannot be used: ${why}`);
    }
  }

  private keyOf(hash: string): string {
    return `${this.prefix}${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`;
  }

  async put(bytes: Buffer): Promise<{ hash: string; size: number }> {
    const hash = blobHash(bytes);
    if (!standsFor(await this.stat(hash), bytes.length)) await this.send(hash, bytes, bytes.length);
    return { hash, size: bytes.length };
  }

  async incomingPath(): Promise<string> {
    await mkdir(this.incoming, { recursive: true });
    return join(this.incoming, `${randomBytes(12).toString('hex')}.tmp`);
  }

  async putFile(path: string, hash: string): Promise<void> {
    if (!isBlobHash(hash)) throw new Error(`not a blob hash: ${hash}`);
    try {
      const { size } = await stat(path);
      if (!standsFor(await this.stat(hash), size)) await this.send(hash, createReadStream(path), size);
    } finally {
      await rm(path, { force: true });
    }
  }

  /**
   * Stores the file at `path` (whose bytes hash to `hash`) and leaves it there: `quire files migrate` copies
   * DATA_DIR/blobs this way, and a copy cut short is resumed: what is already there whole is not sent again.
   * Returns whether bytes were sent.
   */
  async copyFile(path: string, hash: string): Promise<boolean> {
    if (!isBlobHash(hash)) throw new Error(`not a blob hash: ${hash}`);
    const { size } = await stat(path);
    if (await this.has(hash, size)) return false;
    // Streamed from the disk a chunk at a time: a file of FILE_SIZE_LIMIT is never held in memory.
    await this.send(hash, createReadStream(path), size);
    return true;
  }

  private async send(hash: string, body: Buffer | Readable, size: number): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.keyOf(hash),
        Body: body,
        ContentLength: size,
        ChecksumSHA256: Buffer.from(hash, 'hex').toString('base64'),
        ContentType: 'application/octet-stream',
      }),
    );
  }

  async get(hash: string): Promise<Buffer | undefined> {
    const found = await this.stream(hash);
    if (!found) return undefined;
    const chunks: Buffer[] = [];
    for await (const chunk of found.body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async stream(hash: string, range?: ByteRange): Promise<{ size: number; body: Readable } | undefined> {
    if (!isBlobHash(hash)) return undefined;
    try {
      const object = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.keyOf(hash), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
      );
      const size = range ? totalOf(object.ContentRange) : object.ContentLength;
      if (size === undefined || !(object.Body instanceof Readable)) throw new Error(`S3 answered GET ${this.keyOf(hash)} without a body or its size`);
      return { size, body: object.Body };
    } catch (error) {
      if (isNotFound(error)) return undefined;
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
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.keyOf(hash) }));
      return { size: head.ContentLength ?? 0, storedAt: head.LastModified ?? new Date(0) };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async *list(): AsyncIterable<StoredBlob> {
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix, ContinuationToken: token, MaxKeys: this.listPageSize }));
      for (const object of page.Contents ?? []) {
        const hash = object.Key?.slice(object.Key.lastIndexOf('/') + 1) ?? '';
        // Only what this store writes: <prefix>ab/cd/<hash>; anything else in the bucket is someone else's.
        if (isBlobHash(hash) && object.Key === this.keyOf(hash)) yield { hash, size: object.Size ?? 0, storedAt: object.LastModified ?? new Date(0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async delete(hash: string): Promise<void> {
    if (!isBlobHash(hash)) return;
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.keyOf(hash) }));
  }

  async downloadUrl(hash: string, served: { contentType: string; disposition: string }): Promise<string | undefined> {
    if (!this.redirectsDownloads || !isBlobHash(hash)) return undefined;
    // The bucket answers with the type and disposition the server would have sent (response-* parameters).
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: this.keyOf(hash),
      ResponseContentType: served.contentType,
      ResponseContentDisposition: served.disposition,
      ResponseCacheControl: 'private, max-age=300',
    });
    return getSignedUrl(this.client, command, { expiresIn: PRESIGNED_SECONDS });
  }
}

/** The whole size from a Content-Range of `bytes 0-9/1234`. */
function totalOf(contentRange: string | undefined): number | undefined {
  const total = /\/(\d+)$/.exec(contentRange ?? '')?.[1];
  return total === undefined ? undefined : Number(total);
}

function isNotFound(error: unknown): boolean {
  if (error instanceof S3ServiceException) return error.$metadata.httpStatusCode === 404 || error.name === 'NoSuchKey' || error.name === 'NotFound';
  return false;
}
