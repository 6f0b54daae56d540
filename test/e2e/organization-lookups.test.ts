import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rejectsWith } from './gitbook-client.ts';
import { e2eSession } from './e2e-session.ts';
import { buildOrganization, buildSpace, markdown, writeMain } from '../factories.ts';

/**
 * Lookups about people and organizations through the official client, every exchange checked against the
 * official spec: a person changes their own profile, a subdomain names its organization, a person with a
 * proven address of an organization's e-mail domain finds it and joins it, and an admin previews a site. Each answers its success and its
 * main refusals (401 without a token, 403 where the caller may see but not act, 404 for what the caller cannot
 * see, 400 naming what was wrong).
 */

const OPERATIONS = ['updateUserById', 'getSubdomain', 'getOrganizationsForEmailDomain', 'joinOrganization', 'getSitePublishingPreviewById'];

describe('organization lookups through the official client', { timeout: 300_000 }, () => {
  const session = e2eSession();
  const { client } = session;

  /** Gives a test user another address, proven or not (as an operator's `user` command or a mailed link would). */
  async function setEmail(userId: string, email: string, proven: boolean) {
    await session.t.db
      .updateTable('users')
      .set({ email, email_verified_at: proven ? new Date().toISOString() : null })
      .where('id', '=', userId)
      .execute();
  }

  test("a person changes their own name and picture, and only their own", async () => {
    const { t } = session;
    const member = await t.member('read');
    const api = client(member.token).users;
    const { data: updated } = await api.updateUserById(member.userId, { displayName: '  Ada Lovelace ', photoURL: 'https://images.example.com/ada.png' });
    assert.equal(updated.displayName, 'Ada Lovelace');
    assert.equal(updated.photoURL, 'https://images.example.com/ada.png');
    assert.equal(updated.id, member.userId);
    // Persisted: the caller and their colleagues read the new profile.
    assert.equal((await client(member.token).user.getAuthenticatedUser()).data.displayName, 'Ada Lovelace');
    assert.equal((await client().users.getUserById(member.userId)).data.photoURL, 'https://images.example.com/ada.png');
    const { data: renamed } = await api.updateUserById(member.userId, { displayName: 'Ada' });
    assert.equal(renamed.displayName, 'Ada');
    assert.equal(renamed.photoURL, 'https://images.example.com/ada.png', 'what is not named stays');

    // Bad input names the field; nothing changes.
    const refused = await t.api('PATCH', `/v1/users/${member.userId}`, { token: member.token, body: { photoURL: 'javascript:alert(1)' } });
    assert.equal(refused.status, 400);
    assert.match(refused.body.error.message, /photoURL/);
    await rejectsWith(api.updateUserById(member.userId, { displayName: '' }), 400);
    await rejectsWith(api.updateUserById(member.userId, { displayName: 'x'.repeat(65) }), 400);
    await rejectsWith(api.updateUserById(member.userId, {} as never), 400);
    await rejectsWith(api.updateUserById(member.userId, { displayName: '   ' }), 400);
    assert.equal((await client(member.token).user.getAuthenticatedUser()).data.displayName, 'Ada');

    // Someone else's profile: a colleague the caller sees is refused, a stranger is not there.
    const colleague = await t.member('read');
    await rejectsWith(api.updateUserById(colleague.userId, { displayName: 'Not yours' }), 403);
    await rejectsWith(client().users.updateUserById(colleague.userId, { displayName: 'Not even the admin' }), 403);
    const stranger = await t.outsider();
    await rejectsWith(api.updateUserById(stranger.userId, { displayName: 'Not yours' }), 404);
    await rejectsWith(api.updateUserById('no-such-user', { displayName: 'Nobody' }), 404);
    await rejectsWith(client(null).users.updateUserById(member.userId, { displayName: 'Anyone' }), 401);
    assert.notEqual((await client().users.getUserById(colleague.userId)).data.displayName, 'Not yours', 'nothing changed');
  });

  test('a subdomain names the organization that holds it, to those who can see that organization', async () => {
    const { t } = session;
    const { id: org, owner } = await buildOrganization(t);
    await client(owner.token).orgs.updateOrganizationById(org, { hostname: 'lookup-docs' });
    const { data: subdomain } = await client(owner.token).subdomains.getSubdomain('lookup-docs');
    assert.deepEqual(subdomain, { object: 'subdomain', subdomain: 'lookup-docs', target: { type: 'organization', organization: org }, isActive: true });
    const reader = await t.member('read', org);
    assert.equal((await client(reader.token).subdomains.getSubdomain('lookup-docs')).data.target.organization, org);
    const guest = await t.member(null, org);
    assert.equal((await client(guest.token).subdomains.getSubdomain('lookup-docs')).data.target.organization, org);

    // A new hostname: the old subdomain is nobody's.
    await client(owner.token).orgs.updateOrganizationById(org, { hostname: 'lookup-handbook' });
    await rejectsWith(client(owner.token).subdomains.getSubdomain('lookup-docs'), 404);
    assert.equal((await client(owner.token).subdomains.getSubdomain('lookup-handbook')).data.subdomain, 'lookup-handbook');

    await rejectsWith(client().subdomains.getSubdomain('lookup-handbook'), 404);
    await rejectsWith(client(null).subdomains.getSubdomain('lookup-handbook'), 401);
    await rejectsWith(client(owner.token).subdomains.getSubdomain('Not_A_Subdomain'), 400);
  });

  test('a proven address of an admitted domain finds the organization and joins it with its default role', async () => {
    const { t } = session;
    const { id: org, owner } = await buildOrganization(t);
    const admin = client(owner.token).orgs;
    await admin.updateOrganizationById(org, { emailDomains: ['acme.test'], defaultRole: 'edit' as never });
    const { id: otherOrg, owner: otherOwner } = await buildOrganization(t);
    await client(otherOwner.token).orgs.updateOrganizationById(otherOrg, { emailDomains: ['globex.test'] });

    const jo = await t.outsider();
    await setEmail(jo.userId, `jo-${jo.userId.toLowerCase()}@acme.test`, true);
    const asJo = client(jo.token);
    const { data: found } = await asJo.emailDomains.getOrganizationsForEmailDomain('acme.test');
    assert.deepEqual(found.organizations.map((o) => o.id), [org]);
    assert.equal(found.organizations[0]!.permissions.view, false, 'not a member yet');
    assert.deepEqual((await asJo.emailDomains.getOrganizationsForEmailDomain('ACME.test')).data.organizations.map((o) => o.id), [org]);
    // Another domain than the caller's own tells nothing of who admits it.
    assert.deepEqual((await asJo.emailDomains.getOrganizationsForEmailDomain('globex.test')).data.organizations, []);
    await rejectsWith(asJo.orgs.joinOrganization(otherOrg), 404);
    await rejectsWith(asJo.orgs.getOrganizationById(org), 404);

    const joined = await asJo.orgs.joinOrganization(org);
    assert.equal(joined.status, 204);
    assert.equal((await asJo.orgs.getOrganizationById(org)).data.id, org);
    const { data: member } = await admin.getMemberInOrganizationById(org, jo.userId);
    assert.equal(member.role, 'edit', "the organization's default role");
    // Joined once: joining again changes nothing, and the organization is no longer one to join.
    assert.equal((await asJo.orgs.joinOrganization(org)).status, 204);
    assert.deepEqual((await asJo.emailDomains.getOrganizationsForEmailDomain('acme.test')).data.organizations, []);

    // An address nobody proved admits no one, whatever its domain.
    const unproven = await t.outsider();
    await setEmail(unproven.userId, `u-${unproven.userId.toLowerCase()}@acme.test`, false);
    const refused = await t.api('POST', `/v1/orgs/${org}/join`, { token: unproven.token });
    assert.equal(refused.status, 400);
    assert.match(refused.body.error.message, /verified e-mail address/);
    assert.deepEqual((await client(unproven.token).emailDomains.getOrganizationsForEmailDomain('acme.test')).data.organizations, []);
    await rejectsWith(client(unproven.token).orgs.getOrganizationById(org), 404);

    // A disabled member stays out; an organization that is not there, or not theirs to join, is a 404.
    await t.db.updateTable('members').set({ disabled: 1 }).where('organization_id', '=', org).where('user_id', '=', jo.userId).execute();
    await rejectsWith(asJo.orgs.joinOrganization(org), 403);
    await rejectsWith(asJo.orgs.joinOrganization('no-such-organization'), 404);
    await rejectsWith(client((await t.outsider()).token).orgs.joinOrganization(org), 404);
    await rejectsWith(client(null).orgs.joinOrganization(org), 401);
    await rejectsWith(client(null).emailDomains.getOrganizationsForEmailDomain('acme.test'), 401);
    await rejectsWith(asJo.emailDomains.getOrganizationsForEmailDomain('not_a_domain'), 400);
  });

  test('a preview URL shows a site, published or not, as a visitor with the given claims, for an hour', async () => {
    const { t, endpoint } = session;
    const org = t.org.id;
    const api = client().orgs;
    const guide = await buildSpace(t, { title: 'Preview guide' });
    await writeMain(t, guide.id, [{ operation: 'insert_page', title: 'Start', document: markdown('Words for everyone.') }]);
    const beta = await buildSpace(t, { title: 'Preview beta' });
    await writeMain(t, beta.id, [{ operation: 'insert_page', title: 'Beta', document: markdown('Words for admins.') }]);
    const { data: site } = await api.createSite(org, { title: 'Preview site', spaces: [guide.id] });
    await api.updateSiteById(org, site.id, { basename: 'preview-docs', adaptiveContent: { enabled: true } } as never);
    const { data: variant } = await api.addSpaceToSite(org, site.id, { spaceId: beta.id });
    await api.updateSiteSpaceById(org, site.id, variant.id, { path: 'beta', condition: 'visitor.claims.role == "admin"' });
    const root = `${endpoint}/sites/preview-docs/`;
    assert.equal((await fetch(root)).status, 404, 'not published');

    const { data: preview } = await api.getSitePublishingPreviewById(org, site.id);
    assert.ok(preview.url.startsWith(`${root}?preview=`), preview.url);
    const opened = await fetch(preview.url);
    assert.equal(opened.status, 200);
    assert.match(await opened.text(), /Words for everyone\./);
    assert.match(opened.headers.get('cache-control') ?? '', /private/);
    assert.equal(opened.headers.get('x-robots-tag'), 'noindex');
    // The next pages need no token in their URL: the cookie carries it.
    const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0]!;
    assert.match(cookie, /^quire_site_preview=/);
    assert.equal((await fetch(root, { headers: { cookie } })).status, 200);

    // As a visitor with claims, at a site-space only such visitors see; without the claims it is not there.
    const { data: asAdmin } = await api.getSitePublishingPreviewById(org, site.id, { siteSpace: variant.id, claims: '(role:admin)' });
    assert.ok(asAdmin.url.startsWith(`${root}beta/?preview=`), asAdmin.url);
    const variantPage = await fetch(asAdmin.url);
    assert.equal(variantPage.status, 200);
    assert.match(await variantPage.text(), /Words for admins\./);
    const { data: anyone } = await api.getSitePublishingPreviewById(org, site.id, { siteSpace: variant.id });
    assert.equal((await fetch(anyone.url)).status, 404);
    const { data: targeted } = await session.latest().orgs.getSitePublishingPreviewById(org, site.id, { target: `${root}beta/`, claims: "(role:'admin')" });
    assert.equal((await fetch(targeted.url)).status, 200);

    // An hour later the URL opens nothing; a new visitor-auth key ends earlier previews too.
    t.clock.advance(61 * 60_000);
    assert.equal((await fetch(preview.url)).status, 404);
    const { data: fresh } = await api.getSitePublishingPreviewById(org, site.id);
    assert.equal((await fetch(fresh.url)).status, 200);
    await api.regenerateSitePublishingAuthById(org, site.id);
    assert.equal((await fetch(fresh.url)).status, 404);

    // draft=false previews the published site only.
    await rejectsWith(session.latest().orgs.getSitePublishingPreviewById(org, site.id, { draft: false }), 400);
    await api.publishSite(org, site.id);
    assert.equal((await fetch((await session.latest().orgs.getSitePublishingPreviewById(org, site.id, { draft: false })).data.url)).status, 200);

    // Bad input names the parameter; members who cannot manage the site are refused; others see nothing.
    const bad = await t.api('GET', `/v1/orgs/${org}/sites/${site.id}/publishing/preview?claims=${encodeURIComponent('(role:')}`);
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /claims/);
    await rejectsWith(api.getSitePublishingPreviewById(org, site.id, { siteSpace: 'no-such-site-space' }), 400);
    await rejectsWith(session.latest().orgs.getSitePublishingPreviewById(org, site.id, { target: 'https://elsewhere.example/' }), 400);
    await rejectsWith(client((await t.member('read')).token).orgs.getSitePublishingPreviewById(org, site.id), 403);
    await rejectsWith(client((await t.outsider()).token).orgs.getSitePublishingPreviewById(org, site.id), 404);
    await rejectsWith(client(null).orgs.getSitePublishingPreviewById(org, site.id), 401);
  });

  test('every operation was exercised and conformed to the official spec', () => session.assertConformed(OPERATIONS));
});
