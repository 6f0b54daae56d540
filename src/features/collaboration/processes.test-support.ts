import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'quire.js');

export interface ServeProcess {
  child: ChildProcess;
  /** What it printed on stderr so far (the banner, on a first start). */
  stderr(): string;
  /** SIGTERM, resolved once it exited (nothing if it had already). */
  stop(): Promise<void>;
}

/**
 * `quire serve` as an operator starts it, on 127.0.0.1 with `env` (DATA_DIR, PORT, DATABASE_URL, REDIS_URL...) and
 * nothing else of this process's database settings, `node` given `nodeArgs`; resolves once it serves.
 */
export async function serveProcess(env: Record<string, string>, nodeArgs: string[] = []): Promise<ServeProcess> {
  const full: NodeJS.ProcessEnv = { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'silent', MAX_EVENT_LOOP_DELAY_MS: '0' };
  for (const name of ['DATABASE_URL', 'TEST_DATABASE_URL', 'QUIRE_ADMIN_TOKEN', 'QUIRE_ADMIN_EMAIL', 'PUBLIC_URL', 'REDIS_URL']) delete full[name];
  const child = spawn(process.execPath, [...nodeArgs, BIN, 'serve'], { cwd: ROOT, env: { ...full, ...env } });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout!.resume();
  const deadline = Date.now() + 90_000;
  while (!/Quire is serving/.test(stderr)) {
    if (child.exitCode !== null) throw new Error(`quire serve exited with ${child.exitCode}: ${stderr}`);
    if (Date.now() > deadline) throw new Error(`quire serve did not start within 90 s: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    child,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * The admin of a first start, from its banner: an API client with the printed token, the organization, and a
 * browser session's cookie through the printed sign-in link.
 */
export async function firstStartAdmin(base: string, server: ServeProcess) {
  // The banner's lines after "Quire is serving" come in a write of their own.
  const deadline = Date.now() + 10_000;
  while (!/\/app\/auth\/link\//.test(server.stderr()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  const banner = server.stderr();
  const token = /curl -H "Authorization: Bearer ([^"]+)"/.exec(banner)?.[1];
  const orgId = /\/v1\/orgs\/([\w-]+)/.exec(banner)?.[1];
  const link = /\/app\/auth\/link\/([\w-]+)/.exec(banner)?.[1];
  assert.ok(token && orgId && link, `the first start's banner: ${banner}`);
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}/v1${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    assert.ok(res.ok, `${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  const signedIn = await fetch(`${base}/v1/auth/links/${link}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password: 'a long enough password' }) });
  assert.equal(signedIn.status, 200, await signedIn.text());
  const cookie = signedIn.headers.getSetCookie().map((header) => header.split(';')[0]).join('; ');
  return { api, orgId, cookie };
}
