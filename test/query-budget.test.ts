import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { watchStatements } from '../src/db/statement-watch.ts';
import { buildInstallation, buildIntegration, writeMain } from './factories.ts';
import { startServer, type TestServer, type TestUser } from './helpers.ts';

/**
 * Query budgets of the hot read operations (issue 9): how many SQL statements one request runs once the caches
 * are warm. A budget that grows means a change added a query to every request, or a query per item to a list;
 * the lists are asked for 5 and for 50 items and must cost the same.
 */
const BUDGETS = {
  // The space, its counters and its published URL all come from read caches once warm.
  getSpace: 0,
  // The organization, the page of spaces and their count (counters cached per space).
  listSpaces: 3,
  // The page of members and their count (their space and team counts cached per member).
  listMembers: 2,
  // The page of comments with their reply counts, their count, and their reactions.
  listComments: 3,
  // The space, its revision, the branch heads and the page or tree all come from read caches once warm.
  getPage: 0,
  getPageMarkdown: 0,
  getContentTree: 0,
  // A comment posted: its row and its event, in one transaction; the space, the caller's role and the author
  // presented come from read caches, and the new comment is presented from what was written.
  postComment: 2,
} as const;

describe('query budgets (warm caches)', () => {
  let t: TestServer;
  let reader: TestUser;
  /** A token of an integration installed on the content space, with read scope. */
  let installationToken: string;
  let spaceId: string;
  let pageId: string;
  const statements: string[] = [];
  let stop: (() => void) | undefined;

  before(async () => {
    // Cached facts must not expire in the middle of a measurement on a slow machine.
    t = await startServer({ env: { CACHE_TTL_MS: '600000' } });
    stop = watchStatements(t.db, { statement: (sql) => statements.push(sql) });
    assert.ok(stop, 'the test database reports its statements');
    reader = await t.member('read');
    for (let i = 0; i < 55; i++) await t.member((['read', 'edit', 'admin', null] as const)[i % 4]!);
    for (let i = 0; i < 55; i++) assert.equal((await t.api('POST', `/v1/orgs/${t.org.id}/spaces`, { body: { title: `Space ${i}` } })).status, 201);
    const space = (await t.api('POST', `/v1/orgs/${t.org.id}/spaces`, { body: { title: 'Content' } })).body;
    spaceId = space.id;
    const doc = (text: string) => ({ document: { markdown: `${text}, with a [link](https://example.com).\n\n- one\n- two\n` } });
    await writeMain(t, spaceId, [
      { operation: 'insert_page', title: 'Home', ref: 'home', ...doc('Welcome') },
      { operation: 'insert_page', title: 'Guides', ref: 'guides', ...doc('Guides') },
      { operation: 'insert_page', title: 'Install', ref: 'install', into: 'guides', ...doc('How to install') },
      { operation: 'insert_page', title: 'Upgrade', ref: 'upgrade', into: 'guides', ...doc('How to upgrade') },
    ]);
    const pages = (await t.api('GET', `/v1/spaces/${spaceId}/content/pages`)).body.pages as { id: string; title: string }[];
    pageId = pages.find((p) => p.title === 'Guides')!.id;
    const integration = await buildIntegration(t, { endpoint: 'http://127.0.0.1:9/', scopes: ['space:content:read'] });
    const installation = await buildInstallation(t, integration.name, { spaces: [spaceId] });
    installationToken = (await t.api('POST', `/v1/integrations/${integration.name}/installations/${installation.id}/tokens`)).body.token;
    for (let i = 0; i < 55; i++) {
      const posted = await t.api('POST', `/v1/spaces/${spaceId}/comments`, { body: { body: { markdown: `Comment ${i}` } } });
      assert.equal(posted.status, 200, JSON.stringify(posted.body));
    }
  });

  after(async () => {
    stop?.();
    await t.close();
  });

  /** Statements of one request, after calls that warmed the caches (a token's first use also records it). */
  async function cost(path: string, token?: string): Promise<number> {
    for (let i = 0; i < 2; i++) {
      const warm = await t.api('GET', path, { token });
      assert.equal(warm.status, 200, JSON.stringify(warm.body));
    }
    statements.length = 0;
    const again = await t.api('GET', path, { token });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    return statements.length;
  }

  /** Read operations cost the same for an installation token: its reach is cached like a member's role. */
  async function withinBudget(name: keyof typeof BUDGETS, path: string) {
    for (const [who, token] of [['admin', undefined], ['read member', reader.token], ['installation', installationToken]] as const) {
      const n = await cost(path, token);
      assert.ok(n <= BUDGETS[name], `${name} as ${who} ran ${n} statements, over its budget of ${BUDGETS[name]}:\n${statements.join('\n')}`);
    }
  }

  async function sameForAnyPageSize(name: keyof typeof BUDGETS, path: string) {
    const separator = path.includes('?') ? '&' : '?';
    for (const [who, token] of [['admin', undefined], ['read member', reader.token]] as const) {
      const small = await cost(`${path}${separator}limit=5`, token);
      const large = await cost(`${path}${separator}limit=50`, token);
      assert.equal(large, small, `${name} as ${who}: ${small} statements for 5 items, ${large} for 50:\n${statements.join('\n')}`);
      assert.ok(large <= BUDGETS[name], `${name} as ${who} ran ${large} statements, over its budget of ${BUDGETS[name]}:\n${statements.join('\n')}`);
    }
  }

  test('GET a space', async () => withinBudget('getSpace', `/v1/spaces/${spaceId}`));
  test('list the spaces of an organization, 5 or 50 at a time', async () => sameForAnyPageSize('listSpaces', `/v1/orgs/${t.org.id}/spaces`));
  test('list the members of an organization, 5 or 50 at a time', async () => sameForAnyPageSize('listMembers', `/v1/orgs/${t.org.id}/members`));
  test('list the comments of a space, 5 or 50 at a time', async () => sameForAnyPageSize('listComments', `/v1/spaces/${spaceId}/comments`));
  test('POST a comment', async () => {
    const post = async () => {
      const posted = await t.api('POST', `/v1/spaces/${spaceId}/comments`, { body: { body: { markdown: 'A comment with **bold** text.' } } });
      assert.equal(posted.status, 200, JSON.stringify(posted.body));
      return posted.body as { postedBy: { id: string; email?: string } };
    };
    await post();
    await post();
    statements.length = 0;
    const posted = await post();
    assert.equal(posted.postedBy.id, t.admin.userId);
    assert.equal(posted.postedBy.email, t.admin.email);
    assert.ok(statements.length <= BUDGETS.postComment, `postComment ran ${statements.length} statements, over its budget of ${BUDGETS.postComment}:\n${statements.join('\n')}`);
  });
  test('GET a page with its document', async () => withinBudget('getPage', `/v1/spaces/${spaceId}/content/page/${pageId}`));
  test('GET a page as markdown', async () => withinBudget('getPageMarkdown', `/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`));
  test('GET the content tree of a space', async () => withinBudget('getContentTree', `/v1/spaces/${spaceId}/content`));
});
