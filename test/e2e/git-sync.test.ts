import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rejectsWith } from './gitbook-client.ts';
import { e2eSession } from './e2e-session.ts';
import { buildSpace } from '../factories.ts';
import { startGitServer, type GitServer } from '../../src/features/git-sync/git-server.test-support.ts';

/** The newest spec's GitSyncState (0.202.0) adds the last operation; the 0.143.2 client's type predates it. */
type WithOperation = { operation?: { state: string; direction: string; error?: string } };

/**
 * Issue 13 (Git Sync) over real HTTP with the official client; every answer is checked against the official
 * spec by specCheckedFetch. The repository is served by git http-backend on 127.0.0.1.
 */
describe('Git Sync end to end, through the official client', { timeout: 180_000 }, () => {
  const session = e2eSession({ env: { ALLOW_PRIVATE_FETCH: 'true' } });
  let git: GitServer;

  before(async () => {
    git = await startGitServer();
    git.createRepository('handbook', {
      'README.md': '# Handbook\n\nSee [the policy](policies/leave.md#days).\n',
      'SUMMARY.md': '# Table of contents\n\n* [Handbook](README.md)\n\n## Policies\n\n* [Leave](policies/leave.md)\n',
      'policies/leave.md': '---\ndescription: Days off\n---\n\n# Leave\n\n## Days\n\nTwenty-five.\n',
    });
  });
  after(() => git?.close());

  test('a repository imports, the space exports back, and the git info tells each operation', async () => {
    const { t } = session;
    const space = await buildSpace(t, { title: 'Handbook' });
    const api = session.client();
    await rejectsWith(api.spaces.getSpaceGitInfo(space.id), 404);

    const started = await api.spaces.importGitRepository(space.id, { url: git.url('handbook'), ref: 'refs/heads/main' });
    assert.equal(started.status, 204);
    await t.app.jobs.runDue();
    const imported = (await api.spaces.getSpaceGitInfo(space.id)).data as WithOperation;
    assert.equal(imported.operation?.state, 'success', imported.operation?.error);
    assert.equal(imported.operation?.direction, 'import');

    const { data: revision } = await api.spaces.getCurrentRevision(space.id);
    assert.deepEqual(
      revision.pages.map((p) => [p.title, p.type]),
      [
        ['Handbook', 'document'],
        ['Policies', 'group'],
      ],
    );

    await api.spaces.exportToGitRepository(space.id, { url: git.url('handbook'), ref: 'refs/heads/quire', commitMessage: 'Sync from Quire' });
    await t.app.jobs.runDue();
    const exported = (await api.spaces.getSpaceGitInfo(space.id)).data as WithOperation;
    assert.equal(exported.operation?.state, 'success', exported.operation?.error);
    assert.equal(exported.operation?.direction, 'export');
    const files = git.filesOf('handbook', 'quire');
    assert.equal(files.get('policies/leave.md')?.toString(), '---\ndescription: Days off\n---\n\n# Leave\n\n## Days\n\nTwenty-five.\n');
    assert.match(files.get('README.md')!.toString(), /\[the policy\]\(policies\/leave\.md#days\)/);
    session.assertConformed(['getSpaceGitInfo', 'importGitRepository', 'getCurrentRevision', 'exportToGitRepository']);
  });
});
