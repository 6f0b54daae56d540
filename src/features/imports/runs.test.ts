import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError } from '../../../test/assertions.ts';
import { buildChangeRequest, buildSpace, editLive } from '../../../test/factories.ts';
import { archive, docx, PNG } from './documents.test-support.ts';
import { newId } from '../../platform/ids.ts';
import { fileKindOf, IMPORT_RUN_RETENTION_MS, purgeFinishedImportRuns, runImportJob } from './runs.ts';
import { findImportRunById, insertImportRun, updateImportRun, type ImportRunRow } from './run-store.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const b64 = (body: string | Buffer) => Buffer.from(body).toString('base64');

describe('import runs', () => {
  let t: TestServer;
  let server: Server;
  let base: string;
  /** Called (once) before the next answer of the test site: a test acts while the job waits on the network. */
  let beforeAnswer: (() => Promise<void>) | undefined;

  const site = (req: IncomingMessage, res: ServerResponse) => {
    const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    switch (req.url) {
      case '/':
        return html('<html><head><title>Acme</title></head><body><main><h1>Acme</h1><p>Read the <a href="/guide.html">guide</a>.</p><img src="/logo.png" alt="Logo"></main></body></html>');
      case '/guide.html':
        return html('<html><head><title>Guide</title></head><body><main><h1>Guide</h1><p>Back <a href="/">home</a>.</p></main></body></html>');
      case '/logo.png':
        return res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
      default:
        return res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
    }
  };

  before(async () => {
    t = await startServer({ env: { ALLOW_PRIVATE_FETCH: 'true' } });
    server = createServer((req, res) => {
      const hook = beforeAnswer;
      beforeAnswer = undefined;
      if (hook) void hook().then(() => site(req, res));
      else site(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await t.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const imports = () => `/v1/org/${t.org.id}/imports`;
  const start = (body: unknown, token?: string) => t.api('POST', imports(), { body, ...(token ? { token } : {}) });
  const getRun = async (id: string): Promise<Json> => {
    const res = await t.api('GET', `${imports()}/${id}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  const pagesOf = async (path: string): Promise<Json[]> => (await t.api('GET', `${path}/content/pages`)).body.pages;
  const revisionOf = async (spaceId: string): Promise<string> => (await t.api('GET', `/v1/spaces/${spaceId}`)).body.revision;
  const markdownOf = async (path: string, id: string): Promise<string> => (await t.api('GET', `${path}/content/page/${id}?format=markdown`)).body.markdown;

  /** Uploads files to a change request's content (insert_files) and answers their ids by name. */
  async function upload(spaceId: string, crId: string, files: { name: string; contentType?: string; body: string | Buffer }[]): Promise<Map<string, string>> {
    const path = `/v1/spaces/${spaceId}/change-requests/${crId}/content`;
    const res = await t.api('POST', `${path}?compat=false`, {
      body: { changes: [{ operation: 'insert_files', files: files.map((f) => ({ name: f.name, ...(f.contentType ? { contentType: f.contentType } : {}), base64: b64(f.body) })) }] },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const listed = await t.api('GET', `${path}/files`);
    return new Map((listed.body.items as Json[]).map((f) => [f.name, f.id]));
  }

  /** Starts a run, runs the job worker, and answers the run as GET then says it. */
  async function runToEnd(body: unknown): Promise<Json> {
    const started = await start(body);
    assert.equal(started.status, 201, JSON.stringify(started.body));
    assert.equal(started.body.status, 'pending');
    await t.app.jobs.runDue();
    return getRun(started.body.id);
  }

  test('a website run is pending, then completed by the job: one revision, its pages with the URLs they came from', async () => {
    const space = await buildSpace(t);
    const before = await revisionOf(space.id);
    const started = await start({ source: { type: 'website', url: `${base}/` }, target: { space: space.id } });
    assert.equal(started.status, 201, JSON.stringify(started.body));
    const run = started.body;
    assert.equal(run.object, 'import-run');
    assert.equal(run.status, 'pending');
    assert.deepEqual(run.pages, []);
    assert.equal(run.startedAt, undefined);
    assert.deepEqual(run.target, { space: space.id });
    assert.deepEqual(run.source, { type: 'website', url: `${base}/` });
    assert.equal(run.createdBy, t.admin.userId);
    assert.equal(run.urls.location, `${t.config.publicUrl}/v1/org/${t.org.id}/imports/${run.id}`);
    assert.equal(await revisionOf(space.id), before, 'nothing is written before the job runs');

    await t.app.jobs.runDue();
    const done = await getRun(run.id);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    assert.ok(done.startedAt && done.completedAt);
    assert.equal(done.revision, await revisionOf(space.id));
    assert.equal(done.importedResources, 3, 'two pages and the image');
    assert.equal(done.step, undefined);
    const pages = await pagesOf(`/v1/spaces/${space.id}`);
    assert.deepEqual(
      pages.map((p) => p.title),
      ['Acme', 'Guide'],
    );
    assert.deepEqual(
      done.pages,
      pages.map((p, i) => ({ id: p.id, sourceURL: [`${base}/`, `${base}/guide.html`][i], type: 'page', status: 'complete' })),
    );
    const files = await t.api('GET', `/v1/spaces/${space.id}/content/files`);
    assert.deepEqual(
      files.body.items.map((f: Json) => f.name),
      ['logo.png'],
    );

    // The job ran to its end: running it again (a worker that lost track of it) writes nothing more.
    await runImportJob(t.app.ctx, { runId: run.id });
    assert.equal(await revisionOf(space.id), done.revision);
  });

  test('markdown and HTML files uploaded to a change request become one page each, in one revision of it', async () => {
    const space = await buildSpace(t);
    const cr = await buildChangeRequest(t, space.id);
    const ids = await upload(space.id, cr.id, [
      { name: 'weekly-notes.md', contentType: 'text/markdown', body: '# Weekly notes\n\nSome **bold** text.\n' },
      { name: 'page.html', contentType: 'text/html', body: '<html><head><title>Hello page</title></head><body><main><p>An <em>HTML</em> page.</p></main></body></html>' },
    ]);
    const run = await runToEnd({ source: { type: 'file', files: [ids.get('weekly-notes.md'), ids.get('page.html')] }, target: { space: space.id, changeRequest: cr.id } });
    assert.equal(run.status, 'completed', JSON.stringify(run));
    const path = `/v1/spaces/${space.id}/change-requests/${cr.id}`;
    assert.equal((await t.api('GET', `${path}/content`)).body.id, run.revision);
    const pages = await pagesOf(path);
    assert.deepEqual(
      pages.map((p) => p.title),
      ['Weekly notes', 'Hello page'],
    );
    assert.deepEqual(
      run.pages.map((p: Json) => p.id),
      pages.map((p) => p.id),
    );
    assert.match(run.pages[0].sourceURL, /\/files\/[0-9a-f]{64}\/weekly-notes\.md$/);
    assert.match(await markdownOf(path, pages[0].id), /\*\*bold\*\*/);
    assert.match(await markdownOf(path, pages[1].id), /_HTML_|\*HTML\*/);
  });

  test('a Word document into a page replaces it, its image a file; a zip archive adds its pages under the target page', async () => {
    const space = await buildSpace(t);
    const [target] = await editLive(t, space.id, [{ operation: 'insert_page', title: 'Target', document: { markdown: 'Old text.' } }]);
    const cr = await buildChangeRequest(t, space.id);
    const ids = await upload(space.id, cr.id, [
      { name: 'release.docx', contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', body: docx() },
      { name: 'book.zip', contentType: 'application/zip', body: archive({ 'intro.md': '# Intro\n', 'guide/README.md': '# Guide\n', 'guide/setup.md': '# Setup\n' }) },
    ]);
    const path = `/v1/spaces/${space.id}/change-requests/${cr.id}`;

    const word = await runToEnd({ source: { type: 'file', files: [ids.get('release.docx')] }, target: { space: space.id, changeRequest: cr.id, page: target } });
    assert.equal(word.status, 'completed', JSON.stringify(word));
    assert.deepEqual(
      word.pages.map((p: Json) => p.id),
      [target],
    );
    const [page] = await pagesOf(path);
    assert.equal(page.title, 'Release notes');
    const text = await markdownOf(path, target!);
    assert.match(text, /\*\*faster\*\*/);
    assert.match(text, /!\[The logo\]\(\/files\//);

    const zip = await runToEnd({ source: { type: 'file', files: [ids.get('book.zip')] }, target: { space: space.id, changeRequest: cr.id, page: target } });
    assert.equal(zip.status, 'completed', JSON.stringify(zip));
    const [after] = await pagesOf(path);
    const titles = (after.pages as Json[]).map((p) => p.title).sort();
    assert.deepEqual(titles, ['Guide', 'Intro']);
    assert.equal(zip.pages.length, 3);
    assert.ok(zip.pages.every((p: Json) => p.type === 'page' && p.status === 'complete'));
  });

  test('a failed fetch or a bad archive fails the run with the reason, and writes nothing', async () => {
    const space = await buildSpace(t);
    const before = await revisionOf(space.id);
    const missing = await runToEnd({ source: { type: 'website', url: `${base}/missing` }, target: { space: space.id } });
    assert.equal(missing.status, 'failed');
    assert.match(missing.reason, /answered HTTP 404/);
    assert.equal(missing.completedAt, undefined);
    assert.equal(await revisionOf(space.id), before);

    const cr = await buildChangeRequest(t, space.id);
    const ids = await upload(space.id, cr.id, [{ name: 'broken.zip', contentType: 'application/zip', body: 'not a zip' }]);
    const crRevision = (await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`)).body.id;
    const broken = await runToEnd({ source: { type: 'file', files: [ids.get('broken.zip')] }, target: { space: space.id, changeRequest: cr.id } });
    assert.equal(broken.status, 'failed');
    assert.match(broken.reason, /not a zip archive/);
    assert.equal((await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`)).body.id, crRevision);
  });

  test('a cancelled run writes nothing, whether cancelled while it waits or while its job fetches; an ended run cannot be cancelled', async () => {
    const space = await buildSpace(t);
    const before = await revisionOf(space.id);
    const waiting = (await start({ source: { type: 'website', url: `${base}/` }, target: { space: space.id } })).body;
    const cancelled = await t.api('POST', `${imports()}/${waiting.id}/cancel`);
    assert.equal(cancelled.status, 201, JSON.stringify(cancelled.body));
    assert.equal(cancelled.body.status, 'cancelled');
    await t.app.jobs.runDue();
    assert.equal((await getRun(waiting.id)).status, 'cancelled');
    assert.equal(await revisionOf(space.id), before);
    assert.equal((await t.api('POST', `${imports()}/${waiting.id}/cancel`)).body.status, 'cancelled', 'cancelling again answers the run');

    // Cancelled while the job waits on the site: the job's write rolls back.
    const running = (await start({ source: { type: 'website', url: `${base}/` }, target: { space: space.id } })).body;
    let during: Json;
    beforeAnswer = async () => {
      during = await getRun(running.id);
      assert.equal((await t.api('POST', `${imports()}/${running.id}/cancel`)).status, 201);
    };
    await t.app.jobs.runDue();
    assert.equal(during.status, 'in-progress');
    assert.equal(during.step, 'fetching');
    assert.equal((await getRun(running.id)).status, 'cancelled');
    assert.equal(await revisionOf(space.id), before, 'a run cancelled mid-way writes nothing');
    assert.deepEqual(await pagesOf(`/v1/spaces/${space.id}`), []);

    const done = await runToEnd({ source: { type: 'website', url: `${base}/guide.html` }, target: { space: space.id } });
    assert.equal(done.status, 'completed');
    assertError(await t.api('POST', `${imports()}/${done.id}/cancel`), 400, /completed: only a pending or in-progress run can be cancelled/);
  });

  test('a job that died mid-run is done again by the worker, writing once', async () => {
    const space = await buildSpace(t);
    const run = (await start({ source: { type: 'website', url: `${base}/guide.html` }, target: { space: space.id } })).body;
    // As a worker that died after marking the run started: the job is still queued, the run in progress.
    assert.ok(await updateImportRun(t.db, run.id, ['pending'], { status: 'in-progress', started_at: t.clock.now().toISOString() }));
    await t.app.jobs.runDue();
    const done = await getRun(run.id);
    assert.equal(done.status, 'completed');
    const pages = await pagesOf(`/v1/spaces/${space.id}`);
    assert.equal(pages.length, done.pages.length);
    await runImportJob(t.app.ctx, { runId: run.id });
    assert.deepEqual(await pagesOf(`/v1/spaces/${space.id}`), pages, 'a second attempt writes nothing');
    assert.equal((await findImportRunById(t.db, run.id))?.revision_id, done.revision);
  });

  /** The queued job of a run (its payload names the run), as the worker stores it. */
  async function jobOf(runId: string) {
    const jobs = await t.db.selectFrom('jobs').selectAll().where('type', '=', 'import-run').execute();
    return jobs.find((job) => (JSON.parse(job.payload) as { runId: string }).runId === runId);
  }

  test('a run whose job is gone fails with the reason, at the next run of the worker; one whose job waits or runs does not', async () => {
    const space = await buildSpace(t);
    const body = { source: { type: 'website', url: `${base}/guide.html` }, target: { space: space.id } };
    const waiting = (await start(body)).body;
    const running = (await start(body)).body;
    const lost = (await start(body)).body;
    const retried = (await start(body)).body;

    // Jobs not due yet (a retry's back-off) or held by another worker: their runs are left as they are.
    const later = new Date(t.clock.now().getTime() + 60_000).toISOString();
    await t.db.updateTable('jobs').set({ run_at: later }).where('id', '=', (await jobOf(waiting.id))!.id).execute();
    await t.db.updateTable('jobs').set({ locked_until: later }).where('id', '=', (await jobOf(running.id))!.id).execute();
    assert.ok(await updateImportRun(t.db, running.id, ['pending'], { status: 'in-progress', progress: 'fetching' }));
    await t.db.updateTable('jobs').set({ run_at: later, attempts: 3, last_error: 'database is locked' }).where('id', '=', (await jobOf(retried.id))!.id).execute();
    assert.ok(await updateImportRun(t.db, retried.id, ['pending'], { status: 'in-progress' }));
    // The job of the last one is gone, as a job dropped after its last attempt.
    await t.db.deleteFrom('jobs').where('id', '=', (await jobOf(lost.id))!.id).execute();
    t.clock.advance(1000);

    await t.app.jobs.runDue();
    const failed = await getRun(lost.id);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.reason, 'The import stopped: its job was lost; start the import again');
    assert.equal(failed.step, undefined);
    assert.equal(failed.updatedAt, t.clock.now().toISOString());
    assert.equal((await getRun(waiting.id)).status, 'pending');
    assert.equal((await getRun(running.id)).status, 'in-progress');
    assert.equal((await getRun(retried.id)).status, 'in-progress');
    const active = await t.api('GET', `${imports()}?space=${space.id}&status=active`);
    assert.deepEqual(active.body.items.map((r: Json) => r.id).sort(), [waiting.id, running.id, retried.id].sort());
    assert.deepEqual((await t.api('GET', `${imports()}?space=${space.id}&status=failed`)).body.items.map((r: Json) => r.id), [lost.id]);

    // Once due (and the other worker's lock expired), the jobs run and end their runs; the failed run stays failed.
    t.clock.advance(61_000);
    await t.app.jobs.runDue();
    for (const run of [waiting, running, retried]) assert.equal((await getRun(run.id)).status, 'completed', run.id);
    assert.equal((await getRun(lost.id)).status, 'failed');
  });

  test('the source and target are checked when the run starts: 400 naming the field', async () => {
    const space = await buildSpace(t);
    const cr = await buildChangeRequest(t, space.id);
    const ids = await upload(space.id, cr.id, [
      { name: 'notes.md', contentType: 'text/markdown', body: '# Notes\n' },
      { name: 'logo.png', contentType: 'image/png', body: PNG },
      { name: 'book.zip', contentType: 'application/zip', body: archive({ 'a.md': '# A\n' }) },
    ]);
    const target = { space: space.id, changeRequest: cr.id };
    assertError(await start({ source: { type: 'file', files: ['nope'] }, target }), 400, /body\/source\/files\/0: no file "nope"/);
    assertError(await start({ source: { type: 'file', files: [ids.get('logo.png')] }, target }), 400, /body\/source\/files\/0: "logo\.png" \(image\/png\) is not a markdown, HTML/);
    assertError(await start({ source: { type: 'file', files: [ids.get('notes.md'), ids.get('book.zip')] }, target }), 400, /^body\/source\/files: a zip archive is imported on its own/);
    assertError(await start({ source: { type: 'file', files: [ids.get('notes.md'), ids.get('notes.md')] }, target }), 400, /listed twice/);
    // A file of the change request is not a file of the space's content.
    assertError(await start({ source: { type: 'file', files: [ids.get('notes.md')] }, target: { space: space.id } }), 400, /no file/);
    assertError(await start({ source: { type: 'website', url: 'ftp://example.com/' }, target: { space: space.id } }), 400, /^body\/source\/url: only http and https URLs can be imported, not ftp$/);
    assertError(await start({ source: { type: 'website' }, target: { space: space.id } }), 400, /source/);
    assertError(await start({ source: { type: 'website', url: `${base}/` }, target: {} }), 400, /target/);
    assertError(await start({ source: { type: 'website', url: `${base}/` }, target: { space: space.id, page: 'nope' } }), 404, /No page nope/);

    // The import checks the files again when the job runs (a payload queued before the start checked them):
    // the run fails naming the same field.
    const notes = (await start({ source: { type: 'file', files: [ids.get('notes.md')] }, target })).body;
    const book = (await start({ source: { type: 'file', files: [ids.get('book.zip')] }, target })).body;
    const payloadOf = async (runId: string) => JSON.parse((await jobOf(runId))!.payload) as { runId: string; files: unknown[] };
    await runImportJob(t.app.ctx, { runId: notes.id, files: [...(await payloadOf(notes.id)).files, ...(await payloadOf(book.id)).files] });
    const refused = await getRun(notes.id);
    assert.equal(refused.status, 'failed');
    assert.match(refused.reason, /^body\/source\/files: a zip archive is imported on its own/);
    assert.equal((await t.api('POST', `${imports()}/${book.id}/cancel`)).status, 201);
    await t.app.jobs.runDue();
  });

  test('rights: another organization sees no run and no space (404), a reader may not start or cancel one (403)', async () => {
    const space = await buildSpace(t);
    const outsider = await t.outsider();
    const reader = await t.member('read');
    const body = { source: { type: 'website', url: `${base}/` }, target: { space: space.id } };
    assertError(await start(body, outsider.token), 404, /space/i);
    assertError(await start(body, reader.token), 403, /edit role/);
    assertError(await t.api('POST', `/v1/org/${outsider.organizationId}/imports`, { body }), 404, /No space .* in organization/);
    const run = (await start(body)).body;
    assertError(await t.api('GET', `${imports()}/${run.id}`, { token: outsider.token }), 404, /No import run/);
    assertError(await t.api('GET', `/v1/org/${outsider.organizationId}/imports/${run.id}`, { token: outsider.token }), 404, /No import run/);
    assertError(await t.api('POST', `${imports()}/${run.id}/cancel`, { token: outsider.token }), 404, /No import run/);
    assertError(await t.api('POST', `${imports()}/${run.id}/cancel`, { token: reader.token }), 403, /edit role/);
    assert.equal((await t.api('GET', `${imports()}/${run.id}`, { token: reader.token })).status, 200, 'a reader of the space sees its runs');
    assertError(await t.api('GET', imports(), { token: outsider.token }), 404);
    await t.app.jobs.runDue();
  });

  test('the list: newest first, filtered by space and status', async () => {
    const space = await buildSpace(t);
    const other = await buildSpace(t);
    const first = (await start({ source: { type: 'website', url: `${base}/guide.html` }, target: { space: space.id } })).body;
    t.clock.advance(1000);
    const second = (await start({ source: { type: 'website', url: `${base}/missing` }, target: { space: space.id } })).body;
    t.clock.advance(1000);
    await start({ source: { type: 'website', url: `${base}/guide.html` }, target: { space: other.id } });
    const listed = await t.api('GET', `${imports()}?space=${space.id}`);
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.equal(listed.body.count, 2);
    assert.deepEqual(
      listed.body.items.map((r: Json) => r.id),
      [second.id, first.id],
    );
    assert.equal((await t.api('GET', `${imports()}?space=${space.id}&status=active`)).body.count, 2);
    await t.app.jobs.runDue();
    assert.deepEqual(
      (await t.api('GET', `${imports()}?space=${space.id}&status=failed`)).body.items.map((r: Json) => r.id),
      [second.id],
    );
    const paged = await t.api('GET', `${imports()}?space=${space.id}&limit=1`);
    assert.equal(paged.body.items[0].id, second.id);
    assert.equal((await t.api('GET', `${imports()}?space=${space.id}&limit=1&page=${paged.body.next.page}`)).body.items[0].id, first.id);
  });

  // Last of the file: it moves the shared clock on by more than the retention.
  test('finished runs are deleted 90 days after they ended by a sweep of the worker; a run still active never is', async () => {
    const DAY = 24 * 60 * 60 * 1000;
    const space = await buildSpace(t);
    const body = (path: string) => ({ source: { type: 'website', url: `${base}${path}` }, target: { space: space.id } });
    const completed = await runToEnd(body('/guide.html'));
    const failed = await runToEnd(body('/missing'));
    const cancelled = (await start(body('/guide.html'))).body;
    assert.equal((await t.api('POST', `${imports()}/${cancelled.id}/cancel`)).status, 201);
    // In progress, its job held by a worker (of another process) for longer than the retention.
    const running = (await start(body('/guide.html'))).body;
    const held = new Date(t.clock.now().getTime() + 2 * IMPORT_RUN_RETENTION_MS).toISOString();
    await t.db.updateTable('jobs').set({ locked_until: held }).where('id', '=', (await jobOf(running.id))!.id).execute();
    assert.ok(await updateImportRun(t.db, running.id, ['pending'], { status: 'in-progress', progress: 'fetching' }));

    t.clock.advance(IMPORT_RUN_RETENTION_MS - DAY);
    const recent = await runToEnd(body('/guide.html'));
    assert.equal(await purgeFinishedImportRuns(t.app.ctx), 0, 'finished less than 90 days ago: kept');

    t.clock.advance(2 * DAY);
    await t.app.jobs.runDue();
    for (const run of [completed, failed, cancelled]) assertError(await t.api('GET', `${imports()}/${run.id}`), 404, /No import run/);
    assert.equal((await getRun(recent.id)).status, 'completed', 'finished two days ago');
    assert.equal((await getRun(running.id)).status, 'in-progress', 'older than the retention, but still running');
    const listed = await t.api('GET', `${imports()}?space=${space.id}`);
    assert.deepEqual(
      listed.body.items.map((r: Json) => r.id),
      [recent.id, running.id],
    );
    assert.equal(await purgeFinishedImportRuns(t.app.ctx), 0, 'idempotent');
    await t.app.jobs.runDue();
    assert.equal((await t.api('GET', `${imports()}?space=${space.id}`)).body.count, 2);
  });

  test('a backlog of finished runs is deleted in bounded batches: one sweep deletes its share, the next the rest', async () => {
    await purgeFinishedImportRuns(t.app.ctx); // what earlier tests left, so the counts below are this test's
    const space = await buildSpace(t);
    const long = new Date(t.clock.now().getTime() - IMPORT_RUN_RETENTION_MS - 1000).toISOString();
    const row = (status: string): ImportRunRow => ({
      id: newId(),
      organization_id: t.org.id,
      space_id: space.id,
      change_request_id: null,
      page_id: null,
      source: JSON.stringify({ type: 'website', url: `${base}/` }),
      status,
      progress: null,
      imported_resources: 0,
      total_resources: 0,
      revision_id: null,
      pages: '[]',
      error: null,
      caller: JSON.stringify({ kind: 'user', userId: t.admin.userId, tokenId: '' }),
      created_by: t.admin.userId,
      created_at: long,
      started_at: null,
      completed_at: null,
      updated_at: long,
    });
    for (let i = 0; i < 45; i += 1) await insertImportRun(t.db, row(['completed', 'failed', 'cancelled'][i % 3]!));
    const pending = row('pending');
    await insertImportRun(t.db, pending);
    const left = async () => (await t.api('GET', `${imports()}?space=${space.id}`)).body.count as number;
    // Batches of 2: twenty per sweep.
    assert.equal(await purgeFinishedImportRuns(t.app.ctx, 2), 40);
    assert.equal(await left(), 6);
    assert.equal(await purgeFinishedImportRuns(t.app.ctx, 2), 5);
    assert.equal(await purgeFinishedImportRuns(t.app.ctx, 2), 0, 'idempotent');
    assert.equal((await findImportRunById(t.db, pending.id))?.status, 'pending', 'a pending run is never deleted');
  });
});

test('a file is a document by its extension first, else by its media type', () => {
  assert.equal(fileKindOf('release.docx', 'application/zip'), 'docx');
  assert.equal(fileKindOf('notes.md', 'text/plain'), 'markdown');
  assert.equal(fileKindOf('export', 'text/html; charset=utf-8'), 'html');
  assert.equal(fileKindOf('archive', 'application/zip'), 'zip');
  assert.equal(fileKindOf('logo.png', 'image/png'), undefined);
});
