import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSpaceWithPages } from '../factories.ts';
import { rejectsWith } from './gitbook-client.ts';
import { e2eSession } from './e2e-session.ts';

/**
 * applyTemplateToSite (0.202.0) through the official client: an empty site gets a space of the product
 * documentation template as its site-space, readable at once by its readers; a site with content is left alone.
 */

const OPERATIONS = ['applyTemplateToSite'];

describe('applying the default template to a site through the official client', { timeout: 120_000 }, () => {
  const session = e2eSession();

  test('an empty site gets a space of the template, named after it, as its one site-space, published with it', async () => {
    const { t } = session;
    const org = t.org.id;
    const { data: site } = await session.client().orgs.createSite(org, { title: 'Acme developer documentation portal', spaces: [] } as never);

    const response = await session.latest().orgs.applyTemplateToSite(org, site.id);
    assert.equal(response.status, 200);

    const { data: siteSpaces } = await session.client().orgs.listSiteSpaces(org, site.id);
    assert.equal(siteSpaces.items.length, 1);
    const space = siteSpaces.items[0]!.space;
    // A space's title holds 50 characters at most: the site's, cut there.
    assert.equal(space.title, 'Acme developer documentation portal');
    const { data: pages } = await session.client().spaces.listPages(space.id);
    assert.deepEqual(pages.pages.map((p) => p.title), ['Overview', 'Quick start', 'Guides', 'Reference']);
    assert.deepEqual(pages.pages[2]!.type === 'document' ? pages.pages[2]!.pages.map((p) => p.title) : [], ['First guide']);

    // Published, the site shows the template's first page.
    await session.client().orgs.publishSite(org, site.id);
    const reader = await fetch(`${session.endpoint}/sites/${site.id}/`);
    assert.equal(reader.status, 200);
    assert.match(await reader.text(), /Welcome to the documentation of our product/);
  });

  test('a site with content is refused with 409 and keeps what it had; who may not manage the site or create spaces is refused', async () => {
    const { t } = session;
    const org = t.org.id;
    const { space } = await buildSpaceWithPages(t, 'Install');
    const { data: site } = await session.client().orgs.createSite(org, { title: 'Docs', spaces: [space.id] } as never);
    await rejectsWith(session.latest().orgs.applyTemplateToSite(org, site.id), 409, 'already has content');
    const { data: siteSpaces } = await session.client().orgs.listSiteSpaces(org, site.id);
    assert.deepEqual(siteSpaces.items.map((ss) => ss.space.id), [space.id]);

    const { data: empty } = await session.client().orgs.createSite(org, { title: 'Empty', spaces: [] } as never);
    const spacesBefore = (await session.client().orgs.listSpacesInOrganizationById(org)).data.items.length;
    const reader = await t.member('read');
    // A reader sees a site through a space of it they can read: an empty one, not at all (403 where they see it:
    // test/authorization.test.ts).
    await rejectsWith(session.latest(reader.token).orgs.applyTemplateToSite(org, empty.id), 404);
    await rejectsWith(session.latest(reader.token).orgs.applyTemplateToSite(org, site.id), 403);
    const outsider = await t.outsider();
    await rejectsWith(session.latest(outsider.token).orgs.applyTemplateToSite(org, empty.id), 404);
    await rejectsWith(session.latest().orgs.applyTemplateToSite(org, 'no-such-site'), 404);
    // Nothing was written by a refusal: no space, no site-space.
    assert.equal((await session.client().orgs.listSpacesInOrganizationById(org)).data.items.length, spacesBefore);
    assert.equal((await session.client().orgs.listSiteSpaces(org, empty.id)).data.items.length, 0);
  });

  test('every exchange conformed to the official spec', () => session.assertConformed(OPERATIONS));
});
