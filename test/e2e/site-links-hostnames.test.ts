import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSpaceWithPages } from '../factories.ts';
import { hostnameDns } from '../../src/features/sites/custom-hostnames.ts';
import { rejectsWith } from './gitbook-client.ts';
import { e2eSession } from './e2e-session.ts';

/**
 * A site's external links (0.202.0) and custom hostnames through the official clients: links take their place in
 * the structure and in the published site's navigation; a custom hostname is read, its DNS checked again, and
 * taken away.
 */

const OPERATIONS = ['addExternalLinkToSite', 'updateSiteExternalLinkById', 'deleteSiteExternalLinkById', 'getCustomHostname', 'dnsRevalidateCustomHostname', 'removeCustomHostname'];

describe('site external links and custom hostnames through the official client', { timeout: 120_000 }, () => {
  const session = e2eSession();

  test('an external link shows in the structure and in the published navigation, changes, and goes', async () => {
    const { t, endpoint } = session;
    const org = t.org.id;
    const api = session.client().orgs;
    const latest = session.latest().orgs;
    const { space: guide } = await buildSpaceWithPages(t, 'Welcome');
    const { data: site } = await api.createSite(org, { title: 'Product docs', spaces: [guide.id] } as never);

    // A site of site-spaces alone has no place for a link.
    await rejectsWith(latest.addExternalLinkToSite(org, site.id, { title: 'Status', url: 'https://status.example.com/' }), 400);
    const { data: section } = await api.addSectionToSite(org, site.id, { spaceId: guide.id, title: 'Guides' });
    const { data: group } = await api.addSectionGroupToSite(org, site.id, { title: 'More' });

    const { data: link, headers } = (await latest.addExternalLinkToSite(org, site.id, { title: 'Status page', url: 'https://status.example.com/', icon: 'signal' })) as unknown as {
      data: { id: string; object: string; draft: boolean; url: string };
      headers: Headers;
    };
    assert.equal(link.object, 'site-external-link');
    assert.equal(link.draft, false);
    assert.match(headers.get('location') ?? '', new RegExp(`/sites/${site.id}/external-links/${link.id}$`));
    const { data: grouped } = await latest.addExternalLinkToSite(org, site.id, { title: 'Community', url: 'https://forum.example.com/', parent: group.id, draft: true });
    assert.equal(grouped.sectionGroup, group.id);

    // Bad input names the field.
    await rejectsWith(latest.addExternalLinkToSite(org, site.id, { title: 'Script', url: 'javascript:alert(1)' }), 400, 'body/url');
    await rejectsWith(latest.addExternalLinkToSite(org, site.id, { title: 'Nowhere', url: 'https://x.example.com/', parent: 'no-group' }), 400, 'body/parent');
    await rejectsWith(latest.updateSiteExternalLinkById(org, site.id, link.id, { condition: 'visitor.claims ==' }), 400, 'body/condition');

    // Members who read the site cannot change it; an outsider does not see it.
    const reader = await t.member('read');
    await rejectsWith(session.latest(reader.token).orgs.addExternalLinkToSite(org, site.id, { title: 'Mine', url: 'https://mine.example.com/' }), 403);
    const outsider = await t.outsider();
    await rejectsWith(session.latest(outsider.token).orgs.updateSiteExternalLinkById(org, site.id, link.id, { title: 'Theirs' }), 404);
    await rejectsWith(latest.updateSiteExternalLinkById(org, site.id, 'no-link', { title: 'Missing' }), 404);

    // The structure holds them in their places (checked here against the 0.202.0 spec's objects by hand:
    // getSiteStructure is validated against the pinned spec, which has no external links yet).
    const structure = (await t.api('GET', `/v1/orgs/${org}/sites/${site.id}/structure`)).body as { type: string; structure: { object: string; id: string; children?: { object: string; id: string }[] }[] };
    assert.equal(structure.type, 'sections');
    // The site's first section wraps the spaces it had at its root.
    assert.deepEqual(structure.structure.slice(1).map((item) => [item.object, item.id]), [['site-section', section.id], ['site-section-group', group.id], ['site-external-link', link.id]]);
    assert.deepEqual(structure.structure.find((item) => item.id === group.id)!.children!.map((c) => [c.object, c.id]), [['site-external-link', grouped.id]]);

    const { data: updated } = await latest.updateSiteExternalLinkById(org, site.id, link.id, { title: 'System status', url: 'https://status.example.org/' });
    assert.equal(updated.title, 'System status');
    // `Prefer: return=minimal` (the official client would read the empty answer as JSON, so it is sent here directly).
    const minimal = await t.api('PATCH', `/v1/orgs/${org}/sites/${site.id}/external-links/${grouped.id}`, { headers: { prefer: 'return=minimal' }, body: { draft: false, parent: null } });
    assert.equal(minimal.status, 204);
    assert.equal(minimal.headers['preference-applied'], 'return=minimal');

    // The published site shows both links beside its section.
    await api.publishSite(org, site.id);
    const page = await (await fetch(`${endpoint}/sites/${site.id}/`)).text();
    const nav = /<nav class="sections"[\s\S]*?<\/nav>/.exec(page)?.[0] ?? '';
    assert.match(nav, /href="https:\/\/status\.example\.org\/"[^>]*>[\s\S]*?System status/);
    assert.match(nav, /href="https:\/\/forum\.example\.com\/"[^>]*>[\s\S]*?Community/);
    assert.ok(nav.indexOf('Guides') < nav.indexOf('System status'), nav);

    // A draft link is not shown.
    await latest.updateSiteExternalLinkById(org, site.id, link.id, { draft: true });
    const after = await (await fetch(`${endpoint}/sites/${site.id}/`)).text();
    assert.doesNotMatch(after, /status\.example\.org/);

    assert.equal((await latest.deleteSiteExternalLinkById(org, site.id, link.id)).status, 205);
    assert.equal((await latest.deleteSiteExternalLinkById(org, site.id, link.id)).status, 204);
    const rest = (await t.api('GET', `/v1/orgs/${org}/sites/${site.id}/structure`)).body as { structure: { id: string }[] };
    assert.ok(!rest.structure.some((item) => item.id === link.id));
  });

  test('a site\'s custom hostname is read, its DNS checked again, and taken away', async () => {
    const { t } = session;
    const org = t.org.id;
    const api = session.client().orgs;
    const guide = (await api.createSpace(org, { title: 'Help' })).data;
    const { data: site } = await api.createSite(org, { title: 'Help center', spaces: [guide.id] } as never);
    await api.updateSiteById(org, site.id, { hostname: 'help.customer.example' } as never);
    const hostnames = session.client().customHostnames;

    const { data: hostname } = await hostnames.getCustomHostname('help.customer.example');
    assert.deepEqual(hostname.target, { type: 'site', site: site.id });
    assert.equal(hostname.isActive, false);
    assert.equal(hostname.status, undefined);

    // Inactive until the site is published.
    await rejectsWith(hostnames.dnsRevalidateCustomHostname('help.customer.example'), 409);
    await api.publishSite(org, site.id);
    const serverHost = new URL(session.endpoint).hostname;
    const real = { ...hostnameDns };
    try {
      hostnameDns.resolveCname = async () => ['elsewhere.example.net.'];
      assert.equal((await hostnames.dnsRevalidateCustomHostname('help.customer.example')).status, 204);
      assert.equal((await hostnames.getCustomHostname('help.customer.example')).data.status, 'dns_wrong_cname');
      hostnameDns.resolveCname = async () => [`${serverHost}.`];
      await hostnames.dnsRevalidateCustomHostname('help.customer.example');
      const { data: live } = await hostnames.getCustomHostname('help.customer.example');
      assert.equal(live.status, 'live');
      assert.equal(live.isActive, true);
    } finally {
      Object.assign(hostnameDns, real);
    }

    // A reader of the site sees it but may not change it; an outsider sees nothing.
    const reader = await t.member('read');
    const asReader = session.client(reader.token).customHostnames;
    assert.equal((await asReader.getCustomHostname('help.customer.example')).data.hostname, 'help.customer.example');
    await rejectsWith(asReader.dnsRevalidateCustomHostname('help.customer.example'), 403);
    await rejectsWith(asReader.removeCustomHostname('help.customer.example'), 403);
    const outsider = await t.outsider();
    await rejectsWith(session.client(outsider.token).customHostnames.getCustomHostname('help.customer.example'), 404);
    await rejectsWith(hostnames.getCustomHostname('nobody.customer.example'), 404);

    assert.equal((await hostnames.removeCustomHostname('help.customer.example')).status, 205);
    assert.equal((await hostnames.removeCustomHostname('help.customer.example')).status, 204);
    assert.equal((await api.getSiteById(org, site.id)).data.hostname, undefined);
    await rejectsWith(hostnames.getCustomHostname('help.customer.example'), 404);

    session.assertConformed(OPERATIONS);
  });
});
