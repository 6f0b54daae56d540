import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp, type App } from '../../app.ts';
import { createDatabase } from '../../db/database.ts';
import type { Db } from '../../db/types.ts';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { ok } from '../../../test/assertions.ts';
import { buildPage, buildSpace } from '../../../test/factories.ts';

/**
 * Two server processes on one PostgreSQL never run one translation at the same time. The second process is a
 * second application with its own connection pool on the same schema; a LibreTranslate that holds its answers
 * until told keeps the first run going while the second process claims the same job again (its claim expired).
 */
describe('translation runs on a shared PostgreSQL', { skip: process.env.TEST_DATABASE_URL ? false : 'PostgreSQL only (TEST_DATABASE_URL): SQLite has one process' }, () => {
  let t: TestServer;
  let second: { app: App; db: Db };
  let release: () => void = () => undefined;
  let held = new Promise<void>((resolve) => (release = resolve));
  const calls: string[] = [];
  const provider: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const { q, target } = JSON.parse(body) as { q: string[]; target: string };
      calls.push(...q);
      void held.then(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ translatedText: q.map((text) => `[${target}] ${text}`) })));
    });
  });

  before(async () => {
    await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
    t = await startServer({ env: { TRANSLATION_PROVIDER_URL: `http://127.0.0.1:${(provider.address() as AddressInfo).port}` } });
    const db = createDatabase({ url: process.env.TEST_DATABASE_URL!, schema: t.schema });
    second = { app: await buildApp({ config: t.config, db, clock: t.clock }), db };
  });
  after(async () => {
    release();
    await second.app.close();
    await second.db.destroy();
    await t.close();
    await new Promise<void>((resolve) => provider.close(() => resolve()));
  });

  test('a second process that claims the job of a running translation waits: one run, one target space', async () => {
    const source = await buildSpace(t, { title: 'Guide' });
    await buildPage(t, source.id, { title: 'Start', markdown: 'Read this first.' });
    const created = ok(await t.api('POST', `/v1/orgs/${t.org.id}/translations`, { body: { title: 'Guide', language: 'de', source: { space: source.id, language: 'en' } } }), 201);

    const first = t.app.jobs.runDue();
    for (let i = 0; i < 200 && calls.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    assert.ok(calls.length > 0, 'the first run is waiting for the provider');
    const running = ok(await t.api('GET', `/v1/orgs/${t.org.id}/translations/${created.id}`));
    assert.equal(running.status, 'running');

    // The first claim expires (a run longer than the worker's lock): the other process takes the job again.
    t.clock.advance(6 * 60_000);
    const callsBefore = calls.length;
    await second.app.jobs.runDue();
    assert.equal(calls.length, callsBefore, 'the second process sent nothing to translate');
    const job = await second.db.selectFrom('jobs').select(['last_error', 'run_at']).where('type', 'like', '%translation%').executeTakeFirst();
    assert.match(job?.last_error ?? '', /being run by another process/);
    const stillRunning = ok(await t.api('GET', `/v1/orgs/${t.org.id}/translations/${created.id}`));
    assert.equal(stillRunning.status, 'running');
    assert.equal(stillRunning.lastError, undefined, 'the waiting try is not recorded as a failed run');

    release();
    await first;
    const done = ok(await t.api('GET', `/v1/orgs/${t.org.id}/translations/${created.id}`));
    assert.equal(done.status, 'completed');
    assert.equal(done.targets.length, 1, 'one target space');
    const spaces = await t.db.selectFrom('translation_targets').select('space_id').execute();
    assert.equal(new Set(spaces.map((s) => s.space_id)).size, 1);

    // The lock was released: the next run (another process this time) runs.
    held = Promise.resolve();
    ok(await t.api('POST', `/v1/orgs/${t.org.id}/translations/${created.id}/run`), 204);
    t.clock.advance(60_000);
    await second.app.jobs.runDue();
    const again = ok(await t.api('GET', `/v1/orgs/${t.org.id}/translations/${created.id}`));
    assert.equal(again.status, 'completed');
    assert.equal(again.stats.runs, 2);
  });
});
