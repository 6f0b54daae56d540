import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { e2eSession } from './e2e-session.ts';
import { OfficialSpec } from './spec-validator.ts';
import { buildChangeRequest, buildSpace } from '../factories.ts';

/**
 * Import runs (issue 13) over real HTTP with the official client: startImportRun and cancelImportRun through
 * its methods, every exchange checked against the official spec; the run read back with getImportRun (official
 * only since @gitbook/api 0.202, so its body is checked against the pinned spec's ContentImportRun schema).
 */
describe('import runs end to end, through the official client', { timeout: 120_000 }, () => {
  const session = e2eSession({ env: { ALLOW_PRIVATE_FETCH: 'true' } });
  const spec = OfficialSpec.load();
  let site: Server;
  let base = '';

  before(async () => {
    site = createServer((req, res) => {
      if (req.url === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Home</title><main><h1>Home</h1><p>See the <a href="/faq.html">FAQ</a>.</p></main>');
      if (req.url === '/faq.html') return res.writeHead(200, { 'content-type': 'text/html' }).end('<title>FAQ</title><main><h1>FAQ</h1><p>Answers.</p></main>');
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => site.close(() => resolve())));

  async function getRun(id: string) {
    const { t, endpoint } = session;
    const res = await fetch(`${endpoint}/v1/org/${t.org.id}/imports/${id}`, { headers: { authorization: `Bearer ${t.admin.token}` } });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { id: string; status: string; pages: { id: string; sourceURL?: string }[]; revision?: string };
    assert.deepEqual(spec.schemaProblems('ContentImportRun', body), []);
    return body;
  }

  test('a website import run started by the client completes with its pages; another is cancelled', async () => {
    const { t } = session;
    const api = session.client();
    const space = await buildSpace(t, { title: 'Imported' });

    const { data: started } = await api.org.startImportRun(t.org.id, { source: { type: 'website', url: `${base}/` }, target: { space: space.id } });
    assert.equal(started.status, 'pending');
    await t.app.jobs.runDue();
    const done = await getRun(started.id);
    assert.equal(done.status, 'completed');
    const { data: pages } = await api.spaces.listPages(space.id);
    assert.deepEqual(
      pages.pages.map((p) => p.title),
      ['Home', 'FAQ'],
    );
    assert.deepEqual(
      done.pages.map((p) => [p.id, p.sourceURL]),
      pages.pages.map((p, i) => [p.id, [`${base}/`, `${base}/faq.html`][i]]),
    );

    const cr = await buildChangeRequest(t, space.id);
    const { data: waiting } = await api.org.startImportRun(t.org.id, { source: { type: 'website', url: `${base}/faq.html` }, target: { space: space.id, changeRequest: cr.id } });
    const { data: cancelled } = await api.org.cancelImportRun(t.org.id, waiting.id);
    assert.equal(cancelled.status, 'cancelled');
    await t.app.jobs.runDue();
    assert.equal((await getRun(waiting.id)).status, 'cancelled');

    session.assertConformed(['startImportRun', 'cancelImportRun', 'listPages']);
  });
});
