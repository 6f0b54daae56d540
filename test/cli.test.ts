import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createDatabase } from '../src/db/database.ts';
import type { Db } from '../src/db/types.ts';
import { assertError } from './assertions.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'quire.js');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment of a command: this process's, without any database or token settings of its own. */
function childEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...extra };
  for (const name of ['DATABASE_URL', 'TEST_DATABASE_URL', 'QUIRE_ADMIN_TOKEN', 'QUIRE_ADMIN_EMAIL', 'PORT', 'PUBLIC_URL']) {
    if (!(name in extra)) delete env[name];
  }
  return env;
}

function quire(dataDir: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: ROOT, env: childEnv(dataDir), timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

async function succeeds(dataDir: string, args: string[]): Promise<string> {
  const run = await quire(dataDir, args);
  assert.equal(run.code, 0, `quire ${args.join(' ')} failed: ${run.stderr}`);
  return run.stdout;
}

/**
 * Calls the API of an app built in this process on the same data folder as the commands (built once per folder:
 * SQLite in WAL mode lets it read what the commands wrote since).
 */
const apps = new Map<string, Promise<{ app: App; db: Db }>>();
async function callApi(dataDir: string, path: string, token: string) {
  let built = apps.get(dataDir);
  if (!built) {
    built = (async () => {
      const config = { ...loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: 'http://quire.test' }), logLevel: 'silent', workerIntervalMs: 0 };
      const db = createDatabase({ dataDir });
      return { app: await buildApp({ config, db }), db };
    })();
    apps.set(dataDir, built);
  }
  const { app } = await built;
  const res = await app.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${token}` } });
  return { status: res.statusCode, body: JSON.parse(res.body), headers: res.headers };
}

async function closeApps() {
  for (const built of apps.values()) {
    const { app, db } = await built;
    await app.close();
    await db.destroy();
  }
  apps.clear();
}

function tokenFrom(stdout: string): string {
  const token = stdout.trim().split('\n').at(-1)?.trim();
  assert.ok(token && /^quire_[A-Za-z0-9_-]{20,}$/.test(token), `no token in: ${stdout}`);
  return token;
}

function orgIdFrom(stdout: string): string {
  const match = /\(id ([A-Za-z0-9]+)\)/.exec(stdout);
  assert.ok(match, `no organization id in: ${stdout}`);
  return match[1]!;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Starts `quire serve`, waits until it printed `until`, and returns what it printed and a way to stop it. */
async function serve(dataDir: string, env: Record<string, string>, until: RegExp) {
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, 'serve'], { cwd: ROOT, env: childEnv(dataDir, { ...env, PORT: String(port), HOST: '127.0.0.1' }) });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return exited;
  };
  const deadline = Date.now() + 60_000;
  while (!until.test(stdout)) {
    if (child.exitCode !== null) throw new Error(`quire serve exited with ${child.exitCode}: ${stderr}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`quire serve printed no ${until} within 60 s; stdout: ${stdout}; stderr: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { port, stdout: () => stdout, stop };
}

/**
 * The request of the printed `curl -H "Authorization: Bearer T" URL` line. The server listens on 127.0.0.1 only
 * (nothing of a test is reachable from elsewhere), while the default PUBLIC_URL says localhost, which may
 * resolve to ::1 first: `target` is the same URL on 127.0.0.1.
 */
function curlLine(stdout: string): { token: string; url: string; target: string } {
  const match = /curl -H "Authorization: Bearer ([^"]+)" (\S+)/.exec(stdout);
  assert.ok(match, `no curl line in: ${stdout}`);
  const url = match[2]!;
  return { token: match[1]!, url, target: url.replace('//localhost:', '//127.0.0.1:') };
}

describe('command line', { skip: process.env.TEST_DATABASE_URL ? 'the command line is tested on SQLite only (TEST_DATABASE_URL is set)' : false }, () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'quire-cli-'));
  });
  after(async () => {
    await closeApps();
    rmSync(dir, { recursive: true, force: true });
  });

  test('help lists every command and exits 0', async () => {
    for (const run of await Promise.all([quire(dir, ['help']), quire(dir, ['--help'])])) {
      assert.equal(run.code, 0);
      for (const command of ['serve', 'migrate', 'org create', 'user add', 'token issue', 'token list', 'token revoke']) {
        assert.ok(run.stdout.includes(command), `help mentions ${command}`);
      }
    }
  });

  test('an unknown command fails with a non-zero exit and shows the help', async () => {
    const run = await quire(dir, ['frobnicate']);
    assert.notEqual(run.code, 0);
    assert.match(run.stderr, /Unknown command "frobnicate"/);
    assert.match(run.stderr, /Usage:/);
  });

  test('org create makes a new organization whose admin, created if new, can use an issued token', async () => {
    const out = await succeeds(dir, ['org', 'create', '--title', 'Docs Team', '--admin', 'Ann@Example.com']);
    assert.match(out, /Created organization "Docs Team"/);
    assert.match(out, /ann@example\.com \(new user\)/);
    const orgId = orgIdFrom(out);

    const token = tokenFrom(await succeeds(dir, ['token', 'issue', '--email', 'ann@example.com']));
    const res = await callApi(dir, `/v1/orgs/${orgId}`, token);
    assert.equal(res.status, 200);
    assert.equal(res.body.title, 'Docs Team');
    assert.equal(res.body.permissions.admin, true);

    // A second organization for the same, now existing, user.
    const second = await succeeds(dir, ['org', 'create', '--title', 'Second Team', '--admin', 'ann@example.com']);
    assert.doesNotMatch(second, /new user/);
    const list = await callApi(dir, '/v1/orgs', token);
    assert.equal(list.body.count, 2);
  });

  test('org create needs a title and an admin e-mail', async () => {
    const [noTitle, badEmail] = await Promise.all([
      quire(dir, ['org', 'create', '--admin', 'someone@example.com']),
      quire(dir, ['org', 'create', '--title', 'Nope', '--admin', 'not-an-email']),
    ]);
    assert.notEqual(noTitle.code, 0);
    assert.match(noTitle.stderr, /--title is required/);
    assert.notEqual(badEmail.code, 0);
    assert.match(badEmail.stderr, /not an e-mail address/);
  });

  test('user add adds a new user, and changes the role of an existing member', async () => {
    const orgId = orgIdFrom(await succeeds(dir, ['org', 'create', '--title', 'Members Org', '--admin', 'boss@example.com']));
    const added = await succeeds(dir, ['user', 'add', '--org', orgId, '--email', 'Bob@Example.com', '--name', 'Bob', '--role', 'edit']);
    assert.match(added, new RegExp(`^Added bob@example\\.com \\(user [A-Za-z0-9]+\\) in organization ${orgId} as edit`));
    const token = tokenFrom(await succeeds(dir, ['token', 'issue', '--email', 'bob@example.com', '--label', 'laptop']));

    const asEditor = await callApi(dir, `/v1/orgs/${orgId}`, token);
    assert.equal(asEditor.status, 200);
    assert.equal(asEditor.body.permissions.listMembers, true);
    assert.equal(asEditor.body.permissions.admin, false);
    assert.equal((await callApi(dir, '/v1/user', token)).body.displayName, 'Bob');

    const promoted = await succeeds(dir, ['user', 'add', '--org', orgId, '--email', 'bob@example.com', '--role', 'admin']);
    assert.match(promoted, /^Updated bob@example\.com .* as admin/);
    assert.equal((await callApi(dir, `/v1/orgs/${orgId}`, token)).body.permissions.admin, true);

    const demoted = await succeeds(dir, ['user', 'add', '--org', orgId, '--email', 'bob@example.com', '--role', 'guest']);
    assert.match(demoted, /^Updated bob@example\.com .* as guest/);
    const asGuest = await callApi(dir, `/v1/orgs/${orgId}`, token);
    assert.equal(asGuest.status, 200);
    assert.equal(asGuest.body.permissions.admin, false);
    assert.equal(asGuest.body.permissions.listMembers, false);
  });

  test('user add gives the read role by default', async () => {
    const orgId = orgIdFrom(await succeeds(dir, ['org', 'create', '--title', 'Default Role Org', '--admin', 'boss2@example.com']));
    assert.match(await succeeds(dir, ['user', 'add', '--org', orgId, '--email', 'reader@example.com']), /as read$/m);
  });

  test('user add refuses a bad role, an unknown organization and a missing e-mail, with a non-zero exit', async () => {
    const orgId = orgIdFrom(await succeeds(dir, ['org', 'create', '--title', 'Strict Org', '--admin', 'boss3@example.com']));
    const [badRole, unknownOrg, noEmail] = await Promise.all([
      quire(dir, ['user', 'add', '--org', orgId, '--email', 'carol@example.com', '--role', 'owner']),
      quire(dir, ['user', 'add', '--org', 'noSuchOrg', '--email', 'carol@example.com']),
      quire(dir, ['user', 'add', '--org', orgId]),
    ]);
    assert.notEqual(badRole.code, 0);
    assert.match(badRole.stderr, /--role must be/);
    assert.notEqual(unknownOrg.code, 0);
    assert.match(unknownOrg.stderr, /No organization noSuchOrg/);
    assert.notEqual(noEmail.code, 0);
    assert.match(noEmail.stderr, /--email is required/);
    // Nothing was created by the refused commands.
    const issue = await quire(dir, ['token', 'issue', '--email', 'carol@example.com']);
    assert.notEqual(issue.code, 0);
    assert.match(issue.stderr, /No user with e-mail carol@example\.com/);
  });

  test('token list shows the tokens of a user, and token revoke ends them, by id or by value', async () => {
    await succeeds(dir, ['org', 'create', '--title', 'Token Org', '--admin', 'dave@example.com']);
    const first = tokenFrom(await succeeds(dir, ['token', 'issue', '--email', 'dave@example.com', '--label', 'first']));
    const secondOut = await succeeds(dir, ['token', 'issue', '--email', 'dave@example.com', '--label', 'second']);
    const second = tokenFrom(secondOut);
    const secondId = /^Token ([A-Za-z0-9]+) for/.exec(secondOut)?.[1];
    assert.ok(secondId);

    const listed = await succeeds(dir, ['token', 'list', '--email', 'dave@example.com']);
    const lines = listed.trim().split('\n');
    assert.equal(lines.length, 2);
    assert.match(lines[0]!, /\bfirst\b.*last used never/);
    assert.match(lines[1]!, new RegExp(`^${secondId}\\s+second\\b`));
    assert.ok(!listed.includes(first) && !listed.includes(second), 'token values are never listed');

    assert.equal((await callApi(dir, '/v1/user', second)).status, 200);
    assert.match(await succeeds(dir, ['token', 'revoke', '--id', secondId]), /Token revoked/);
    const refused = await callApi(dir, '/v1/user', second);
    assertError(refused, 401);
    assert.match((await succeeds(dir, ['token', 'list', '--email', 'dave@example.com'])).trim().split('\n')[1]!, /revoked/);

    assert.equal((await callApi(dir, '/v1/user', first)).status, 200);
    assert.match(await succeeds(dir, ['token', 'revoke', '--token', first]), /Token revoked/);
    assert.equal((await callApi(dir, '/v1/user', first)).status, 401);

    const again = await quire(dir, ['token', 'revoke', '--id', secondId]);
    assert.notEqual(again.code, 0);
    assert.match(again.stderr, /No active token matches/);
    const neither = await quire(dir, ['token', 'revoke']);
    assert.notEqual(neither.code, 0);
    assert.match(neither.stderr, /--id or --token is required/);
  });

  test('the first start creates an organization and prints its id and a working curl line', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'quire-serve-'));
    try {
      const server = await serve(fresh, {}, /curl .*\n/);
      try {
        const out = server.stdout();
        assert.match(out, /Quire is serving http:\/\/localhost:\d+\/v1/);
        const orgId = orgIdFrom(out);
        const { token, url, target } = curlLine(out);
        assert.equal(url, `http://localhost:${server.port}/v1/orgs/${orgId}`);
        assert.match(out, new RegExp(`API token \\(shown only now, keep it\\): ${token}`));
        const res = await fetch(target, { headers: { authorization: `Bearer ${token}` } });
        assert.equal(res.status, 200);
        const body = (await res.json()) as { id: string; permissions: { admin: boolean } };
        assert.equal(body.id, orgId);
        assert.equal(body.permissions.admin, true);
      } finally {
        assert.equal(await server.stop(), 0);
      }

      // A later start finds the data and creates nothing.
      const again = await serve(fresh, {}, /Quire is serving/);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.doesNotMatch(again.stdout(), /First start/);
      await again.stop();
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  test('on the first start, QUIRE_ADMIN_TOKEN becomes the admin token and is not printed', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'quire-serve-'));
    const adminToken = 'operator-chosen-token-0123456789';
    try {
      const server = await serve(fresh, { QUIRE_ADMIN_TOKEN: adminToken, QUIRE_ADMIN_EMAIL: 'ops@example.com' }, /curl .*\n/);
      try {
        const out = server.stdout();
        assert.ok(!out.includes(adminToken), 'the chosen token is not printed');
        assert.match(out, /value of QUIRE_ADMIN_TOKEN/);
        assert.match(out, /ops@example\.com/);
        const { token, target } = curlLine(out);
        assert.equal(token, '$QUIRE_ADMIN_TOKEN');
        const res = await fetch(target, { headers: { authorization: `Bearer ${adminToken}` } });
        assert.equal(res.status, 200);
        assert.equal(((await res.json()) as { id: string }).id, orgIdFrom(out));
        const wrong = await fetch(target, { headers: { authorization: 'Bearer $QUIRE_ADMIN_TOKEN' } });
        assert.equal(wrong.status, 401);
      } finally {
        assert.equal(await server.stop(), 0);
      }
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });
});
