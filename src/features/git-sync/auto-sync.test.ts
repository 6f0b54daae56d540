import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError } from '../../../test/assertions.ts';
import { buildChangeRequest, buildSpace, mergeChangeRequest, writeContent } from '../../../test/factories.ts';
import { startGitServer, type GitServer } from './git-server.test-support.ts';
import { bitbucketCloudPush, githubPush, giteaPush, gitlabPush } from './webhook-payloads.test-support.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/*
 * Git Sync both ways without a call (auto-sync.ts), against a real Git server over smart HTTP: what a merge or a
 * live edit becomes on the branch, what a push becomes in the space, a push and an edit at once, the webhooks of
 * four Git servers, a monorepo, and a soak of both sides changing for a while.
 */

const LAYOUT = {
  '.gitbook.yaml': 'root: ./\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n',
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide.md)\n* [Reference](reference.md)\n',
  'README.md': '# Welcome\n\nThe welcome page.\n',
  'guide.md': '# Guide\n\nFirst step.\n\nSecond step.\n\nThird step.\n',
  'reference.md': '# Reference\n\nThe reference.\n',
};

describe('Git Sync both ways, automatically', () => {
  let t: TestServer;
  let git: GitServer;
  let repo = 0;

  before(async () => {
    // No waiting for a quiet main, no polling: each test says when the worker runs.
    t = await startServer({ env: { ALLOW_PRIVATE_FETCH: 'true', GIT_SYNC_DEBOUNCE_MS: '0', GIT_SYNC_POLL_INTERVAL_MS: '0' } });
    git = await startGitServer();
  });
  after(async () => {
    await git.close();
    await t.close();
  });

  /** A space connected by importing a new repository (`files` in `folder`); its pages by title. */
  async function connected(files: Record<string, string> = LAYOUT, options: { folder?: string; name?: string; title?: string } = {}) {
    const name = options.name ?? `docs-${++repo}`;
    if (!options.name) git.createRepository(name, files);
    const space = await buildSpace(t, { title: options.title ?? 'Synced' });
    const started = await t.api('POST', `/v1/spaces/${space.id}/git/import`, {
      body: { url: git.url(name), ref: 'refs/heads/main', ...(options.folder ? { repoProjectDirectory: options.folder } : {}) },
    });
    assert.equal(started.status, 204, JSON.stringify(started.body));
    await t.app.jobs.runDue();
    const info = (await t.api('GET', `/v1/spaces/${space.id}/git/info`)).body;
    assert.equal(info.operation.state, 'success', info.operation.error);
    assert.equal(info.sync.connected, true);
    return { space, name, pages: await pagesByTitle(space.id) };
  }

  async function pagesByTitle(spaceId: string): Promise<Record<string, string>> {
    const flatten = (pages: Json[]): Json[] => pages.flatMap((p) => [p, ...flatten(p.pages ?? [])]);
    const pages = flatten((await t.api('GET', `/v1/spaces/${spaceId}/content/pages`)).body.pages);
    return Object.fromEntries(pages.map((p) => [p.title, p.id]));
  }

  async function markdownOf(spaceId: string, pageId: string): Promise<string> {
    return (await t.api('GET', `/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`)).body.markdown;
  }

  async function liveEdit(spaceId: string, pageId: string, text: string) {
    const res = await t.api('POST', `/v1/spaces/${spaceId}/content`, { body: { changes: [{ operation: 'update_page', page: pageId, document: { markdown: text } }] } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }

  async function info(spaceId: string): Promise<Json> {
    return (await t.api('GET', `/v1/spaces/${spaceId}/git/info`)).body;
  }

  async function webhookOf(spaceId: string): Promise<{ url: string; secret: string }> {
    const res = await t.api('POST', `/v1/spaces/${spaceId}/git/webhook`);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  }

  /** Posts a delivery to the webhook's path, signed as `provider` signs (or with `signature` as given). */
  async function deliver(url: string, provider: 'github' | 'gitlab' | 'gitea' | 'bitbucket', payload: unknown, secret: string, options: { event?: string; wrong?: boolean } = {}) {
    const body = JSON.stringify(payload);
    const key = options.wrong ? `${secret}x` : secret;
    const hmac = createHmac('sha256', key).update(body).digest('hex');
    const headers: Record<string, string> = {
      github: { 'x-github-event': options.event ?? 'push', 'x-hub-signature-256': `sha256=${hmac}` },
      gitlab: { 'x-gitlab-event': options.event ?? 'Push Hook', 'x-gitlab-token': key },
      gitea: { 'x-gitea-event': options.event ?? 'push', 'x-gitea-signature': hmac, 'x-github-event': 'push' },
      bitbucket: { 'x-event-key': options.event ?? 'repo:push', 'x-hub-signature': `sha256=${hmac}` },
    }[provider];
    return t.api('POST', new URL(url).pathname, { token: null, headers: { 'content-type': 'application/json', ...headers }, body });
  }

  test('a live edit becomes one commit on the branch, authored by its writer and committed by Quire; the commit is not imported back', async () => {
    const { space, name, pages } = await connected();
    await liveEdit(space.id, pages.Guide!, 'First step.\n\nSecond step, edited in Quire.\n\nThird step.');
    await t.app.jobs.runDue();
    const head = git.headCommit(name, 'main');
    const me = (await t.api('GET', '/v1/user')).body;
    assert.equal(head.message, `Live edit by ${me.displayName}`);
    assert.equal(head.author, `${me.displayName} <${me.email}>`);
    assert.match(head.committer, /^Quire </);
    assert.match(git.filesOf(name, 'main').get('guide.md')!.toString(), /Second step, edited in Quire\./);

    const synced = await info(space.id);
    assert.equal(synced.sync.lastSync.direction, 'export');
    assert.equal(synced.sync.lastSync.commit, head.oid);
    assert.equal(synced.sync.pending, undefined);
    // Nothing more to do: the next runs neither commit nor import.
    const revision = (await t.api('GET', `/v1/spaces/${space.id}`)).body.revision;
    await t.app.jobs.runDue();
    await t.api('POST', `/v1/spaces/${space.id}/git/sync`);
    await t.app.jobs.runDue();
    assert.equal(git.headCommit(name, 'main').oid, head.oid);
    assert.equal((await t.api('GET', `/v1/spaces/${space.id}`)).body.revision, revision);
  });

  test("a merged change request is a commit named after its subject and number, by the change request's author", async () => {
    const { space, name, pages } = await connected();
    const cr = await buildChangeRequest(t, space.id, { subject: 'Explain the third step' });
    await writeContent(t, space.id, cr.id, [{ operation: 'update_page', page: pages.Guide, document: { markdown: 'First step.\n\nSecond step.\n\nThird step, explained.' } }]);
    await mergeChangeRequest(t, space.id, cr.id);
    await t.app.jobs.runDue();
    const head = git.headCommit(name, 'main');
    assert.equal(head.message, `Explain the third step (#${cr.number})`);
    assert.match(git.filesOf(name, 'main').get('guide.md')!.toString(), /Third step, explained\./);
  });

  test('a push announced by a signed GitHub webhook becomes the space’s content; a bad signature is refused and queues nothing', async () => {
    const { space, name, pages } = await connected();
    const hook = await webhookOf(space.id);
    assert.match(hook.url, new RegExp(`/v1/git-sync/hooks/${space.id}$`));
    assert.equal((await info(space.id)).sync.webhook.configured, true);
    git.commit(name, 'main', { 'reference.md': '# Reference\n\nThe reference, pushed from Git.\n' }, 'Update the reference');

    const refused = await deliver(hook.url, 'github', { ref: 'refs/heads/main' }, hook.secret, { wrong: true });
    assert.equal(refused.status, 401);
    assert.match(refused.body.error.message, /X-Hub-Signature-256/);
    assert.equal((await info(space.id)).sync.pending, undefined, 'nothing queued');
    assert.match((await info(space.id)).sync.webhook.lastDelivery.result, /refused/);

    const accepted = await deliver(hook.url, 'github', githubPush('main', git.headCommit(name, 'main').oid), hook.secret);
    assert.equal(accepted.status, 202);
    assert.equal(accepted.body.accepted, true);
    assert.equal((await info(space.id)).sync.pending, 'import');
    await t.app.jobs.runDue();
    assert.match(await markdownOf(space.id, pages.Reference!), /The reference, pushed from Git\./);
    const synced = await info(space.id);
    assert.equal(synced.sync.lastSync.direction, 'import');
    assert.equal(synced.sync.lastSync.by, 'Dana Git');
    assert.equal(synced.sync.lastSync.commit, git.headCommit(name, 'main').oid);
    // The import is not exported back as a commit of its own.
    const head = git.headCommit(name, 'main').oid;
    await t.app.jobs.runDue();
    assert.equal(git.headCommit(name, 'main').oid, head);
  });

  test('GitLab, Gitea and Bitbucket pushes are verified their own way; other events and branches are acknowledged and ignored', async () => {
    const { space } = await connected();
    const hook = await webhookOf(space.id);
    for (const [provider, payload] of [['gitlab', gitlabPush('main')], ['gitea', giteaPush('main')], ['bitbucket', bitbucketCloudPush('main')]] as const) {
      const wrong = await deliver(hook.url, provider, payload, hook.secret, { wrong: true });
      assert.equal(wrong.status, 401, provider);
      const right = await deliver(hook.url, provider, payload, hook.secret);
      assert.equal(right.status, 202, provider);
      assert.equal(right.body.accepted, true, provider);
    }
    const other = await deliver(hook.url, 'github', githubPush('feature'), hook.secret);
    assert.deepEqual([other.status, other.body.accepted], [202, false]);
    assert.match(other.body.message, /refs\/heads\/feature/);
    const ping = await deliver(hook.url, 'github', { zen: 'hi' }, hook.secret, { event: 'ping' });
    assert.deepEqual([ping.status, ping.body.accepted], [202, false]);
    const unsigned = await t.api('POST', new URL(hook.url).pathname, { token: null, headers: { 'content-type': 'application/json', 'x-github-event': 'push' }, body: '{}' });
    assertError(unsigned, 401);
    const unknown = await t.api('POST', new URL(hook.url).pathname, { token: null, headers: { 'content-type': 'application/json' }, body: '{}' });
    assertError(unknown, 400, /X-GitHub-Event/);
    // A new secret replaces the old one.
    const next = await webhookOf(space.id);
    assert.equal((await deliver(hook.url, 'github', { ref: 'refs/heads/main' }, hook.secret)).status, 401);
    assert.equal((await deliver(next.url, 'github', { ref: 'refs/heads/main' }, next.secret)).status, 202);
    // A space without a webhook, or unknown: 404.
    const { space: bare } = await connected();
    assertError(await deliver(`http://quire.test/v1/git-sync/hooks/${bare.id}`, 'github', { ref: 'refs/heads/main' }, 'x'), 404);
    assertError(await deliver('http://quire.test/v1/git-sync/hooks/nope', 'github', { ref: 'refs/heads/main' }, 'x'), 404);
  });

  test('a push and an edit of other pages at once are merged: both reach the space and the branch', async () => {
    const { space, name, pages } = await connected();
    git.commit(name, 'main', { 'reference.md': '# Reference\n\nThe reference, from Git.\n' }, 'Reference from Git');
    await liveEdit(space.id, pages.Welcome!, 'Welcome, from Quire.');
    await t.api('POST', `/v1/spaces/${space.id}/git/sync`);
    await t.app.jobs.runDue();
    assert.match(await markdownOf(space.id, pages.Reference!), /The reference, from Git\./);
    assert.match(await markdownOf(space.id, pages.Welcome!), /Welcome, from Quire\./);
    const files = git.filesOf(name, 'main');
    assert.match(files.get('reference.md')!.toString(), /The reference, from Git\./);
    assert.match(files.get('README.md')!.toString(), /Welcome, from Quire\./);
    const state = await info(space.id);
    assert.equal(state.sync.error, undefined, state.sync.error);
    assert.equal(state.sync.pausedBy, undefined);
  });

  test('a push and an edit of the same paragraph conflict: a change request holds the push, exporting waits, and closing it resumes', async () => {
    const { space, name, pages } = await connected();
    git.commit(name, 'main', { 'guide.md': '# Guide\n\nFirst step.\n\nSecond step, as Git says.\n\nThird step.\n' }, 'Second step from Git');
    const pushed = git.headCommit(name, 'main').oid;
    await liveEdit(space.id, pages.Guide!, 'First step.\n\nSecond step, as Quire says.\n\nThird step.');
    await t.api('POST', `/v1/spaces/${space.id}/git/sync`);
    await t.app.jobs.runDue();

    const state = await info(space.id);
    assert.ok(state.sync.pausedBy, JSON.stringify(state.sync));
    assert.match(state.sync.error, new RegExp(`Change request #${state.sync.pausedBy.number} holds it`));
    assert.match(await markdownOf(space.id, pages.Guide!), /as Quire says/, "main keeps Quire's edit");
    assert.equal(git.headCommit(name, 'main').oid, pushed, 'nothing exported over the push');
    const cr = (await t.api('GET', `/v1/spaces/${space.id}/change-requests/${state.sync.pausedBy.id}`)).body;
    assert.equal(cr.status, 'open');
    const inCr = (await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${pages.Guide}?format=markdown`)).body.markdown;
    assert.match(inCr, /as Git says/, "the push is kept in the change request");
    // Still paused on the next runs.
    await liveEdit(space.id, pages.Welcome!, 'Welcome again.');
    await t.app.jobs.runDue();
    assert.equal(git.headCommit(name, 'main').oid, pushed);

    // Closing it keeps the space as it is: exporting resumes with Quire's version.
    const closed = await t.api('PATCH', `/v1/spaces/${space.id}/change-requests/${cr.id}`, { body: { status: 'archived' } });
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    await t.app.jobs.runDue();
    assert.match(git.filesOf(name, 'main').get('guide.md')!.toString(), /as Quire says/);
    const resumed = await info(space.id);
    assert.equal(resumed.sync.pausedBy, undefined);
    assert.equal(resumed.sync.error, undefined);
  });

  test('one push changing two spaces’ folders of a monorepo imports into both; an export touches only its own folder', async () => {
    const files: Record<string, string> = { 'shared/keep.txt': 'not docs\n' };
    for (const folder of ['a', 'b']) for (const [path, text] of Object.entries(LAYOUT)) files[`${folder}/${path}`] = text.replace('The welcome page.', `The welcome page of ${folder}.`);
    git.createRepository('mono', files);
    const a = await connected(files, { folder: 'a', name: 'mono', title: 'A' });
    const b = await connected(files, { folder: 'b', name: 'mono', title: 'B' });
    const hook = await webhookOf(a.space.id);
    git.commit('mono', 'main', { 'a/reference.md': '# Reference\n\nA, pushed.\n', 'b/reference.md': '# Reference\n\nB, pushed.\n' }, 'Both folders');
    assert.equal((await deliver(hook.url, 'github', { ref: 'refs/heads/main' }, hook.secret)).status, 202);
    await t.app.jobs.runDue();
    assert.match(await markdownOf(a.space.id, a.pages.Reference!), /A, pushed\./);
    assert.match(await markdownOf(b.space.id, b.pages.Reference!), /B, pushed\./);

    await liveEdit(a.space.id, a.pages.Guide!, 'Only A changes.');
    await t.app.jobs.runDue();
    const after = git.filesOf('mono', 'main');
    assert.match(after.get('a/guide.md')!.toString(), /Only A changes\./);
    assert.equal(after.get('b/guide.md')!.toString(), files['b/guide.md']);
    assert.equal(after.get('shared/keep.txt')!.toString(), 'not docs\n');
    // B's folder did not change in A's commit: B imports nothing and exports nothing.
    const bRevision = (await t.api('GET', `/v1/spaces/${b.space.id}`)).body.revision;
    await t.api('POST', `/v1/spaces/${b.space.id}/git/sync`);
    await t.app.jobs.runDue();
    assert.equal((await t.api('GET', `/v1/spaces/${b.space.id}`)).body.revision, bRevision);
  });

  test('disconnecting stops syncing; only editors may sync, disconnect or make the webhook, and others learn nothing', async () => {
    const { space, name, pages } = await connected();
    const reader = await t.member('read');
    const outsider = await t.outsider();
    for (const [method, path] of [['DELETE', 'git'], ['POST', 'git/sync'], ['POST', 'git/webhook']] as const) {
      assertError(await t.api(method, `/v1/spaces/${space.id}/${path}`, { token: reader.token }), 403);
      if (method === 'DELETE') {
        // What the caller cannot see is, for them, already gone.
        assert.equal((await t.api(method, `/v1/spaces/${space.id}/${path}`, { token: outsider.token })).status, 204);
        continue;
      }
      assertError(await t.api(method, `/v1/spaces/${space.id}/${path}`, { token: outsider.token }), 404);
      assertError(await t.api(method, `/v1/spaces/nope/${path}`), 404);
    }
    assert.equal((await info(space.id)).sync.connected, true, "an outsider's DELETE changed nothing");
    const head = git.headCommit(name, 'main').oid;
    assert.equal((await t.api('DELETE', `/v1/spaces/${space.id}/git`)).status, 204);
    assertError(await t.api('GET', `/v1/spaces/${space.id}/git/info`), 404);
    assertError(await t.api('POST', `/v1/spaces/${space.id}/git/sync`), 404, /not connected/);
    assert.equal((await t.api('DELETE', `/v1/spaces/${space.id}/git`)).status, 204, 'disconnecting again is done already');
    await liveEdit(space.id, pages.Guide!, 'Not exported.');
    await t.app.jobs.runDue();
    assert.equal(git.headCommit(name, 'main').oid, head);
  });

  test('without a webhook, the branch is polled every GIT_SYNC_POLL_INTERVAL_MS and a push found is imported', async () => {
    const polling = await startServer({ env: { ALLOW_PRIVATE_FETCH: 'true', GIT_SYNC_DEBOUNCE_MS: '0', GIT_SYNC_POLL_INTERVAL_MS: '60000' } });
    try {
      git.createRepository('polled', LAYOUT);
      const space = (await polling.api('POST', `/v1/orgs/${polling.org.id}/spaces`, { body: { title: 'Polled' } })).body;
      assert.equal((await polling.api('POST', `/v1/spaces/${space.id}/git/import`, { body: { url: git.url('polled'), ref: 'refs/heads/main' } })).status, 204);
      await polling.app.jobs.runDue();
      await polling.app.jobs.runDue();
      git.commit('polled', 'main', { 'reference.md': '# Reference\n\nFound by polling.\n' }, 'Polled change');
      const reference = async () => {
        const pages = (await polling.api('GET', `/v1/spaces/${space.id}/content/pages`)).body.pages as Json[];
        const id = pages.find((p) => p.title === 'Reference').id;
        return (await polling.api('GET', `/v1/spaces/${space.id}/content/page/${id}?format=markdown`)).body.markdown as string;
      };
      // Polled a moment ago: not again before the interval.
      await polling.app.jobs.runDue();
      assert.doesNotMatch(await reference(), /Found by polling/);
      polling.clock.advance(61_000);
      await polling.app.jobs.runDue();
      assert.match(await reference(), /Found by polling\./);
      assert.equal((await polling.api('GET', `/v1/spaces/${space.id}/git/info`)).body.sync.pollInterval, 60_000);
    } finally {
      await polling.close();
    }
  });

  test('soak: 50 changes on each side, alternating, a third of them at once on the same page, end with the branch and the space agreeing and every change present', async (soak) => {
    const { space, name, pages } = await connected();
    const hook = await webhookOf(space.id);
    // Git appends a line to the reference page each round. Quire adds a step to the guide, except every third
    // round, when it rewrites the reference page's first paragraph before the push is synced: the same page
    // changed on both sides at once, merged three ways.
    let first = 'The reference.';
    const gitLines: string[] = [];
    const steps = ['First step.'];
    // Ten rounds per subtest: each one's end is progress the suite's stall watchdog sees (a soak is minutes long).
    for (let from = 1; from <= 50; from += 10) {
      await soak.test(`rounds ${from} to ${from + 9}`, async () => {
        for (let round = from; round < from + 10; round++) {
          git.commit(name, 'main', { 'reference.md': (text) => `${text.trimEnd()}\n\nGit line ${round}.\n` }, `Git change ${round}`);
          if (round % 3 === 0) {
            first = `${first} Quire ${round}.`;
            // Quire's writer has not seen this round's line yet.
            await liveEdit(space.id, pages.Reference!, [first, ...gitLines].join('\n\n'));
          } else {
            steps.push(`Quire step ${round}.`);
            await liveEdit(space.id, pages.Guide!, steps.join('\n\n'));
          }
          gitLines.push(`Git line ${round}.`);
          assert.equal((await deliver(hook.url, 'github', githubPush('main'), hook.secret)).status, 202);
          await t.app.jobs.runDue();
          const state = await info(space.id);
          assert.equal(state.sync.error, undefined, `round ${round}: ${state.sync.error}`);
        }
      });
    }
    const files = git.filesOf(name, 'main');
    const inGit = files.get('reference.md')!.toString();
    const inQuire = await markdownOf(space.id, pages.Reference!);
    for (const line of [first, ...gitLines]) {
      assert.ok(inGit.includes(line), `the branch has "${line}"`);
      assert.ok(inQuire.includes(line), `the space has "${line}"`);
    }
    const guideInGit = files.get('guide.md')!.toString();
    const guideInQuire = await markdownOf(space.id, pages.Guide!);
    for (const step of steps) {
      assert.ok(guideInGit.includes(step), `the branch's guide has "${step}"`);
      assert.ok(guideInQuire.includes(step), `the space's guide has "${step}"`);
    }
    // Nothing left to sync either way.
    assert.equal((await info(space.id)).sync.pending, undefined);
  });
});
