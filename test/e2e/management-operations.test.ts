import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MemberRole, rejectsWith } from './gitbook-client.ts';
import { e2eSession } from './e2e-session.ts';

/**
 * Issue 30's server operations for the management screens, through the official client: a site's structure and
 * a variant's customization override, who holds a role on a collection, and one installation's spaces and sites.
 * Each answers its success and its main refusals (401 without a token, 403 for a member without the right, 404
 * for another organization's caller, 400 naming the field); every exchange is checked against the official spec.
 */

const OPERATIONS = [
  'getSiteStructure', 'getSiteSpaceCustomizationById', 'overrideSiteSpaceCustomizationById', 'deleteSiteSpaceCustomizationById',
  'listPermissionsAggregateInCollection',
  'listIntegrationInstallationSpaces', 'getIntegrationSpaceInstallation', 'updateIntegrationSpaceInstallation', 'uninstallIntegrationFromSpace',
  'listIntegrationInstallationSites', 'getIntegrationSiteInstallation', 'updateIntegrationSiteInstallation', 'uninstallIntegrationFromSite',
];

describe('management operations through the official client', { timeout: 300_000 }, () => {
  const session = e2eSession();
  const { client } = session;

  test('a site structure, and a variant whose customization overrides the site’s until it is taken away', async () => {
    const { t } = session;
    const api = client().orgs;
    const org = t.org.id;
    const [guide, guideV2, reference] = [(await api.createSpace(org, { title: 'Guide' })).data, (await api.createSpace(org, { title: 'Guide v2' })).data, (await api.createSpace(org, { title: 'Reference' })).data];
    const { data: site } = await api.createSite(org, { title: 'Product docs' });
    const { data: guides } = await api.addSectionToSite(org, site.id, { spaceId: guide.id, title: 'Guides' });
    const { data: v2 } = await api.addSpaceToSite(org, site.id, { spaceId: guideV2.id, sectionId: guides.id });
    const { data: refs } = await api.addSectionToSite(org, site.id, { spaceId: reference.id, title: 'Reference' });
    const { data: group } = await api.addSectionGroupToSite(org, site.id, { title: 'More', sections: [refs.id] });

    const { data: structure } = await api.getSiteStructure(org, site.id);
    assert.equal(structure.type, 'sections');
    const items = structure.structure as { object: string; id: string; siteSpaces?: { id: string }[]; sections?: { id: string }[] }[];
    assert.deepEqual(items.map((i) => [i.object, i.id]), [['site-section', guides.id], ['site-section-group', group.id]]);
    assert.deepEqual(items[0]!.siteSpaces!.map((s) => s.id), [guides.siteSpaces[0]!.id, v2.id]);
    assert.deepEqual(items[1]!.sections!.map((s) => s.id), [refs.id]);

    const { data: siteCustomization } = await api.getSiteCustomizationById(org, site.id);
    assert.deepEqual((await api.getSiteSpaceCustomizationById(org, site.id, v2.id)).data, siteCustomization, 'without an override, the site’s');
    const { data: overridden } = await api.overrideSiteSpaceCustomizationById(org, site.id, v2.id, {
      title: 'Guide, version 2',
      styling: { primaryColor: { light: '#AA0000', dark: '#FF5555' } },
    });
    assert.equal(overridden.title, 'Guide, version 2');
    assert.deepEqual(overridden.styling.primaryColor, { light: '#AA0000', dark: '#FF5555' });
    assert.equal(overridden.styling.theme, siteCustomization.styling.theme, 'fields not overridden are the site’s');
    // A later change of the site's customization reaches what the variant does not override.
    await api.updateSiteCustomizationById(org, site.id, { ...siteCustomization, styling: { ...siteCustomization.styling, theme: 'muted' as never } });
    const { data: read } = await api.getSiteSpaceCustomizationById(org, site.id, v2.id);
    assert.equal(read.styling.theme, 'muted');
    assert.equal(read.title, 'Guide, version 2');
    // null takes one field's override away, the rest stays.
    const { data: untitled } = await api.overrideSiteSpaceCustomizationById(org, site.id, v2.id, { title: null });
    assert.equal(untitled.title, siteCustomization.title);
    assert.deepEqual(untitled.styling.primaryColor, { light: '#AA0000', dark: '#FF5555' });
    const { data: published } = await api.getPublishedContentSite(org, site.id);
    assert.deepEqual(published.customizations.siteSpaces[v2.id]!.styling.primaryColor, { light: '#AA0000', dark: '#FF5555' });
    assert.deepEqual(published.customizations.siteSpaces[guides.siteSpaces[0]!.id]!.styling.primaryColor, siteCustomization.styling.primaryColor);

    // Refusals: a bad colour names the field; a read member may look but not change; others see nothing.
    await rejectsWith(api.overrideSiteSpaceCustomizationById(org, site.id, v2.id, { styling: { primaryColor: { light: 'red', dark: '#000000' } } }), 400);
    const reader = client((await t.member('read')).token).orgs;
    assert.equal((await reader.getSiteSpaceCustomizationById(org, site.id, v2.id)).data.styling.theme, 'muted');
    assert.equal((await reader.getSiteStructure(org, site.id)).data.type, 'sections');
    await rejectsWith(reader.overrideSiteSpaceCustomizationById(org, site.id, v2.id, { title: 'Mine' }), 403);
    await rejectsWith(reader.deleteSiteSpaceCustomizationById(org, site.id, v2.id), 403);
    const outsider = client((await t.outsider()).token).orgs;
    await rejectsWith(outsider.getSiteStructure(org, site.id), 404);
    await rejectsWith(outsider.getSiteSpaceCustomizationById(org, site.id, v2.id), 404);
    await rejectsWith(outsider.overrideSiteSpaceCustomizationById(org, site.id, v2.id, { title: 'Theirs' }), 404);
    await rejectsWith(client(null).orgs.getSiteStructure(org, site.id), 401);
    await rejectsWith(api.getSiteSpaceCustomizationById(org, site.id, 'no-such-site-space'), 404);
    await rejectsWith(api.getSiteStructure(org, site.id, { shareKey: 'not-a-key' }), 400);

    // Taking the override away: 205, then 204 (nothing left); the variant shows the site's again.
    const removed = await api.deleteSiteSpaceCustomizationById(org, site.id, v2.id);
    assert.equal(removed.status, 205);
    assert.equal((await api.deleteSiteSpaceCustomizationById(org, site.id, v2.id)).status, 204);
    assert.deepEqual((await api.getSiteSpaceCustomizationById(org, site.id, v2.id)).data.styling.primaryColor, siteCustomization.styling.primaryColor);
  });

  test('who holds a role on a collection, and why it is the role they hold', async () => {
    const { t } = session;
    const api = client();
    const org = t.org.id;
    const { data: collection } = await api.orgs.createCollection(org, { title: 'Handbook' });
    const writer = await t.member('read');
    const teamMate = await t.member('read');
    const { data: team } = await api.orgs.createOrganizationTeam(org, { title: 'Editors', members: [teamMate.userId] } as never);
    await api.collections.updateUserPermissionInCollection(collection.id, writer.userId, { role: MemberRole.Edit });
    await api.collections.updateTeamPermissionInCollection(collection.id, team.id, { role: MemberRole.Review });

    const { data: all } = await api.collections.listPermissionsAggregateInCollection(collection.id, { limit: 1000 });
    const roleOf = new Map(all.items.map((item) => [item.user.id, item.permission]));
    assert.equal(roleOf.get(t.admin.userId), 'admin', 'an organization admin');
    assert.equal(roleOf.get(writer.userId), 'edit', 'a grant to the member wins over the default read');
    assert.equal(roleOf.get(teamMate.userId), 'review', 'a grant to their team');
    assert.equal(all.count, all.items.length);
    const { data: editors } = await api.collections.listPermissionsAggregateInCollection(collection.id, { role: MemberRole.Edit });
    assert.deepEqual(editors.items.map((i) => i.user.id), [writer.userId]);
    const { data: first } = await api.collections.listPermissionsAggregateInCollection(collection.id, { limit: 1 });
    const { data: second } = await api.collections.listPermissionsAggregateInCollection(collection.id, { limit: 1, page: first.next!.page });
    assert.notEqual(first.items[0]!.user.id, second.items[0]!.user.id);

    // A member who reads the collection may see who has access; others cannot see the collection at all.
    assert.ok((await client(writer.token).collections.listPermissionsAggregateInCollection(collection.id)).data.items.length >= 3);
    const guest = await t.member(null);
    await rejectsWith(client(guest.token).collections.listPermissionsAggregateInCollection(collection.id), 404);
    await rejectsWith(client((await t.outsider()).token).collections.listPermissionsAggregateInCollection(collection.id), 404);
    await rejectsWith(client(null).collections.listPermissionsAggregateInCollection(collection.id), 401);
    await rejectsWith(api.collections.listPermissionsAggregateInCollection(collection.id, { role: 'owner' as never }), 400);
  });

  test('one installation’s spaces and sites: listed, read, reconfigured and uninstalled one by one', async () => {
    const { t } = session;
    const api = client();
    const org = t.org.id;
    const name = 'status-reporter';
    await api.integrations.publishIntegration(name, {
      organization: org,
      title: 'Status reporter',
      description: 'Reports on spaces and sites',
      script: 'export default {}',
      scopes: ['space:content:read' as never, 'site:metadata:read' as never],
      visibility: 'public' as never,
      configurations: { space: { properties: { channel: { type: 'string' } }, required: ['channel'] } as never, site: { properties: { tag: { type: 'string' } } } as never },
    });
    const { data: installation } = await api.integrations.installIntegration(name, { organization: org });
    const [docs, notes] = [(await api.orgs.createSpace(org, { title: 'Docs' })).data, (await api.orgs.createSpace(org, { title: 'Notes' })).data];
    const { data: site } = await api.orgs.createSite(org, { title: 'Status site', spaces: [docs.id] });
    await api.integrations.installIntegrationOnSpace(name, installation.id, { space: docs.id });
    await api.integrations.installIntegrationOnSpace(name, installation.id, { space: notes.id });
    await api.integrations.installIntegrationOnSite(name, installation.id, { siteId: site.id });

    const { data: spaces } = await api.integrations.listIntegrationInstallationSpaces(name, installation.id);
    assert.deepEqual(spaces.items.map((i) => i.space).sort(), [docs.id, notes.id].sort());
    assert.equal(spaces.count, 2);
    assert.ok(spaces.items.every((i) => i.status === 'pending'), 'the space configuration has a required key without a value');
    const { data: extended } = await api.integrations.listIntegrationInstallationSpaces(name, installation.id, { extended: true, limit: 1 });
    assert.equal(typeof extended.items[0]!.space, 'object');
    assert.ok(extended.next);
    const { data: one } = await api.integrations.getIntegrationSpaceInstallation(name, installation.id, docs.id, { extended: true });
    assert.equal((one.space as { id: string }).id, docs.id);
    const { data: configured } = await api.integrations.updateIntegrationSpaceInstallation(name, installation.id, docs.id, { configuration: { channel: '#docs' }, externalIds: ['docs-1'] });
    assert.equal(configured.status, 'active');
    assert.deepEqual(configured.configuration, { channel: '#docs' });
    assert.deepEqual((await api.integrations.getIntegrationSpaceInstallation(name, installation.id, docs.id)).data.externalIds, ['docs-1']);
    await rejectsWith(api.integrations.updateIntegrationSpaceInstallation(name, installation.id, docs.id, { configuration: { channel: 42 } }), 400);

    const { data: sites } = await api.integrations.listIntegrationInstallationSites(name, installation.id, { extended: true });
    assert.deepEqual(sites.items.map((i) => (i.site as { id: string }).id), [site.id]);
    assert.equal((await api.integrations.getIntegrationSiteInstallation(name, installation.id, site.id)).data.site, site.id);
    const { data: siteConfigured } = await api.integrations.updateIntegrationSiteInstallation(name, installation.id, site.id, { configuration: { tag: 'status' } });
    assert.deepEqual(siteConfigured.configuration, { tag: 'status' });

    // Refusals: members who do not administer the organization, other organizations and anonymous callers see nothing.
    const reader = client((await t.member('read')).token).integrations;
    await rejectsWith(reader.listIntegrationInstallationSpaces(name, installation.id), 404);
    await rejectsWith(reader.updateIntegrationSiteInstallation(name, installation.id, site.id, { externalIds: ['mine'] }), 404);
    const outsider = client((await t.outsider()).token).integrations;
    await rejectsWith(outsider.getIntegrationSpaceInstallation(name, installation.id, docs.id), 404);
    await rejectsWith(outsider.getIntegrationSiteInstallation(name, installation.id, site.id), 404);
    await rejectsWith(client(null).integrations.listIntegrationInstallationSites(name, installation.id), 401);
    await rejectsWith(api.integrations.getIntegrationSpaceInstallation(name, installation.id, 'no-such-space'), 404);

    // The installation token acts on its own installation: it reads its spaces and may leave one.
    const { data: issued } = await api.integrations.createIntegrationInstallationToken(name, installation.id);
    const asIntegration = client(issued.token).integrations;
    assert.equal((await asIntegration.listIntegrationInstallationSpaces(name, installation.id)).data.count, 2);
    assert.equal((await asIntegration.uninstallIntegrationFromSpace(name, installation.id, notes.id)).status, 205);

    assert.equal((await api.integrations.uninstallIntegrationFromSpace(name, installation.id, docs.id)).status, 205);
    assert.equal((await api.integrations.uninstallIntegrationFromSpace(name, installation.id, docs.id)).status, 204);
    await rejectsWith(api.integrations.getIntegrationSpaceInstallation(name, installation.id, docs.id), 404);
    assert.equal((await api.integrations.uninstallIntegrationFromSite(name, installation.id, site.id)).status, 205);
    assert.equal((await api.integrations.listIntegrationInstallationSites(name, installation.id)).data.count, 0);
    assert.equal((await api.integrations.getIntegrationInstallationById(name, installation.id)).data.spaces, 0);
  });

  test('every operation was exercised and conformed to the official spec', () => session.assertConformed(OPERATIONS));
});
