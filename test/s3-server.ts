import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface TestS3 {
  endpoint: string;
  /** The buckets asked for, created empty. */
  buckets: string[];
  /** The settings of a Quire that keeps its files in `bucket`. */
  env(bucket: string): Record<string, string>;
  child: ChildProcess;
  stop(): Promise<void>;
}

export const TEST_S3_KEY = 'S3RVER';

/**
 * Starts an S3-compatible server (s3rver, test/s3-server.mjs) in a process of its own, as production runs MinIO or
 * S3 beside Quire: a Quire process killed in a test leaves it serving. Its objects live in a temporary folder.
 */
export async function startTestS3(buckets: string[]): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 'quire-s3-'));
  const script = fileURLToPath(new URL('./s3-server.mjs', import.meta.url));
  const child = spawn(process.execPath, ['--openssl-legacy-provider', script, directory, buckets.join(',')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let errors = '';
  child.stderr!.on('data', (chunk) => (errors += chunk));
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const line = /^(\d+)\n/.exec(out);
      if (line) resolve(Number(line[1]));
    });
    child.once('exit', (code) => reject(new Error(`the test S3 server exited (${code}) before listening: ${errors}`)));
  });
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    buckets,
    child,
    env: (bucket) => ({
      FILE_STORAGE: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: TEST_S3_KEY,
      S3_SECRET_ACCESS_KEY: TEST_S3_KEY,
      S3_FORCE_PATH_STYLE: 'true',
    }),
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
