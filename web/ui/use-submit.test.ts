import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError } from '../api/client.ts';
import { fieldOfMessage, placeError } from './use-submit.ts';

test('an API message names its field as the server words it: validation, services, a bare name and a colon', () => {
  assert.deepEqual(fieldOfMessage('body/title must NOT have fewer than 2 characters'), { field: 'title', text: 'title must NOT have fewer than 2 characters' });
  assert.deepEqual(fieldOfMessage('body/expiresAt must be in the future'), { field: 'expiresAt', text: 'expiresAt must be in the future' });
  assert.deepEqual(fieldOfMessage('body/memberships/u1: not a member of this organization'), { field: 'memberships', text: 'memberships/u1: not a member of this organization' });
  assert.deepEqual(fieldOfMessage('title: too short'), { field: 'title', text: 'title: too short' });
  assert.equal(fieldOfMessage('body must name at least one of users or teams'), undefined);
  assert.equal(fieldOfMessage('The server could not be reached; check the connection and try again'), undefined);
  assert.equal(fieldOfMessage('Mail is not set up on this server (SMTP_URL): ask an administrator'), undefined);
});

test('a form shows a message beside the field it names when it has that field, else under the form', () => {
  const short = new ApiError(400, 'body/title must NOT have fewer than 2 characters');
  assert.deepEqual(placeError(short, ['title', 'logo']), { fields: { title: 'title must NOT have fewer than 2 characters' }, form: undefined });
  assert.deepEqual(placeError(short, ['logo']), { fields: {}, form: short });
  const other = new ApiError(409, 'A site with this title exists');
  assert.deepEqual(placeError(other, ['title']), { fields: {}, form: other });
  assert.deepEqual(placeError(null, ['title']), { fields: {}, form: undefined });
});
