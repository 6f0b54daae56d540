import { join } from 'node:path';
import type { Config } from '../config.ts';
import { LocalBlobStore, type BlobStore } from './blob-store.ts';

/** The server's blob store, as FILE_STORAGE chooses: a folder under DATA_DIR, or an S3-compatible bucket. */
export async function createBlobStore(config: Pick<Config, 'dataDir' | 'fileStorage' | 's3'>): Promise<BlobStore> {
  if (config.fileStorage === 's3' && config.s3) {
    // Loaded only when chosen: the AWS SDK is a few megabytes of modules that a local store never needs.
    const { S3BlobStore } = await import('./s3-blob-store.ts');
    const store = new S3BlobStore(config.s3, join(config.dataDir, 'incoming'));
    await store.verify();
    return store;
  }
  return new LocalBlobStore(join(config.dataDir, 'blobs'));
}
