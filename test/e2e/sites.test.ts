import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rejectsWith } from './gitbook-client.ts';
import { e2eSession } from './e2e-session.ts';

/**
 * Issue 10's "done when": a site with two sections, a section group, three variants, a share link, a
 * customization and an adaptive schema is built and read back through the official client; every response is
 * checked against the official spec.
 */

const OPERATIONS = [
  'listSites', 'createSite', 'getSiteById', 'updateSiteById', 'deleteSiteById', 'publishSite', 'unpublishSite', 'getPublishedContentSite',
  'getSiteCustomizationById', 'updateSiteCustomizationById', 'getSiteAdaptiveSchema', 'updateSiteAdaptiveSchema', 'listSiteAdaptiveTemplateConditions',
  'getSitePublishingAuthById', 'updateSitePublishingAuthById', 'regenerateSitePublishingAuthById',
  'listSiteSpaces', 'addSpaceToSite', 'updateSiteSpaceById', 'deleteSiteSpaceById', 'moveSiteSpace',
  'listSiteSections', 'addSectionToSite', 'updateSiteSectionById', 'deleteSiteSectionById', 'moveSiteSection',
  'listSiteSectionGroups', 'addSectionGroupToSite', 'updateSiteSectionGroupById', 'deleteSiteSectionGroupById', 'addSectionToGroup',
  'removeSectionFromGroup', 'moveSiteSectionGroup', 'sortSiteStructure',
  'listSiteShareLinks', 'createSiteShareLink', 'updateSiteShareLinkById', 'deleteSiteShareLinkById', 'getSpaceById',
  'createSiteRedirect', 'listSiteRedirects', 'getSiteRedirectBySource', 'updateSiteRedirectById', 'deleteSiteRedirectById',
];

describe('sites through the official client', { timeout: 300_000 }, () => {
  const session = e2eSession();
  const { client } = session;

  test('a site with two sections, a group, three variants, a share link, a customization and an adaptive schema', async () => {
    const { t, endpoint } = session;
    const api = client().orgs;
    const org = t.org.id;
    const space = async (title: string) => (await api.createSpace(org, { title })).data;
    const [guide, guideV2, api1, changelog] = [await space('Guide'), await space('Guide v2'), await space('API'), await space('Changelog')];

    const { data: site } = await api.createSite(org, { title: 'Developer docs', visibility: 'share-link' as never });
    assert.equal(site.published, false);
    const { data: sectionA } = await api.addSectionToSite(org, site.id, { spaceId: guide.id, title: 'Guides' });
    const { data: sectionB } = await api.addSectionToSite(org, site.id, { spaceId: api1.id, title: 'API reference' });
    const { data: variant } = await api.addSpaceToSite(org, site.id, { spaceId: guideV2.id, sectionId: sectionA.id });
    assert.equal(variant.section, sectionA.id);
    const { data: updatedVariant } = await api.updateSiteSpaceById(org, site.id, variant.id, { path: 'v2', condition: 'visitor.claims.unsigned.beta == true' });
    assert.equal(updatedVariant.condition, 'visitor.claims.unsigned.beta == true');
    await api.updateSiteSectionById(org, site.id, sectionB.id, { description: 'Every endpoint', icon: 'code' });
    const { data: group } = await api.addSectionGroupToSite(org, site.id, { title: 'Reference', sections: [sectionB.id] });
    assert.equal(group.sections.length, 1);

    const { data: link } = await api.createSiteShareLink(org, site.id, { name: 'Partners' });
    const { data: customization } = await api.getSiteCustomizationById(org, site.id);
    const { data: customized } = await api.updateSiteCustomizationById(org, site.id, {
      ...customization,
      title: 'Developer hub',
      styling: { ...customization.styling, primaryColor: { light: '#FF0000', dark: '#00FF00' } },
    });
    assert.equal(customized.title, 'Developer hub');
    const { data: adaptive } = await api.updateSiteAdaptiveSchema(org, site.id, {
      jsonSchema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: {
          isPartner: { type: 'boolean', description: 'Works for a partner' },
          unsigned: {
            type: 'object',
            description: 'Unsigned claims of the site visitor.',
            properties: { beta: { type: 'boolean', description: 'Joined the beta' } },
            additionalProperties: false,
          },
        },
        additionalProperties: false,
      } as never,
    });
    assert.equal(adaptive.object, 'site-adaptive-schema');
    const { data: conditions } = await api.listSiteAdaptiveTemplateConditions(org, site.id);
    assert.ok(conditions.items.length >= 2);
    await api.updateSiteById(org, site.id, { basename: 'dev-docs', adaptiveContent: { enabled: true } });
    const { data: published } = await api.publishSite(org, site.id);
    assert.equal((published as { published: boolean }).published, true);

    // Read it all back.
    const key = new URL(link.urls.published!).searchParams.get('share')!;
    const { data: content } = await api.getPublishedContentSite(org, site.id, { shareKey: key });
    assert.equal(content.site.title, 'Developer docs');
    assert.equal(content.site.siteSpaces, 3);
    assert.equal(content.structure.type, 'sections');
    const [first, second] = content.structure.structure as { object: string; title: string; sections?: { id: string }[]; siteSpaces?: { path: string; urls: { published?: string } }[] }[];
    assert.equal(first!.title, 'Guides');
    assert.equal(first!.siteSpaces!.length, 2);
    assert.equal(first!.siteSpaces![1]!.urls.published, `${endpoint}/sites/dev-docs/v2/?share=${key}`);
    assert.equal(second!.object, 'site-section-group');
    assert.equal(second!.sections![0]!.id, sectionB.id);
    assert.equal(content.customizations.site.title, 'Developer hub');
    assert.equal(Object.keys(content.customizations.siteSpaces).length, 3);
    const { data: readAdaptive } = await api.getSiteAdaptiveSchema(org, site.id);
    assert.deepEqual(Object.keys(readAdaptive.jsonSchema.properties ?? {}).sort(), ['isPartner', 'unsigned']);
    const { data: sections } = await api.listSiteSections(org, site.id);
    assert.deepEqual(sections.items.map((s) => s.id), [sectionA.id, sectionB.id]);
    const { data: groups } = await api.listSiteSectionGroups(org, site.id);
    assert.equal(groups.items[0]!.id, group.id);
    const { data: defaults } = await api.listSiteSpaces(org, site.id, { default: true });
    assert.equal(defaults.count, 2);
    const { data: links } = await api.listSiteShareLinks(org, site.id);
    assert.equal(links.items[0]!.name, 'Partners');
    const { data: readSite } = await api.getSiteById(org, site.id);
    assert.equal(readSite.urls.published, `${endpoint}/sites/dev-docs/`);
    const { data: listed } = await api.listSites(org, { space: guideV2.id });
    assert.deepEqual(listed.items.map((s) => s.id), [site.id]);
    const { data: spaceRead } = await client().spaces.getSpaceById(guideV2.id, { shareKey: key });
    assert.equal(spaceRead.urls.published, `${endpoint}/sites/dev-docs/v2/?share=${key}`);

    // Redirects: a path of the site sent to a section, then to a variant.
    const { data: redirect } = await api.createSiteRedirect(org, site.id, { source: '/old/reference', destination: { kind: 'site-section', siteSectionId: sectionB.id } });
    assert.equal(redirect.object, 'site-redirect');
    const { data: redirects } = await api.listSiteRedirects(org, site.id, { search: 'reference' });
    assert.deepEqual(redirects.items.map((r) => r.id), [redirect.id]);
    const { data: bySource } = await api.getSiteRedirectBySource(org, site.id, { source: '/old/reference' });
    assert.equal(bySource.target, `${endpoint}/sites/dev-docs/api-reference/`);
    const { data: retargeted } = await api.updateSiteRedirectById(org, site.id, redirect.id, { destination: { kind: 'site-space', siteSpaceId: variant.id } });
    assert.deepEqual(retargeted.destination, { kind: 'site-space', siteSpaceId: variant.id });
    await rejectsWith(api.createSiteRedirect(org, site.id, { source: '/old/reference', destination: { kind: 'site-section', siteSectionId: sectionB.id } }), 409);
    await api.deleteSiteRedirectById(org, site.id, redirect.id);
    await rejectsWith(api.getSiteRedirectBySource(org, site.id, { source: '/old/reference' }), 404);

    // Reorder, rename, deactivate, remove.
    await api.sortSiteStructure(org, site.id, { item: { type: 'site-section-group', id: group.id }, position: { before: { type: 'site-section', id: sectionA.id } } });
    await api.moveSiteSectionGroup(org, site.id, group.id, { position: { after: { type: 'site-section', id: sectionA.id } } });
    await api.moveSiteSection(org, site.id, sectionA.id, {});
    await api.moveSiteSpace(org, site.id, variant.id, { position: { before: { type: 'site-space', siteSpace: sectionA.siteSpaces[0]!.id } } });
    await api.updateSiteSectionGroupById(org, site.id, group.id, { title: 'All references' });
    await api.updateSiteShareLinkById(org, site.id, link.id, { active: false });
    const { data: sectionC } = await api.addSectionToSite(org, site.id, { spaceId: changelog.id, title: 'Changelog' });
    await api.addSectionToGroup(org, site.id, group.id, { sectionId: sectionC.id });
    await api.removeSectionFromGroup(org, site.id, group.id, sectionC.id);
    await api.deleteSiteSectionById(org, site.id, sectionC.id);
    await api.deleteSiteSpaceById(org, site.id, variant.id);
    await api.deleteSiteSectionGroupById(org, site.id, group.id);
    await api.deleteSiteShareLinkById(org, site.id, link.id);
    const { data: auth } = await api.getSitePublishingAuthById(org, site.id);
    await api.updateSitePublishingAuthById(org, site.id, { backend: 'custom', fallbackURL: 'https://login.example.com/' } as never);
    const { data: regenerated } = await api.regenerateSitePublishingAuthById(org, site.id);
    assert.notEqual(regenerated.privateKey, auth.privateKey);
    await api.unpublishSite(org, site.id);
    const { data: after } = await api.getPublishedContentSite(org, site.id);
    assert.equal(after.site.siteSpaces, 2);

    // Failures conform too.
    await rejectsWith(api.addSectionToSite(org, site.id, { spaceId: 'nope' }), 400);
    await rejectsWith(api.updateSiteSpaceById(org, site.id, sectionA.siteSpaces[0]!.id, { condition: 'visitor.claims ==' }), 400);
    await rejectsWith(client((await t.member('read')).token).orgs.createSite(org, { title: 'Mine' }), 403);
    await rejectsWith(client((await t.outsider()).token).orgs.getSiteById(org, site.id), 404);
    await api.deleteSiteById(org, site.id);
    await rejectsWith(api.getSiteById(org, site.id), 404);
  });

  test('every operation was exercised and conformed to the official spec', () => session.assertConformed(OPERATIONS));
});
