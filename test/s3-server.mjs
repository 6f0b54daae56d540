// An S3-compatible server for the tests, in a process of its own (run by test/s3-server.ts): s3rver, from npm.
// Node runs it with --openssl-legacy-provider: s3rver encrypts its listings' continuation tokens with DES,
// which OpenSSL 3 only has there. It prints its port on stdout once it listens.
import S3rver from '@20minutes/s3rver';

const [directory, buckets] = process.argv.slice(2);
const server = new S3rver({
  port: Number(process.env.S3_TEST_PORT ?? 0),
  address: '127.0.0.1',
  silent: true,
  directory,
  // s3rver's SigV4 canonical request differs from the current AWS SDK's for some operations (CreateBucket,
  // HeadBucket): it checks that a signature is well-formed and signed with its key, not the digest itself.
  allowMismatchedSignatures: true,
  configureBuckets: (buckets ?? '').split(',').filter(Boolean).map((name) => ({ name })),
});
const { port } = await server.run();
process.stdout.write(`${port}\n`);
const stop = () => void server.close().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
