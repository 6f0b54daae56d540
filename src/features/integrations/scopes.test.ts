import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OPERATION_SCOPES, OWN, scopeRefusal } from './scopes.ts';
import { INTEGRATION_SCOPES } from './schemas.ts';

test('a read scope reads content but does not write it', () => {
  assert.equal(scopeRefusal('listPages', ['space:content:read']), null);
  assert.match(scopeRefusal('importContent', ['space:content:read']) ?? '', /needs the integration scope "space:content:write"/);
});

test('a write scope also reads what it writes', () => {
  assert.equal(scopeRefusal('getPageById', ['space:content:write']), null);
  assert.equal(scopeRefusal('importContent', ['space:content:write']), null);
});

test('an operation outside the table is refused whatever the scopes', () => {
  assert.match(scopeRefusal('listMembersInOrganizationById', [...INTEGRATION_SCOPES]) ?? '', /not available to integration installation tokens/);
  assert.match(scopeRefusal(undefined, [...INTEGRATION_SCOPES]) ?? '', /not available/);
});

test('the installation’s own records need no scope', () => {
  assert.equal(scopeRefusal('getIntegrationInstallationById', []), null);
  assert.equal(OPERATION_SCOPES.createIntegrationInstallationToken, OWN);
});

test('every scope named in the table is an official IntegrationScope', () => {
  for (const [operationId, scopes] of Object.entries(OPERATION_SCOPES)) {
    if (scopes === OWN) continue;
    for (const scope of scopes) assert.ok((INTEGRATION_SCOPES as readonly string[]).includes(scope), `${operationId}: ${scope}`);
  }
});
