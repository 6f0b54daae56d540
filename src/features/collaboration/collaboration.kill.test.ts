import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../../test/helpers.ts';
import { collaborationDocumentName } from './document-name.ts';
import { editorClient, eventually, typeInto, type EditorClient } from './clients.test-support.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'quire.js');

/** `quire serve` on DATA_DIR and PORT, as an operator starts it; resolves once it serves, with what it printed. */
async function serve(dataDir: string, port: number): Promise<{ child: ChildProcess; stderr: () => string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent', MAX_EVENT_LOOP_DELAY_MS: '0' };
  for (const name of ['DATABASE_URL', 'TEST_DATABASE_URL', 'QUIRE_ADMIN_TOKEN', 'QUIRE_ADMIN_EMAIL', 'PUBLIC_URL', 'REDIS_URL']) delete env[name];
  const child = spawn(process.execPath, [BIN, 'serve'], { cwd: ROOT, env });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout!.resume();
  const deadline = Date.now() + 90_000;
  while (!/Quire is serving/.test(stderr)) {
    if (child.exitCode !== null) throw new Error(`quire serve exited with ${child.exitCode}: ${stderr}`);
    if (Date.now() > deadline) throw new Error(`quire serve did not start within 90 s: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, stderr: () => stderr };
}

/*
 * Issue 31's "nothing lost": a real server process is killed (SIGKILL) while two people edit a page; what one had
 * sent and the server had taken but not yet stored, and what the other typed while the server was down, reach the
 * next process when their editors reconnect (the Yjs sync sends each side what the other lacks), and are stored.
 */
describe('a server killed while people edit together', { skip: process.env.TEST_DATABASE_URL ? 'a process per DATA_DIR: tested on SQLite' : false, timeout: 240_000 }, () => {
  let dataDir: string;
  let port: number;
  let server: Awaited<ReturnType<typeof serve>> | undefined;
  const clients: EditorClient[] = [];

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'quire-kill-'));
    port = await freePort();
    server = await serve(dataDir, port);
  });
  after(async () => {
    for (const client of clients) client.destroy();
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      const exited = new Promise((resolve) => server!.child.once('exit', resolve));
      server.child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses nothing an editor sent: the edits re-sent on reconnect are stored by the next process', async () => {
    const base = `http://127.0.0.1:${port}`;
    const out = server!.stderr();
    const token = /curl -H "Authorization: Bearer ([^"]+)"/.exec(out)?.[1];
    const orgId = /\/v1\/orgs\/([\w-]+)/.exec(out)?.[1];
    const link = /\/app\/auth\/link\/([\w-]+)/.exec(out)?.[1];
    assert.ok(token && orgId && link, `the first start's banner: ${out}`);
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}/v1${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
      const text = await res.text();
      assert.ok(res.ok, `${method} ${path}: ${res.status} ${text}`);
      return text ? JSON.parse(text) : undefined;
    };
    // The admin's browser session, through the first start's sign-in link.
    const signedIn = await fetch(`${base}/v1/auth/links/${link}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password: 'a long enough password' }) });
    assert.equal(signedIn.status, 200, await signedIn.text());
    const cookie = signedIn.headers.getSetCookie().map((header) => header.split(';')[0]).join('; ');

    const space = await api('POST', `/orgs/${orgId}/spaces`, { title: 'Docs' });
    const cr = await api('POST', `/spaces/${space.id}/change-requests`, { subject: 'Together' });
    const written = await api('POST', `/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, { changes: [{ operation: 'insert_page', title: 'Guide', document: { markdown: 'Hello' } }] });
    const pageId = written.changes[0].page.id ?? written.changes[0].page;
    const name = collaborationDocumentName({ spaceId: space.id, target: { kind: 'change-request', changeRequestId: cr.id }, pageId });
    const stored = async () => ((await api('GET', `/spaces/${space.id}/change-requests/${cr.id}/content/page/${pageId}?format=markdown`)).markdown as string | undefined)?.trim();

    const a = editorClient(base, cookie, name);
    const b = editorClient(base, cookie, name);
    clients.push(a, b);
    await Promise.all([a.synced, b.synced]);
    typeInto(a.ydoc, ' one');
    await eventually(async () => (await stored()) === 'Hello one', 20_000, 'the first edit stored');

    // The server takes the next edit (the editor has nothing unsent) and is killed before its store, 2 s later.
    typeInto(a.ydoc, ' two');
    await eventually(() => a.provider.unsyncedChanges === 0 && b.text().includes('two'), 8_000, 'the second edit taken by the server');
    server!.child.kill('SIGKILL');
    await new Promise((resolve) => server!.child.once('exit', resolve));
    // Typed while the server is down.
    typeInto(b.ydoc, ' three');

    server = await serve(dataDir, port);
    await eventually(() => a.text() === b.text() && a.text().includes('three'), 30_000, 'the editors reconnected and converged');
    assert.equal(a.text(), 'Hello one two three');
    await eventually(async () => (await stored()) === 'Hello one two three', 30_000, 'every edit stored by the new process').catch(async (error) => {
      throw new Error(`${(error as Error).message}: stored ${JSON.stringify(await stored())}`);
    });
  });
});
