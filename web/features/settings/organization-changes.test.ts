import { test } from 'node:test';
import assert from 'node:assert/strict';
import { settingsChanges, type SettingsForm } from './organization-changes.ts';

const before: SettingsForm = { title: 'Acme', logo: '', hostname: 'acme', defaultRole: 'read', emailDomains: 'acme.com', inviteLinks: true };

test('only what changed is sent, as the API takes it', () => {
  assert.deepEqual(settingsChanges(before, before), {});
  assert.deepEqual(settingsChanges(before, { ...before, title: ' Acme Docs ', emailDomains: 'acme.com, ACME.org' }), { title: 'Acme Docs', emailDomains: ['acme.com', 'acme.org'] });
  assert.deepEqual(settingsChanges({ ...before, logo: 'https://a/l.png' }, { ...before, logo: '' }), { logo: null });
  assert.deepEqual(settingsChanges(before, { ...before, defaultRole: 'guest', inviteLinks: false }), { defaultRole: 'guest', inviteLinks: false });
});
