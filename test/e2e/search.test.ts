import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { GitBookAPIError } from './gitbook-client.ts';
import { e2eSession } from './e2e-session.ts';
import { editLive } from '../factories.ts';
import { CORPUS_DIR, corpusChanges, corpusPages } from '../corpus/pages.ts';

/**
 * Issue 12's "done when", over real HTTP: the official client searches a space of the GitBook docs and gets
 * ranked, highlighted results; organization and site search answer in the official shapes.
 */

const OPERATIONS = ['searchSpaceContent', 'searchOrganizationContent', 'searchSiteContent'];

describe('search through the official client', { timeout: 300_000, skip: !existsSync(CORPUS_DIR) && 'corpus not present' }, () => {
  const session = e2eSession();
  const { client } = session;

  test('a space of the GitBook docs searched, in the organization and in a site', async () => {
    const { t } = session;
    const api = client();
    const org = t.org.id;
    const { data: space } = await api.orgs.createSpace(org, { title: 'GitBook docs' });
    const pages = corpusPages().filter((p) => p.file.startsWith('publish/'));
    await editLive(t, space.id, corpusChanges(pages.slice(0, 50)));

    const { data: found } = await api.spaces.searchSpaceContent(space.id, { query: 'okta', limit: 3 });
    assert.equal(found.items[0]?.title, 'Setting up Okta');
    assert.ok(found.items[0]?.sections?.some((s) => s.body.includes('<mark>')), JSON.stringify(found.items[0]));
    assert.ok((found.count ?? 0) >= 1 && found.items.length <= 3);

    const { data: typing } = await api.spaces.searchSpaceContent(space.id, { query: 'custom doma' });
    assert.equal(typing.items[0]?.title, 'Set a custom domain');

    const { data: inOrg } = await api.orgs.searchOrganizationContent(org, { query: 'share links' });
    assert.equal(inOrg.items[0]?.id, space.id);
    assert.equal(inOrg.items[0]?.pages[0]?.title, 'Private publishing with share links');

    const { data: site } = await api.orgs.createSite(org, { title: 'Docs site' });
    await api.orgs.addSpaceToSite(org, site.id, { spaceId: space.id });
    const { data: inSite } = await api.orgs.searchSiteContent(org, site.id, { query: 'cognito', scope: { mode: 'all' } });
    assert.equal(inSite.items[0]?.pages[0]?.title, 'Setting up AWS Cognito');

    await assert.rejects(client((await t.outsider()).token).spaces.searchSpaceContent(space.id, { query: 'okta' }), (error: unknown) => error instanceof GitBookAPIError && error.code === 404);
  });

  test('every operation was exercised and conformed to the official spec', () => session.assertConformed(OPERATIONS));
});
