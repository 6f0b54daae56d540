import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { createDatabase, migrateToLatest } from '../src/db/database.ts';
import type { Db } from '../src/db/types.ts';
import { newId } from '../src/platform/ids.ts';
import { firstStartAdmin, serveProcess, type ServeProcess } from '../src/features/collaboration/processes.test-support.ts';
import { startGitServer, type GitServer } from '../src/features/git-sync/git-server.test-support.ts';
import { freePort } from './helpers.ts';
import { startTestS3, type TestS3 } from './s3-server.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';
const pgUrl = process.env.TEST_DATABASE_URL;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await sleep(100);
  }
}

/*
 * Issue 44, as deployed: three `quire serve` processes with nothing shared but PostgreSQL, Redis and an S3
 * server (each its own DATA_DIR: no shared disk). Files, sessions and rate limits hold across them; a process
 * killed with SIGKILL in the middle of an upload, then another in the middle of a Git Sync import, leaves
 * nothing half-written, the others keep answering, and the dead one's job is taken over, never run twice at once.
 */
describe('a cluster of processes on PostgreSQL, Redis and S3', { skip: pgUrl ? false : 'several processes share a PostgreSQL database: tested with TEST_DATABASE_URL', timeout: 300_000 }, () => {
  const schema = `cluster_${newId(12).toLowerCase()}`;
  const dirs: string[] = [];
  const servers: ServeProcess[] = [];
  const bases: string[] = [];
  let s3: TestS3;
  let git: GitServer;
  let db: Db;
  let admin: Awaited<ReturnType<typeof firstStartAdmin>>;
  let token: string;

  before(async () => {
    s3 = await startTestS3(['cluster']);
    git = await startGitServer();
    db = createDatabase({ url: pgUrl!, schema });
    await migrateToLatest(db, schema);
    const url = new URL(pgUrl!);
    url.searchParams.set('options', `-c search_path=${schema}`);
    for (let i = 0; i < 3; i++) {
      const dataDir = mkdtempSync(join(tmpdir(), `quire-cluster-${i}-`));
      dirs.push(dataDir);
      const port = await freePort();
      servers.push(
        await serveProcess({
          ...s3.env('cluster'),
          DATA_DIR: dataDir,
          PORT: String(port),
          DATABASE_URL: url.href,
          REDIS_URL,
          ALLOW_PRIVATE_FETCH: 'true',
          WORKER_INTERVAL_MS: '500',
          JOB_LEASE_MS: '1500',
          GIT_SYNC_POLL_INTERVAL_MS: '0',
          RATE_LIMIT_MAX: '300',
          RATE_LIMIT_WINDOW_MS: '600000',
        }),
      );
      bases.push(`http://127.0.0.1:${port}`);
    }
    admin = await firstStartAdmin(bases[0]!, servers[0]!);
    token = /curl -H "Authorization: Bearer ([^"]+)"/.exec(servers[0]!.stderr())![1]!;
  });
  after(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
    await db.destroy();
    await s3?.stop();
    await git?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const call = async (base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = { authorization: `Bearer ${token}` }) => {
    const res = await fetch(`${base}/v1${path}`, { method, headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const upload = async (base: string, spaceId: string, name: string, bytes: Buffer) => {
    const res = await fetch(`${base}/v1/spaces/${spaceId}/files/uploads?name=${name}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' }, body: new Uint8Array(bytes) });
    assert.equal(res.status, 201, await res.clone().text());
    return (await res.json()) as { id: string; downloadURL: string };
  };
  const download = async (base: string, hash: string) => {
    const res = await fetch(`${base}/files/${hash}/file.bin`);
    return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
  };
  const alive = () => servers.map((server, i) => ({ server, base: bases[i]! })).filter(({ server }) => server.child.exitCode === null && server.child.signalCode === null);

  test('a file uploaded through one process is read through the others, from the bucket', async () => {
    const space = await admin.api('POST', `/orgs/${admin.orgId}/spaces`, { title: 'Shared files' });
    const bytes = randomBytes(3 * 1024 * 1024);
    const uploaded = await upload(bases[0]!, space.id, 'shared.bin', bytes);
    for (const base of bases.slice(1)) {
      const read = await download(base, uploaded.id);
      assert.equal(read.status, 200);
      assert.ok(read.bytes.equals(bytes));
    }
  });

  /** The session's cookies and its CSRF token (the quire_csrf cookie), as the web app sends them. */
  const sessionHeaders = () => {
    const csrf = /(?:^|; )quire_csrf=([^;]+)/.exec(admin.cookie)?.[1];
    assert.ok(csrf, `a CSRF cookie in ${admin.cookie}`);
    return { cookie: admin.cookie, 'x-csrf-token': decodeURIComponent(csrf) };
  };

  test('rate limits are counted across processes through Redis', async () => {
    // A token of its own, made by the session on another process: its window holds only these requests. 300 a
    // window for the three processes together; 120 sent to each.
    const created = await call(bases[1]!, 'POST', '/user/tokens', { label: 'rate limits' }, sessionHeaders());
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const statuses: number[] = [];
    await Promise.all(
      bases.map(async (base) => {
        for (let i = 0; i < 120; i++) statuses.push((await call(base, 'GET', `/orgs/${admin.orgId}`, undefined, { authorization: `Bearer ${created.body.token}` })).status);
      }),
    );
    assert.equal(statuses.filter((status) => status === 200).length, 300, `${statuses.filter((s) => s === 429).length} refused`);
    assert.equal(statuses.filter((status) => status === 429).length, 60);
  });

  test('a session signed in on one process is one on every process, and signing out through another ends it everywhere', async () => {
    for (const base of bases) assert.equal((await call(base, 'GET', '/user', undefined, { cookie: admin.cookie })).status, 200);
    assert.equal((await call(bases[2]!, 'POST', '/auth/sign-out', undefined, sessionHeaders())).status, 204);
    for (const base of bases) assert.equal((await call(base, 'GET', '/user', undefined, { cookie: admin.cookie })).status, 401);
  });

  test('a process killed in the middle of an upload leaves nothing half-written; the others answer, and the same bytes upload whole through another', async () => {
    const space = await admin.api('POST', `/orgs/${admin.orgId}/spaces`, { title: 'Cut upload' });
    const victim = servers[2]!;
    const bytes = randomBytes(24 * 1024 * 1024);
    const hash = sha256(bytes);
    // Sent in pieces, slowly: the process dies with a third of it received.
    const sent = new Promise<void>((resolve) => {
      const cut = request(`${bases[2]}/v1/spaces/${space.id}/files/uploads?name=cut.bin`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream', 'content-length': bytes.length } });
      cut.on('error', () => resolve());
      cut.on('close', () => resolve());
      let offset = 0;
      const more = () => {
        if (offset >= bytes.length / 3) {
          victim.child.kill('SIGKILL');
          return;
        }
        cut.write(bytes.subarray(offset, offset + 512 * 1024), () => setTimeout(more, 20));
        offset += 512 * 1024;
      };
      more();
    });
    await sent;
    await until('the process is gone', async () => victim.child.signalCode === 'SIGKILL');
    assert.equal(await db.selectFrom('blobs').select('hash').where('hash', '=', hash).executeTakeFirst(), undefined, 'no row');
    for (const { base } of alive()) assert.equal((await download(base, hash)).status, 404);
    assert.equal((await call(bases[1]!, 'GET', `/spaces/${space.id}/content/files`)).body.items.length, 0);
    const whole = await upload(bases[1]!, space.id, 'cut.bin', bytes);
    assert.equal(whole.id, hash);
    const read = await download(bases[0]!, hash);
    assert.equal(read.status, 200);
    assert.ok(read.bytes.equals(bytes), 'the bytes, whole');
  });

  test('a process killed in the middle of a Git Sync import: nothing half-imported, its job is taken over once its lease ran out, never run by two at once', async () => {
    git.createRepository('cluster-docs', {
      'README.md': '# Welcome\n\nImported by the cluster.\n',
      'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide.md)\n',
      'guide.md': '# Guide\n\nSteps.\n',
    });
    const space = await admin.api('POST', `/orgs/${admin.orgId}/spaces`, { title: 'Imported by a cluster' });
    const pagesBefore = (await call(bases[0]!, 'GET', `/spaces/${space.id}/content`)).body.pages.length;
    const revisionsBefore = await revisionsOf(space.id);
    git.delayFetches(6_000);
    const fetchesBefore = git.fetches();
    const started = await call(bases[0]!, 'POST', `/spaces/${space.id}/git/import`, { url: git.url('cluster-docs'), ref: 'refs/heads/main' });
    assert.ok(started.status < 300, JSON.stringify(started.body));
    // Which process took the job: its lease names it.
    const job = await until('a process takes the import job', async () => db.selectFrom('jobs').select(['id', 'locked_by']).where('type', '=', 'git-sync-import').where('locked_by', 'is not', null).executeTakeFirst());
    const owner = alive().find(({ server }) => job.locked_by!.endsWith(`:${server.child.pid}`));
    assert.ok(owner, `the job's process (${job.locked_by}) is one of the cluster's`);
    // Three leases long, the others look for due jobs (every 500 ms): the renewed lease keeps it to its process.
    await until('the clone has started', async () => git.fetches() > fetchesBefore);
    await sleep(4_500);
    assert.equal(git.fetches(), fetchesBefore + 1, 'one clone at a time');
    assert.equal((await db.selectFrom('jobs').select('locked_by').where('id', '=', job.id).executeTakeFirstOrThrow()).locked_by, job.locked_by);
    owner.server.child.kill('SIGKILL');
    await until('the process is gone', async () => owner.server.child.signalCode === 'SIGKILL');
    const survivor = alive()[0]!;
    assert.ok(survivor, 'a process is left');
    assert.equal((await call(survivor.base, 'GET', `/spaces/${space.id}/content`)).body.pages.length, pagesBefore, 'nothing half-imported');
    git.delayFetches(0);
    const info = await until('the survivor finishes the import', async () => {
      const state = await call(survivor.base, 'GET', `/spaces/${space.id}/git/info`);
      return state.body?.operation?.state === 'success' ? state.body : undefined;
    });
    assert.ok(info);
    const content = (await call(survivor.base, 'GET', `/spaces/${space.id}/content`)).body;
    assert.deepEqual(content.pages.map((page: { title: string }) => page.title), ['Welcome', 'Guide']);
    assert.equal(await revisionsOf(space.id), revisionsBefore + 1, 'imported once');
    const taken = await db.selectFrom('jobs').select('id').where('id', '=', job.id).executeTakeFirst();
    assert.equal(taken, undefined, 'the job is done and gone');
  });

  async function revisionsOf(spaceId: string): Promise<number> {
    const row = await db.selectFrom('revisions').select((eb) => eb.fn.countAll<number>().as('n')).where('space_id', '=', spaceId).executeTakeFirstOrThrow();
    return Number(row.n);
  }
});
