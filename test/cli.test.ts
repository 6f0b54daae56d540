import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createDatabase } from '../src/db/database.ts';
import { SQLite } from '../src/db/sqlite-library.ts';
import type { Db } from '../src/db/types.ts';
import { assertError } from './assertions.ts';
import { freePort } from './helpers.ts';
import { noisyPng } from './fixtures/png.ts';
import { startTestS3 } from './s3-server.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'quire.js');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment of a command: this process's, without any database or token settings of its own. */
function childEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  // No load shedding: starting through tsx on a loaded machine lags the event loop for a moment.
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', MAX_EVENT_LOOP_DELAY_MS: '0', ...extra };
  for (const name of ['DATABASE_URL', 'TEST_DATABASE_URL', 'QUIRE_ADMIN_TOKEN', 'QUIRE_ADMIN_EMAIL', 'PORT', 'PUBLIC_URL']) {
    if (!(name in extra)) delete env[name];
  }
  return env;
}

function quire(dataDir: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: ROOT, env: childEnv(dataDir, env), timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

async function succeeds(dataDir: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const run = await quire(dataDir, args, env);
  assert.equal(run.code, 0, `quire ${args.join(' ')} failed: ${run.stderr}`);
  return run.stdout;
}

/**
 * Calls the API of an app built in this process on the same data folder as the commands (built once per folder:
 * SQLite in WAL mode lets it read what the commands wrote since).
 */
const apps = new Map<string, Promise<{ app: App; db: Db }>>();
async function callApi(dataDir: string, path: string, token: string, request: { method?: 'GET' | 'POST'; body?: object } = {}) {
  let built = apps.get(dataDir);
  if (!built) {
    built = (async () => {
      // The CLI writes from other processes, which this app's read caches would see only after CACHE_TTL_MS
      // (docs/architecture.md, "Read caches"); these tests check the CLI, so the app reads through. Nor is it rate
      // limited: the backup test's writer, as fast as the machine allows, passed 600 writes a minute on a quiet one.
      const config = { ...loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: 'http://quire.test', MAX_EVENT_LOOP_DELAY_MS: '0', CACHE_TTL_MS: '0', RATE_LIMIT_MAX: '0', RATE_LIMIT_EXPENSIVE_MAX: '0' }), logLevel: 'silent', workerIntervalMs: 0 };
      const db = createDatabase({ dataDir });
      return { app: await buildApp({ config, db }), db };
    })();
    apps.set(dataDir, built);
  }
  const { app } = await built;
  const res = await app.inject({ method: request.method ?? 'GET', url: path, headers: { authorization: `Bearer ${token}` }, ...(request.body ? { payload: request.body } : {}) });
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

/** Asserts that a command refused its input: exit code 2, and its reason in one line (after the database's, once it opened it). */
function assertRefused(run: Run, reason: RegExp): void {
  assert.equal(run.code, 2, `exit code 2 expected: ${run.stderr}`);
  const lines = run.stderr.trim().split('\n').filter((line) => !line.startsWith('Database: '));
  assert.equal(lines.length, 1, `one line: ${run.stderr}`);
  assert.match(lines[0]!, reason);
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

/**
 * Starts `quire serve`, waits until its banner (on stderr) matched `until`, and returns what it printed and a
 * way to stop it (SIGTERM; resolves to the exit code).
 */
async function serve(dataDir: string, env: Record<string, string>, until: RegExp, bin = BIN) {
  const port = await freePort();
  const child = spawn(process.execPath, [bin, 'serve'], { cwd: ROOT, env: childEnv(dataDir, { ...env, PORT: String(port), HOST: '127.0.0.1' }) });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return exited;
  };
  // Two minutes: a server starting beside a loaded suite (stress-ng, two test processes) once took over one.
  const deadline = Date.now() + 120_000;
  while (!until.test(stderr)) {
    if (child.exitCode !== null) throw new Error(`quire serve exited with ${child.exitCode}: ${stderr}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`quire serve printed no ${until} within 120 s; stdout: ${stdout}; stderr: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { port, child, stdout: () => stdout, stderr: () => stderr, stop };
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
      for (const command of ['serve', 'migrate', 'org create', 'user add', 'user invite', 'token issue', 'token list', 'token revoke']) {
        assert.ok(run.stdout.includes(command), `help mentions ${command}`);
      }
    }
  });

  test('an unknown command or option is refused in one line that points to the help, with exit code 2', async () => {
    const [command, option] = await Promise.all([quire(dir, ['frobnicate']), quire(dir, ['user', 'list', '--ogr', 'x'])]);
    assertRefused(command, /^Unknown command "frobnicate": quire help lists the commands$/);
    assertRefused(option, /^Unknown option '--ogr': quire help/);
  });

  test('a command line missing an argument, or with one that cannot be right, is refused before the database is opened', async () => {
    const fresh = join(dir, 'never-created');
    const cases: [string[], RegExp][] = [
      [['org', 'create', '--admin', 'a@example.com'], /^quire org create: --title is required/],
      [['org', 'create', '--title', 'Docs', '--admin', 'not-an-email'], /^quire org create: --admin "not-an-email" is not an e-mail address$/],
      [['user', 'add', '--email', 'a@example.com'], /^quire user add: --org is required/],
      [['user', 'invite', '--org', 'x', '--email', 'a@example.com', '--role', 'owner'], /^quire user invite: --role must be admin, create, review, edit, comment, read or guest, not "owner"$/],
      [['user', 'add', '--org', '--email', 'a@example.com'], /^Option '--org' argument is ambiguous: quire help/],
      [['token', 'issue'], /^quire token issue: --email is required/],
      [['token', 'list', '--email', 'nobody'], /^quire token list: --email "nobody" is not an e-mail address$/],
      [['token', 'revoke'], /^quire token revoke: --id or --token is required/],
      [['import', '--space', 'x'], /^quire import: the PATH of a folder or \.zip is required/],
      [['import', join(dir, 'no-such-folder'), '--space', 'x'], new RegExp(`^quire import: no file or folder at ${join(dir, 'no-such-folder')}$`)],
      [['import', ROOT, '--space', 'x', '--project', '../elsewhere'], /^quire import: --project \.\.\/elsewhere must be a folder inside /],
      [['export', '--space', 'x'], /^quire export: --to is required/],
      [['export', '--space', 'x', '--to', BIN], /^quire export: --to \S+quire\.js is a file, not a folder$/],
      [['backup'], /^quire backup: --to is required/],
      [['restore'], /^quire restore: --from is required/],
      [['files', 'migrate'], /^quire files migrate: --to is required/],
      [['files', 'migrate', '--to', 'gcs'], /^quire files migrate: --to must be s3 \(files move from DATA_DIR to an S3-compatible bucket\), not "gcs"$/],
      [['files', 'migrate', '--to', 's3'], /^quire files migrate: S3_BUCKET is not set: set S3_BUCKET \(and S3_ENDPOINT, /],
    ];
    const runs = await Promise.all(cases.map(([args]) => quire(fresh, args)));
    runs.forEach((run, i) => assertRefused(run, cases[i]![1]));
    assert.ok(runs.every((run) => !run.stderr.includes('Database: ')), 'no command opened the database');
    assert.deepEqual(readdirSync(dir).filter((name) => name === 'never-created'), [], 'nor made its folder');
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
    assertRefused(noTitle, /--title is required/);
    assertRefused(badEmail, /not an e-mail address/);
    const tooShort = await quire(dir, ['org', 'create', '--title', 'X', '--admin', 'someone@example.com']);
    assertRefused(tooShort, /^quire org create: --title must NOT have fewer than 2 characters$/);
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

  test('user invite adds the person and prints a one-time link that sets their password', async () => {
    const orgId = orgIdFrom(await succeeds(dir, ['org', 'create', '--title', 'Invite Org', '--admin', 'boss3@example.com']));
    const out = await succeeds(dir, ['user', 'invite', '--org', orgId, '--email', 'Invitee@Example.com', '--role', 'review'], { PUBLIC_URL: 'https://docs.example.test' });
    assert.match(out, new RegExp(`^Added invitee@example\\.com \\(user [A-Za-z0-9]+\\) in organization ${orgId} as review`));
    const link = /^https:\/\/docs\.example\.test\/app\/auth\/link\/([\w-]{43})$/m.exec(out);
    assert.ok(link, `no link in: ${out}`);
    // A public route: the token callApi sends is not looked at.
    const info = await callApi(dir, `/v1/auth/links/${link[1]}`, 'none');
    assert.equal(info.status, 200);
    assert.deepEqual(info.body, { kind: 'invite', email: 'invitee@example.com', organization: { id: orgId, title: 'Invite Org' }, role: 'review' });
  });

  test('user invite without PUBLIC_URL links to the address the server last started with, and says when it knows none', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'quire-invite-'));
    try {
      const orgId = orgIdFrom(await succeeds(fresh, ['org', 'create', '--title', 'Invite Org', '--admin', 'boss@example.com']));
      const unknown = await quire(fresh, ['user', 'invite', '--org', orgId, '--email', 'first@example.com']);
      assertRefused(unknown, /^quire user invite: the server's public URL is not known .*: set PUBLIC_URL/);
      assert.doesNotMatch((await succeeds(fresh, ['user', 'list'])), /first@example\.com/, 'the refused invitation added no one');

      const server = await serve(fresh, { PUBLIC_URL: 'https://docs.example.test/' }, /Quire is serving/);
      assert.equal(await server.stop(), 0);
      const recorded = await succeeds(fresh, ['user', 'invite', '--org', orgId, '--email', 'second@example.com']);
      assert.match(recorded, /^https:\/\/docs\.example\.test\/app\/auth\/link\/[\w-]{43}$/m);
      // The operator's own PUBLIC_URL still wins: it is what they asked for.
      const given = await succeeds(fresh, ['user', 'invite', '--org', orgId, '--email', 'third@example.com'], { PUBLIC_URL: 'https://elsewhere.example.test' });
      assert.match(given, /^https:\/\/elsewhere\.example\.test\/app\/auth\/link\/[\w-]{43}$/m);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  test('import refuses a missing or empty project folder, a path without a page and a layout that finds none, and the space keeps its pages', async () => {
    const orgId = orgIdFrom(await succeeds(dir, ['org', 'create', '--title', 'Import Org', '--admin', 'importer@example.com']));
    const token = tokenFrom(await succeeds(dir, ['token', 'issue', '--email', 'importer@example.com']));
    const space = await callApi(dir, `/v1/orgs/${orgId}/spaces`, token, { method: 'POST', body: { title: 'Handbook' } });
    assert.equal(space.status, 201);
    const spaceId = space.body.id as string;
    const folder = (name: string, files: Record<string, string>, empty: string[] = []) => {
      const root = join(dir, name);
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(join(root, path, '..'), { recursive: true });
        writeFileSync(join(root, path), text);
      }
      for (const path of empty) mkdirSync(join(root, path), { recursive: true });
      return root;
    };
    const good = folder('good', { 'README.md': '# Welcome\n\nKept.\n', 'setup.md': '# Setup\n' });
    assert.match(await succeeds(dir, ['import', good, '--space', spaceId]), /^Imported 2 pages/);

    const site = folder('site', { 'docs/en/mkdocs.yml': 'site_name: App\n', 'docs/en/docs/index.md': '# First steps\n' }, ['docs/fr']);
    const noPage = folder('no-page', { 'notes.txt': 'no markdown here', 'logo.png': 'not really a png' });
    const nowhere = folder('nowhere', { 'mkdocs.yml': 'site_name: App\ndocs_dir: missing\n', 'README.md': '# Not under docs_dir\n' });
    const [missing, empty, none, layout] = await Promise.all([
      quire(dir, ['import', site, '--space', spaceId, '--project', 'docs/de']),
      quire(dir, ['import', site, '--space', spaceId, '--project', 'docs/fr']),
      quire(dir, ['import', noPage, '--space', spaceId]),
      quire(dir, ['import', nowhere, '--space', spaceId]),
    ]);
    assertRefused(missing, new RegExp(`^quire import: --project docs/de: ${site} has no folder docs/de$`));
    assertRefused(empty, new RegExp(`^quire import: --project docs/fr: the folder ${join(site, 'docs/fr')} is empty$`));
    assertRefused(none, new RegExp(`^quire import: ${noPage} has no page: no markdown file \\(\\.md\\) in it$`));
    assertRefused(layout, new RegExp(`^quire import: ${nowhere}, read as an MkDocs site \\(mkdocs\\.yml\\), has no page: its space keeps its content$`));
    const unknownSpace = await quire(dir, ['import', good, '--space', 'noSuchSpace']);
    assertRefused(unknownSpace, /^quire import: --space noSuchSpace is no space$/);

    const pages = await callApi(dir, `/v1/spaces/${spaceId}/content/pages`, token);
    assert.deepEqual(pages.body.pages.map((p: { title: string }) => p.title), ['Welcome', 'Setup'], 'the refused imports changed nothing');
    // The right folder imports.
    assert.match(await succeeds(dir, ['import', site, '--space', spaceId, '--project', 'docs/en']), /^Imported 1 pages .* read as an MkDocs site/);
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
    assertRefused(badRole, /--role must be/);
    assertRefused(unknownOrg, /^quire user add: --org noSuchOrg is no organization/);
    assertRefused(noEmail, /--email is required/);
    // Nothing was created by the refused commands.
    const issue = await quire(dir, ['token', 'issue', '--email', 'carol@example.com']);
    assertRefused(issue, /^quire token issue: --email carol@example\.com is no user's/);
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
    assertRefused(again, new RegExp(`^quire token revoke: --id ${secondId} names no active token`));
    const neither = await quire(dir, ['token', 'revoke']);
    assertRefused(neither, /--id or --token is required/);
  });

  test('the first start creates an organization and prints its id, a working curl line and a link that signs the admin in', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'quire-serve-'));
    try {
      const server = await serve(fresh, {}, /\/app\/auth\/link\/\S+\n/);
      try {
        const out = server.stderr();
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

        const link = /Open this link[^\n]*\n\s+(http:\/\/\S+\/app\/auth\/link\/([\w-]+))\n/.exec(out);
        assert.ok(link, `no sign-in link in: ${out}`);
        assert.equal(link[1], `http://localhost:${server.port}/app/auth/link/${link[2]}`);
        const api = `http://localhost:${server.port}/v1/auth/links/${link[2]}`;
        const info = (await (await fetch(api)).json()) as { kind: string; email: string };
        assert.deepEqual(info, { kind: 'first-start', email: 'admin@localhost', organization: { id: orgId, title: 'My Organization' } });
        const used = await fetch(api, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password: 'first admin password' }) });
        assert.equal(used.status, 200);
        assert.match(used.headers.get('set-cookie') ?? '', /quire_session=/);
        const signIn = await fetch(`http://localhost:${server.port}/v1/auth/sign-in`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'admin@localhost', password: 'first admin password' }),
        });
        assert.equal(signIn.status, 200);
      } finally {
        assert.equal(await server.stop(), 0);
      }

      // A later start finds the data and creates nothing.
      const again = await serve(fresh, {}, /Quire is serving/);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.doesNotMatch(again.stderr(), /First start/);
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
        const out = server.stderr();
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

describe('running it in production', { skip: process.env.TEST_DATABASE_URL ? 'the command line is tested on SQLite only' : false }, () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'quire-ops-'));
  });
  after(async () => {
    await closeApps();
    rmSync(dir, { recursive: true, force: true });
  });

  test('every command names its database on stderr; org list and user list show what is there', async () => {
    const created = await quire(dir, ['org', 'create', '--title', 'Ops Org', '--admin', 'ops@example.com']);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stderr, new RegExp(`Database: SQLite file ${join(dir, 'quire.db').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    const orgId = orgIdFrom(created.stdout);
    const orgs = await quire(dir, ['org', 'list']);
    assert.match(orgs.stderr, /Database: SQLite file/);
    assert.match(orgs.stdout, new RegExp(`${orgId}  Ops Org  1 members`));
    await succeeds(dir, ['user', 'add', '--org', orgId, '--email', 'reader@example.com', '--role', 'read']);
    const members = await succeeds(dir, ['user', 'list', '--org', orgId]);
    assert.match(members, /ops@example\.com .* admin/);
    assert.match(members, /reader@example\.com .* read/);
    assert.match(await succeeds(dir, ['user', 'list']), /reader@example\.com/);
    const unknown = await quire(dir, ['user', 'list', '--org', 'nope']);
    assertRefused(unknown, /--org nope is no organization/);
  });

  test('start-up mistakes print what to fix', async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ DATABASE_URL: 'mysql://db.example.com/quire' }, /DATABASE_URL must start with postgres:\/\//],
      [{ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/quire' }, /DATABASE_URL \(PostgreSQL at 127\.0\.0\.1:1\/quire\)/],
      [{ QUIRE_ADMIN_TOKEN: 'short' }, /QUIRE_ADMIN_TOKEN must be at least 16 characters/],
      [{ LOG_LEVEL: 'verbose' }, /LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/],
      [{ REDIS_URL: 'localhost:6379' }, /REDIS_URL must start with redis:\/\//],
    ];
    for (const [env, message] of cases) {
      const run = await quire(dir, ['org', 'list'], env);
      assert.equal(run.code, 1, `${JSON.stringify(env)} should fail`);
      assert.match(run.stderr, message);
      assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
    }
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a folder');
    const unwritable = await quire(join(file, 'data'), ['org', 'list']);
    assert.equal(unwritable.code, 1);
    assert.match(unwritable.stderr, new RegExp(`DATA_DIR ${join(file, 'data')} is not writable`));
  });

  test('a port in use is named, with PORT', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()));
    const port = (blocker.address() as { port: number }).port;
    try {
      const run = await quire(dir, ['serve'], { PORT: String(port), HOST: '127.0.0.1' });
      assert.equal(run.code, 1);
      assert.match(run.stderr, new RegExp(`Port ${port} on 127\\.0\\.0\\.1 is already in use: stop the other server or set PORT`));
    } finally {
      blocker.close();
    }
  });

  test('SIGTERM lets a request in flight finish, then the process exits; a stuck one is cut at SHUTDOWN_TIMEOUT_MS', async () => {
    // A website that answers slowly keeps an import request in flight while the signal arrives.
    let delayMs = 1_500;
    const site = createHttpServer((_request, response) => {
      setTimeout(() => response.writeHead(200, { 'content-type': 'text/html' }).end('<html><head><title>Slow</title></head><body><h1>Slow</h1><p>Hello.</p></body></html>'), delayMs);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', () => resolve()));
    const siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}/`;
    const fresh = mkdtempSync(join(tmpdir(), 'quire-drain-'));
    try {
      const start = async (extra: Record<string, string>) => {
        const server = await serve(fresh, { ALLOW_PRIVATE_FETCH: 'true', ...extra }, /Quire is serving/);
        const base = `http://127.0.0.1:${server.port}/v1`;
        const token = (await succeeds(fresh, ['token', 'issue', '--email', 'admin@localhost'])).trim().split('\n').at(-1)!;
        const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
        const orgs = (await (await fetch(`${base}/orgs`, { headers })).json()) as { items: { id: string }[] };
        const space = (await (await fetch(`${base}/orgs/${orgs.items[0]!.id}/spaces`, { method: 'POST', headers, body: '{"title":"S"}' })).json()) as { id: string };
        const importing = fetch(`${base}/spaces/${space.id}/content/import`, { method: 'POST', headers, body: JSON.stringify({ source: 'website', url: siteUrl }) });
        await new Promise((resolve) => setTimeout(resolve, 400));
        const signalled = Date.now();
        const exit = server.stop();
        return { importing, exit, signalled, server };
      };

      const drained = await start({});
      const response = await drained.importing;
      assert.equal(response.status, 201, await response.clone().text());
      assert.equal(await drained.exit, 0, drained.server.stderr());
      assert.match(drained.server.stderr(), /SIGTERM received; finishing in-flight requests and jobs/);

      delayMs = 30_000;
      const stuck = await start({ SHUTDOWN_TIMEOUT_MS: '1000', FETCH_TIMEOUT_MS: '60000', IMPORT_TIMEOUT_MS: '60000' });
      stuck.importing.catch(() => undefined);
      assert.equal(await stuck.exit, 1);
      assert.ok(Date.now() - stuck.signalled < 8_000, 'exits within the shutdown timeout');
      assert.match(stuck.server.stderr(), /did not finish within SHUTDOWN_TIMEOUT_MS/);
    } finally {
      site.closeAllConnections();
      site.close();
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  test('npm run build makes plain JavaScript that serves with no tsx', { timeout: 300_000 }, async () => {
    // scripts/test.mjs says (QUIRE_FROM_SOURCE=0) when dist/ is newer than every source, as `npm ci` leaves it:
    // that build is the one checked, and building again would cost CI a minute or two for the same files.
    // Otherwise the build is made beside the package, as the package lays it out (bin/, dist/, package.json;
    // node_modules found above), not into dist/: the browser tests running meanwhile serve dist/web, which a
    // build first empties.
    const fresh = process.env.QUIRE_FROM_SOURCE === '0';
    const place = fresh ? ROOT : join(ROOT, 'node_modules', '.cache', `quire-build-test-${process.pid}`);
    if (!fresh) {
      rmSync(place, { recursive: true, force: true });
      mkdirSync(join(place, 'bin'), { recursive: true });
      cpSync(BIN, join(place, 'bin', 'quire.js'));
      cpSync(join(ROOT, 'package.json'), join(place, 'package.json'));
      const build = await new Promise<Run>((resolve) => {
        execFile(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, timeout: 280_000, env: { ...process.env, QUIRE_BUILD_OUT: join(place, 'dist') } }, (error, stdout, stderr) =>
          resolve({ code: error ? 1 : 0, stdout, stderr }),
        );
      });
      assert.equal(build.code, 0, build.stdout + build.stderr);
    }
    assert.ok(readdirSync(join(place, 'dist')).includes('main.js'));
    assert.ok(readdirSync(join(place, 'dist', 'web')).includes('index.html'));
    assert.ok(!readdirSync(join(place, 'dist', 'platform')).some((f) => f.endsWith('.test.js')), 'no tests in the build');
    const data = mkdtempSync(join(tmpdir(), 'quire-built-'));
    try {
      const server = await serve(data, { QUIRE_FROM_SOURCE: '0' }, /Quire is serving/, join(place, 'bin', 'quire.js'));
      try {
        const health = await fetch(`http://127.0.0.1:${server.port}/healthz`);
        assert.equal(health.status, 200);
        // tsx would register its loader in this process and run esbuild beside it.
        const children = readFileSync(`/proc/${server.child.pid}/task/${server.child.pid}/children`, 'utf8').trim();
        assert.equal(children, '', 'no child process (no esbuild service)');
        const maps = readFileSync(`/proc/${server.child.pid}/maps`, 'utf8');
        assert.doesNotMatch(maps, /esbuild/);
        assert.doesNotMatch(readFileSync(`/proc/${server.child.pid}/cmdline`, 'utf8'), /tsx/);
      } finally {
        assert.equal(await server.stop(), 0);
      }
    } finally {
      rmSync(data, { recursive: true, force: true });
      if (!fresh) rmSync(place, { recursive: true, force: true });
    }
  });

  test('backup under write load restores a consistent database; a quiet one restores identical', async () => {
    const source = mkdtempSync(join(tmpdir(), 'quire-backup-src-'));
    const target = mkdtempSync(join(tmpdir(), 'quire-backup-dst-'));
    const backups = mkdtempSync(join(tmpdir(), 'quire-backups-'));
    try {
      const orgId = orgIdFrom(await succeeds(source, ['org', 'create', '--title', 'Backup org', '--admin', 'b@example.com']));
      const token = tokenFrom(await succeeds(source, ['token', 'issue', '--email', 'b@example.com']));
      const { app } = await (async () => {
        await callApi(source, '/v1/user', token);
        return apps.get(source)!;
      })();
      // Writers create spaces (rows in several tables each) while the backup runs.
      let writing = true;
      let written = 0;
      const writer = (async () => {
        while (writing) {
          const res = await app.inject({ method: 'POST', url: `/v1/orgs/${orgId}/spaces`, headers: { authorization: `Bearer ${token}` }, payload: { title: `S${written}` } });
          assert.equal(res.statusCode, 201, res.body);
          written += 1;
        }
      })();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const loaded = await quire(source, ['backup', '--to', join(backups, 'loaded')]);
      writing = false;
      await writer;
      assert.equal(loaded.code, 0, loaded.stderr);
      assert.match(loaded.stdout, /Backup written to/);
      assert.ok(written > 0);

      const restored = await quire(target, ['restore', '--from', join(backups, 'loaded')]);
      assert.equal(restored.code, 0, restored.stderr);
      const copy = new SQLite(join(target, 'quire.db'), { readonly: true });
      try {
        assert.equal(copy.pragma('integrity_check', { simple: true }), 'ok');
        assert.deepEqual(copy.pragma('foreign_key_check'), []);
        const spaces = copy.prepare('select count(*) as n from spaces').get() as { n: number };
        const branches = copy.prepare('select count(*) as n from branches where id in (select id from spaces)').get() as { n: number };
        assert.equal(branches.n, spaces.n, 'every space restored has its main branch');
      } finally {
        copy.close();
      }
      // The restored server answers with the restored data.
      assert.equal((await callApi(target, '/v1/user', token)).status, 200);

      // A backup taken with no writer going restores byte-for-byte the same rows.
      const again = await quire(target, ['restore', '--from', join(backups, 'loaded')]);
      assertRefused(again, /pass --force/);
      await succeeds(source, ['backup', '--to', join(backups, 'quiet')]);
      const quietTarget = mkdtempSync(join(tmpdir(), 'quire-backup-quiet-'));
      try {
        await succeeds(quietTarget, ['restore', '--from', join(backups, 'quiet'), '--force']);
        const dump = (file: string) => {
          const db = new SQLite(file, { readonly: true });
          try {
            const tables = db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name").all() as { name: string }[];
            return Object.fromEntries(tables.map(({ name }) => [name, db.prepare(`select * from "${name}"`).all().map((row) => JSON.stringify(row)).sort()]));
          } finally {
            db.close();
          }
        };
        assert.deepEqual(dump(join(quietTarget, 'quire.db')), dump(join(source, 'quire.db')));
      } finally {
        rmSync(quietTarget, { recursive: true, force: true });
      }
      const notBackup = await quire(target, ['restore', '--from', source]);
      assertRefused(notBackup, /is not a Quire backup/);
      const notEmpty = await quire(source, ['backup', '--to', source]);
      assertRefused(notEmpty, /--to \S+ is not empty/);
    } finally {
      for (const d of [source, target, backups]) rmSync(d, { recursive: true, force: true });
    }
  });

  test('files migrate --to s3 copies every file to the bucket, skips what is there when run again, and the server then serves them from it; backup says where they are', async () => {
    const source = mkdtempSync(join(tmpdir(), 'quire-migrate-'));
    const backups = mkdtempSync(join(tmpdir(), 'quire-migrate-backups-'));
    const s3 = await startTestS3(['migrated']);
    try {
      const orgId = orgIdFrom(await succeeds(source, ['org', 'create', '--title', 'Files org', '--admin', 'f@example.com']));
      const token = tokenFrom(await succeeds(source, ['token', 'issue', '--email', 'f@example.com']));
      const space = await callApi(source, `/v1/orgs/${orgId}/spaces`, token, { method: 'POST', body: { title: 'With files' } });
      const { app } = await apps.get(source)!;
      const files = [noisyPng(300, 300), Buffer.from('notes, in plain text'), Buffer.alloc(2 * 1024 * 1024, 7)];
      const uploaded: { id: string; downloadURL: string }[] = [];
      for (const [i, bytes] of files.entries()) {
        const res = await app.inject({ method: 'POST', url: `/v1/spaces/${space.body.id}/files/uploads?name=file${i}`, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' }, payload: bytes });
        assert.equal(res.statusCode, 201, res.body);
        uploaded.push(JSON.parse(res.body));
      }
      const bucket = s3.env('migrated');
      const { FILE_STORAGE: _s3, ...beside } = bucket;
      const first = await quire(source, ['files', 'migrate', '--to', 's3'], beside);
      assert.equal(first.code, 0, first.stderr);
      assert.match(first.stdout, /^Copying 3 files \(2\.\d MB\) from \S+blobs to s3:\/\/migrated\/ at http:\/\/127\.0\.0\.1:\d+$/m);
      assert.match(first.stdout, /^3 of 3 files: 3 copied, 0 already in the bucket$/m);
      assert.match(first.stdout, /set FILE_STORAGE=s3 and restart the server/);
      const again = await succeeds(source, ['files', 'migrate', '--to', 's3'], beside);
      assert.match(again, /^3 of 3 files: 0 copied, 3 already in the bucket$/m, 'run again, nothing is sent twice');
      const wrongBucket = await quire(source, ['files', 'migrate', '--to', 's3'], { ...beside, S3_BUCKET: 'nope' });
      assert.equal(wrongBucket.code, 1);
      assert.match(wrongBucket.stderr, /S3_BUCKET "nope" at http:\/\/127\.0\.0\.1:\d+ cannot be used: there is no such bucket/);

      // The local files moved away: a server on the bucket serves every file from it.
      renameSync(join(source, 'blobs'), join(source, 'blobs-before-s3'));
      await closeApps();
      const config = { ...loadConfig({ DATA_DIR: source, PUBLIC_URL: 'http://quire.test', CACHE_TTL_MS: '0', MAX_EVENT_LOOP_DELAY_MS: '0', ...bucket }), logLevel: 'silent', workerIntervalMs: 0 };
      const db = createDatabase({ dataDir: source });
      const onS3 = await buildApp({ config, db });
      try {
        for (const [i, file] of uploaded.entries()) {
          const res = await onS3.inject({ method: 'GET', url: new URL(file.downloadURL).pathname });
          assert.equal(res.statusCode, 200, `file ${i}`);
          assert.deepEqual(res.rawPayload, files[i]);
        }
      } finally {
        await onS3.close();
        await db.destroy();
      }
      const backedUp = await succeeds(source, ['backup', '--to', join(backups, 'b')], bucket);
      assert.match(backedUp, /Files are in the bucket s3:\/\/migrated\/ \(FILE_STORAGE=s3\) and are not copied here/);
      assert.equal(existsSync(join(backups, 'b', 'blobs')), false);
      const restored = await succeeds(mkdtempSync(join(backups, 'r-')), ['restore', '--from', join(backups, 'b')], bucket);
      assert.match(restored, /The backup holds no files: they were in the bucket migrated; this server reads s3:\/\/migrated\//);
    } finally {
      await s3.stop();
      for (const d of [source, backups]) rmSync(d, { recursive: true, force: true });
    }
  });

  test('one server per SQLite DATA_DIR: a second refuses to start saying why; commands write beside it; SIGKILL leaves no lock', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'quire-lock-'));
    try {
      const first = await serve(fresh, {}, /Quire is serving/);
      try {
        const second = await quire(fresh, ['serve'], { PORT: '0', HOST: '127.0.0.1' });
        assert.equal(second.code, 1);
        assert.match(second.stderr, new RegExp(`Another Quire server is using DATA_DIR ${fresh} \\(process ${first.child.pid} \\(serve\\) since `));
        assert.match(second.stderr, /PostgreSQL \(DATABASE_URL\)/);
        // The commands that write run beside the server, each waiting for its turn at the database.
        const writes = await Promise.all([
          quire(fresh, ['org', 'create', '--title', 'Beside', '--admin', 'beside@example.com']),
          quire(fresh, ['token', 'issue', '--email', 'admin@localhost']),
          quire(fresh, ['migrate']),
        ]);
        for (const run of writes) assert.equal(run.code, 0, run.stderr);
        const orgId = /\(id (\S+)\)/.exec(writes[0]!.stdout)![1]!;
        assert.equal((await quire(fresh, ['user', 'add', '--org', orgId, '--email', 'new@example.com', '--role', 'edit'])).code, 0);
        const token = writes[1]!.stdout.trim().split('\n').at(-1)!;
        const orgs = await fetch(`http://127.0.0.1:${first.port}/v1/orgs`, { headers: { authorization: `Bearer ${token}` } });
        assert.equal(orgs.status, 200, 'the running server accepts the token the command issued');
        const restore = await quire(fresh, ['restore', '--from', fresh, '--force']);
        assert.notEqual(restore.code, 0);
        assert.match(restore.stderr, /Another Quire server is using DATA_DIR/, 'restore refuses to replace the database under a running server');
      } finally {
        first.child.kill('SIGKILL');
        await first.stop();
      }
      // The operating system released the lock with the process: the next server starts.
      const next = await serve(fresh, {}, /Quire is serving/);
      assert.equal(await next.stop(), 0);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });
});
