import { join } from 'node:path';
import type { Config } from '../../config.ts';
import { LocalBlobStore } from '../../platform/blob-store.ts';
import { badRequest } from '../../platform/errors.ts';
import { S3BlobStore } from '../../platform/s3-blob-store.ts';

export interface MigrationProgress {
  /** Called as the copy goes, at most every `everyMs`, and once at the end. */
  report(line: string): void;
  everyMs?: number;
}

/**
 * `quire files migrate --to s3`: copies every file of DATA_DIR/blobs to the S3 bucket of the S3_ settings. The
 * local files stay (the server may keep serving them meanwhile); a file already in the bucket whole is skipped,
 * so the command can be run again after an interruption, and again just before switching FILE_STORAGE to s3 to
 * copy what was uploaded in between. A file the bucket refuses (its bytes no longer match its name, say) is
 * named at the end and the command fails; the others are still copied.
 */
export async function migrateFilesToS3(config: Config, progress: MigrationProgress): Promise<{ copied: number; present: number; failed: string[] }> {
  if (!config.s3) throw badRequest('quire files migrate: S3_BUCKET is not set: set S3_BUCKET (and S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE as your storage needs) to the bucket to copy the files to');
  const local = new LocalBlobStore(join(config.dataDir, 'blobs'));
  const s3 = new S3BlobStore(config.s3, join(config.dataDir, 'incoming'));
  await s3.verify();
  // Counted first, so that progress says how far along the copy is.
  let total = 0;
  let totalBytes = 0;
  for await (const blob of local.list()) {
    total += 1;
    totalBytes += blob.size;
  }
  progress.report(`Copying ${total} files (${megabytes(totalBytes)}) from ${local.location} to ${s3.location}`);
  const result = { copied: 0, present: 0, failed: [] as string[] };
  let done = 0;
  let doneBytes = 0;
  let reported = Date.now();
  for await (const blob of local.list()) {
    try {
      if (await s3.copyFile(local.pathOf(blob.hash), blob.hash)) result.copied += 1;
      else result.present += 1;
    } catch (error) {
      result.failed.push(`${blob.hash}: ${error instanceof Error ? error.message : String(error)}`);
    }
    done += 1;
    doneBytes += blob.size;
    if (Date.now() - reported >= (progress.everyMs ?? 5_000)) {
      reported = Date.now();
      progress.report(`${done} of ${total} files (${megabytes(doneBytes)} of ${megabytes(totalBytes)})`);
    }
  }
  progress.report(`${done} of ${total} files: ${result.copied} copied, ${result.present} already in the bucket${result.failed.length ? `, ${result.failed.length} failed` : ''}`);
  s3.client.destroy();
  return result;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
