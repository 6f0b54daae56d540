import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { OfficialSpec, isSpecEmoji, openApiToJsonSchema, type Exchange } from './spec-validator.ts';

/** The oracle of the end-to-end tests must bite: these cases show it rejects what the spec rejects. */

const spec = OfficialSpec.load();
const json = new Headers({ 'content-type': 'application/json; charset=utf-8' });

function space(overrides: Record<string, unknown> = {}) {
  return {
    object: 'space',
    id: 'sp1',
    title: 'Handbook',
    emoji: '1f4d8',
    visibility: 'private',
    createdAt: '2026-01-05T10:00:00.000Z',
    updatedAt: '2026-01-05T10:00:00.000Z',
    mergeRules: { type: 'inherit' },
    urls: { location: 'http://127.0.0.1:1/v1/spaces/sp1', app: 'http://127.0.0.1:1/app/s/sp1' },
    organization: 'org1',
    revision: 'rev1',
    defaultLevel: 'inherit',
    comments: 0,
    changeRequests: 0,
    changeRequestsOpen: 0,
    changeRequestsDraft: 0,
    permissions: {
      view: true,
      access: true,
      admin: true,
      viewInviteLinks: true,
      edit: true,
      triggerGitSync: true,
      comment: true,
      merge: true,
      review: true,
      installIntegration: true,
    },
    ...overrides,
  };
}

function problems(exchange: Partial<Exchange> & { body?: unknown }): string[] {
  const { body, ...rest } = exchange;
  return spec.check({
    method: 'GET',
    path: '/spaces/sp1',
    status: 200,
    headers: json,
    text: body === undefined ? '' : JSON.stringify(body),
    ...rest,
  }).problems;
}

describe('the spec validator', () => {
  test('a conforming space passes', () => {
    assert.deepEqual(problems({ body: space() }), []);
  });

  test('a missing required field, a wrong enum value and a bad date fail', () => {
    const { mergeRules: _omitted, ...withoutMergeRules } = space();
    assert.match(problems({ body: withoutMergeRules }).join('\n'), /mergeRules/);
    assert.match(problems({ body: space({ visibility: 'secret' }) }).join('\n'), /visibility/);
    assert.match(problems({ body: space({ createdAt: 'yesterday' }) }).join('\n'), /createdAt/);
    assert.match(problems({ body: space({ emoji: 'not an emoji' }) }).join('\n'), /emoji/);
  });

  test('null is accepted only where the spec says nullable', () => {
    assert.deepEqual(problems({ body: space({ defaultLevel: null }) }), []);
    assert.match(problems({ body: space({ title: null }) }).join('\n'), /title/);
  });

  test('a list is checked item by item', () => {
    const list = { count: 1, items: [space({ comments: 'none' })] };
    assert.match(problems({ path: '/orgs/org1/spaces', body: list }).join('\n'), /items\/0\/comments/);
  });

  test('an error body must have the spec shape and the status as its code', () => {
    assert.deepEqual(problems({ status: 404, body: { error: { code: 404, message: 'No space sp1' } } }), []);
    assert.ok(problems({ status: 404, body: { message: 'No space' } }).length > 0);
    assert.match(problems({ status: 404, body: { error: { code: 400, message: 'x' } } }).join('\n'), /code/);
    // 403 is not declared by the operation: the spec's generic error applies.
    assert.deepEqual(problems({ method: 'PATCH', status: 403, body: { error: { code: 403, message: 'No' } } }), []);
  });

  test('an undeclared success status, an unknown route and a body on 204 fail', () => {
    assert.match(problems({ status: 201, body: space() }).join('\n'), /does not declare status 201/);
    assert.match(problems({ path: '/nowhere', body: {} }).join('\n'), /no operation/);
    assert.match(problems({ method: 'DELETE', status: 204, body: { ok: true } }).join('\n'), /no body/);
    assert.deepEqual(problems({ method: 'DELETE', status: 204 }), []);
  });

  test('a created resource must carry the Location header the spec declares', () => {
    assert.match(problems({ method: 'POST', path: '/orgs/org1/spaces', status: 201, body: space() }).join('\n'), /Location/);
    const headers = new Headers(json);
    headers.set('location', 'http://127.0.0.1:1/v1/spaces/sp1');
    assert.deepEqual(problems({ method: 'POST', path: '/orgs/org1/spaces', status: 201, headers, body: space() }), []);
  });

  test('OpenAPI nullable becomes a JSON Schema null alternative', () => {
    assert.deepEqual(openApiToJsonSchema({ type: 'string', nullable: true, enum: ['a'] }), { type: ['string', 'null'], enum: ['a', null] });
    assert.deepEqual(openApiToJsonSchema({ $ref: '#/x', nullable: true }), { anyOf: [{ $ref: '#/x' }, { type: 'null' }] });
  });

  test('emoji are characters or hex code points', () => {
    for (const ok of ['', '🎉', '👩‍💻', '🇫🇷', '1f389', '1f468-200d-1f4bb']) assert.ok(isSpecEmoji(ok), ok);
    for (const bad of ['xyz', 'hello 🎉', ':tada:']) assert.ok(!isSpecEmoji(bad), bad);
  });
});
