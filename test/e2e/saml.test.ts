import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MemberRole, officialClient, rejectsWith } from './gitbook-client.ts';
import { listenOnRandomPort, startServer, type TestServer } from '../helpers.ts';
import { OfficialSpec, SpecViolation, specCheckedFetch, type CheckedExchange } from './spec-validator.ts';
import { makeIdp, type TestIdp } from '../../src/features/saml/idp.test-support.ts';

/** SAML providers over real HTTP with the official client; every response is checked against the official spec. */

const OPERATIONS = [
  'listSAMLProvidersInOrganizationById',
  'createOrganizationSAMLProvider',
  'getOrganizationSAMLProviderById',
  'updateOrganizationSAMLProvider',
  'deleteOrganizationSAMLProvider',
  'listSSOProviderLoginsInOrganization',
  'setUserAsSSOMemberForOrganization',
];

describe('SAML providers through the official client', { timeout: 300_000 }, () => {
  let t: TestServer;
  let endpoint: string;
  let idp: TestIdp;
  const spec = OfficialSpec.load();
  const log: CheckedExchange[] = [];
  const checkedFetch = specCheckedFetch(spec, log);
  const client = (token: string | null = t.admin.token) =>
    officialClient({ endpoint, ...(token ? { authToken: token } : {}), serviceBinding: { fetch: checkedFetch } });

  before(async () => {
    t = await startServer();
    endpoint = await listenOnRandomPort(t);
    idp = await makeIdp();
  });
  after(() => t.close(), { timeout: 30_000 });

  test('an admin configures a provider; members read it; the sign-in list shows its start URL', async () => {
    const owner = await t.outsider();
    const orgId = owner.organizationId;
    const api = client(owner.token).orgs;
    const { data: team } = await api.createOrganizationTeam(orgId, { title: 'Staff' });
    const { data: created } = await api.createOrganizationSamlProvider(orgId, {
      label: 'Okta',
      entityID: idp.entityID,
      ssoURL: idp.ssoURL,
      certificate: idp.certificate,
      defaultTeam: team.id,
      defaultRole: MemberRole.Read,
    });
    assert.equal(created.status, 'active');
    assert.equal(created.defaultTeam?.id, team.id);
    assert.equal(created.service.acsURL, `${endpoint}/sso/saml/${created.id}/acs`);
    const { data: updated } = await api.updateOrganizationSamlProvider(orgId, created.id, { label: 'Okta (prod)', defaultRole: MemberRole.Edit });
    assert.equal(updated.label, 'Okta (prod)');
    assert.equal(updated.defaultRole, 'edit');
    const reader = await t.member('read', orgId);
    const { data: got } = await client(reader.token).orgs.getOrganizationSamlProviderById(orgId, created.id);
    // The default team's `permissions` are the reader's own; the rest is the same provider.
    assert.deepEqual({ ...got, defaultTeam: got.defaultTeam?.id }, { ...updated, defaultTeam: team.id });
    const { data: list } = await api.listSamlProvidersInOrganizationById(orgId, { limit: 10 });
    assert.deepEqual(list.items.map((p) => p.id), [created.id]);
    const { data: logins } = await client(null).orgs.listSsoProviderLoginsInOrganization(orgId);
    assert.deepEqual(logins.items, [{ id: created.id, label: 'Okta (prod)', startURL: created.service.startURL }]);
    const { data: member } = await api.setUserAsSsoMemberForOrganization(orgId, reader.userId);
    assert.equal(member.sso, true);

    await rejectsWith(client(reader.token).orgs.updateOrganizationSamlProvider(orgId, created.id, { label: 'Mine' }), 403);
    await rejectsWith(api.createOrganizationSamlProvider(orgId, { label: 'Broken', certificate: 'garbage' }), 400);
    await rejectsWith(client((await t.outsider()).token).orgs.getOrganizationSamlProviderById(orgId, created.id), 404);
    const { data: pending } = await api.createOrganizationSamlProvider(orgId, { label: 'Later' });
    assert.equal(pending.status, 'pending');
    const deleted = await api.deleteOrganizationSamlProvider(orgId, created.id);
    assert.equal(deleted.status, 205);
    await rejectsWith(api.getOrganizationSamlProviderById(orgId, created.id), 404);
  });

  test('every operation was exercised and conformed to the official spec', () => {
    const violations = log.filter((entry) => entry.problems.length > 0);
    assert.deepEqual(violations.map((v) => new SpecViolation(v).message), []);
    const succeeded = new Set(log.filter((entry) => entry.status < 300).map((entry) => entry.operationId));
    assert.deepEqual(OPERATIONS.filter((op) => !succeeded.has(op)), [], 'operations never answered with a success');
  });
});
