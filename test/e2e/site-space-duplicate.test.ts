import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSpaceWithPages } from '../factories.ts';
import { rejectsWith } from './gitbook-client.ts';
import { e2eSession } from './e2e-session.ts';

/**
 * duplicateSiteSpace (0.202.0) through the official client: the space is copied with its content and placed in
 * the site: a new section after a section it was alone in, else a variant after it.
 */

const OPERATIONS = ['duplicateSiteSpace'];

interface Structure {
  type: string;
  structure: { object: string; id: string; title: string; siteSpaces?: { id: string; space: { id: string } }[] }[];
}

describe('duplicating a space of a site through the official client', { timeout: 120_000 }, () => {
  const session = e2eSession();

  const structureOf = async (org: string, siteId: string) => (await session.t.api('GET', `/v1/orgs/${org}/sites/${siteId}/structure`)).body as unknown as Structure;
  const titlesOf = async (spaceId: string) => {
    const { data } = await session.client().spaces.listPages(spaceId);
    return data.pages.map((p) => p.title);
  };

  test('a variant alone in its section is copied, content and all, into a new section after it', async () => {
    const { t } = session;
    const org = t.org.id;
    const { space } = await buildSpaceWithPages(t, 'Install', 'Upgrade');
    const { space: api } = await buildSpaceWithPages(t, 'Endpoints');
    const { data: site } = await session.client().orgs.createSite(org, { title: 'Docs', spaces: [] } as never);
    const { data: guide } = await session.client().orgs.addSectionToSite(org, site.id, { spaceId: space.id, title: 'Guide' });
    await session.client().orgs.addSectionToSite(org, site.id, { spaceId: api.id, title: 'API' });
    const original = guide.siteSpaces[0]!;

    const response = await session.latest().orgs.duplicateSiteSpace(org, site.id, original.id, {});
    const copy = response.data;
    assert.equal(response.status, 201);
    assert.match(response.headers.get('location') ?? '', new RegExp(`/sites/${site.id}/site-spaces/${copy.id}$`));
    assert.notEqual(copy.space.id, space.id);
    assert.equal(copy.space.title, `${space.title} (copy)`);
    assert.deepEqual(await titlesOf(copy.space.id), await titlesOf(space.id));

    const structure = await structureOf(org, site.id);
    assert.deepEqual(structure.structure.map((s) => s.title), ['Guide', 'Guide (copy)', 'API']);
    assert.deepEqual(structure.structure[1]!.siteSpaces!.map((ss) => ss.id), [copy.id]);
    assert.equal(copy.section, structure.structure[1]!.id);
  });

  test('a variant among others gets its copy right after it in the same section', async () => {
    const { t } = session;
    const org = t.org.id;
    const { space: en } = await buildSpaceWithPages(t, 'Hello');
    const { space: fr } = await buildSpaceWithPages(t, 'Bonjour');
    const { data: site } = await session.client().orgs.createSite(org, { title: 'Docs', spaces: [] } as never);
    const { data: section } = await session.client().orgs.addSectionToSite(org, site.id, { spaceId: en.id, title: 'Guide' });
    const { data: second } = await session.client().orgs.addSpaceToSite(org, site.id, { spaceId: fr.id, sectionId: section.id });

    const { data: copy } = await session.latest().orgs.duplicateSiteSpace(org, site.id, section.siteSpaces[0]!.id, {});
    const structure = await structureOf(org, site.id);
    assert.equal(structure.structure.length, 1);
    assert.deepEqual(structure.structure[0]!.siteSpaces!.map((ss) => ss.id), [section.siteSpaces[0]!.id, copy.id, second.id]);
    assert.equal(copy.default, false);
    assert.deepEqual(await titlesOf(copy.space.id), ['Hello']);
  });

  test('refused: a draft copy, a site-space not of the site, and callers who do not manage the site', async () => {
    const { t } = session;
    const org = t.org.id;
    const { space } = await buildSpaceWithPages(t, 'Page');
    const { data: site } = await session.client().orgs.createSite(org, { title: 'Docs', spaces: [space.id] } as never);
    const siteSpaceId = (await structureOf(org, site.id)).structure[0]!.id;
    const spacesBefore = (await t.api('GET', `/v1/orgs/${org}/spaces`)).body.count;

    await rejectsWith(session.latest().orgs.duplicateSiteSpace(org, site.id, siteSpaceId, { draft: true }), 400, 'body/draft');
    await rejectsWith(session.latest().orgs.duplicateSiteSpace(org, site.id, 'no-site-space', {}), 404);
    const reader = await t.member('read');
    await rejectsWith(session.latest(reader.token).orgs.duplicateSiteSpace(org, site.id, siteSpaceId, {}), 403);
    const outsider = await t.outsider();
    await rejectsWith(session.latest(outsider.token).orgs.duplicateSiteSpace(org, site.id, siteSpaceId, {}), 404);
    assert.equal((await t.api('GET', `/v1/orgs/${org}/spaces`)).body.count, spacesBefore, 'no space was copied by a refused request');

    // At a site's root (no sections), the copy is another root site-space.
    const { data: copy } = await session.latest().orgs.duplicateSiteSpace(org, site.id, siteSpaceId, {});
    const structure = await structureOf(org, site.id);
    assert.equal(structure.type, 'siteSpaces');
    assert.deepEqual(structure.structure.map((ss) => ss.id), [siteSpaceId, copy.id]);
  });

  test('every exchange conformed to the official spec', () => session.assertConformed(OPERATIONS));
});
