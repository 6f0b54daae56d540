import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { officialClient, rejectsWith, type OfficialClient } from './gitbook-client.ts';
import { listenOnRandomPort, startServer, type TestServer } from '../helpers.ts';
import { OfficialSpec, specCheckedFetch, type CheckedExchange } from './spec-validator.ts';
import { ok } from '../assertions.ts';
import { buildChangeRequest, buildPage, buildSpace, mergeChangeRequest, writeContent } from '../factories.ts';

/**
 * Issue 12 (links and backlinks) over real HTTP with the official client; every answer is checked against the
 * official spec by specCheckedFetch.
 */
describe('links and backlinks end to end, through the official client', { timeout: 120_000 }, () => {
  let t: TestServer;
  let endpoint: string;
  const spec = OfficialSpec.load();
  const log: CheckedExchange[] = [];
  const client = (token: string): OfficialClient => officialClient({ endpoint, authToken: token, serviceBinding: { fetch: specCheckedFetch(spec, log) } });

  before(async () => {
    t = await startServer();
    endpoint = await listenOnRandomPort(t);
  });
  after(() => t.close(), { timeout: 30_000 });

  test('a space lists its links and backlinks; a change request that deletes the target breaks them there', async () => {
    const space = await buildSpace(t, { title: 'Linked docs' });
    const target = await buildPage(t, space.id, { title: 'Target', markdown: '## Setup\n\nSteps.' });
    const upload = await buildChangeRequest(t, space.id);
    const files = ok(
      await t.api('POST', `/v1/spaces/${space.id}/change-requests/${upload.id}/content?compat=false`, {
        body: { changes: [{ operation: 'insert_files', files: [{ name: 'notes.txt', contentType: 'text/plain', base64: Buffer.from('notes').toString('base64') }] }] },
      }),
    );
    await mergeChangeRequest(t, space.id, upload.id);
    const fileId: string = files.insertedFiles[0].id;
    const source = await buildPage(t, space.id, {
      title: 'Source',
      markdown: `[target](/pages/${target}) [setup](/pages/${target}#setup) [notes](/files/${fileId}) [gone](/pages/nope) [site](https://example.test/)`,
    });
    const api = client(t.admin.token);

    const { data: links } = await api.spaces.listSpaceLinks(space.id);
    assert.equal(links.items.length, 5);
    assert.deepEqual(links.stats, { total: 5, broken: { total: 1 } });
    const { data: broken } = await api.spaces.listSpaceLinks(space.id, { status: 'broken' as never });
    assert.equal(broken.items.length, 1);

    const { data: pageLinks } = await api.spaces.listPageLinksInSpace(space.id, source);
    assert.equal(pageLinks.items.length, 5);
    const { data: backlinks } = await api.spaces.listSpacePageBacklinks(space.id, target);
    assert.deepEqual(
      backlinks.items.map((l) => (l.kind === 'page' ? l.page.id : l.kind)),
      [source],
    );
    const { data: fileBacklinks } = await api.spaces.listSpaceFileBacklinks(space.id, fileId);
    assert.equal(fileBacklinks.items.length, 1);

    const cr = await buildChangeRequest(t, space.id);
    await writeContent(t, space.id, cr.id, [{ operation: 'delete_page', page: target }]);
    const { data: inCr } = await api.spaces.listPageLinksInChangeRequest(space.id, cr.id, source);
    assert.deepEqual(inCr.stats, { total: 5, broken: { total: 3, changeRequest: 2 } });
    const { data: crFileBacklinks } = await api.spaces.listChangeRequestFileBacklinks(space.id, cr.id, fileId);
    assert.equal(crFileBacklinks.items.length, 1);

    const outsider = await t.outsider();
    await rejectsWith(client(outsider.token).spaces.listSpaceLinks(space.id), 404);
    await rejectsWith(api.spaces.listSpacePageBacklinks(space.id, 'nope'), 404);
    assert.ok(log.length >= 9 && log.every((e) => e.problems.length === 0));
  });
});
