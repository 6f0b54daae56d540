import assert from 'node:assert/strict';
import type { ApiResponse, TestServer } from '../../../test/helpers.ts';

export function assertError(res: ApiResponse, status: number, mentions?: string | RegExp): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.error.code, status);
  assert.equal(typeof res.body.error.message, 'string');
  if (typeof mentions === 'string') assert.ok(res.body.error.message.includes(mentions), `"${res.body.error.message}" should mention ${mentions}`);
  else if (mentions) assert.match(res.body.error.message, mentions);
}

export function ok(res: ApiResponse, status = 200) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  return res.body;
}

/** Builders for site tests, on one test server, as its bootstrap admin unless a token is given. */
export function siteBuilders(t: TestServer) {
  const sites = `/v1/orgs/${t.org.id}/sites`;
  return {
    sites,
    async space(title = 'Space', options: { token?: string } = {}) {
      return ok(await t.api('POST', `/v1/orgs/${t.org.id}/spaces`, { body: { title }, ...options }), 201);
    },
    async site(body: Record<string, unknown> = {}) {
      t.clock.advance(1000); // sites list in creation order
      return ok(await t.api('POST', sites, { body: { title: 'Docs', ...body } }), 201);
    },
    async addSpace(siteId: string, spaceId: string, sectionId?: string) {
      return ok(await t.api('POST', `${sites}/${siteId}/site-spaces`, { body: { spaceId, ...(sectionId ? { sectionId } : {}) } }), 201);
    },
    async section(siteId: string, spaceId: string, title?: string) {
      return ok(await t.api('POST', `${sites}/${siteId}/sections`, { body: { spaceId, ...(title ? { title } : {}) } }), 201);
    },
    async published(siteId: string, query = '') {
      return ok(await t.api('GET', `${sites}/${siteId}/published${query}`));
    },
    async eventsOfType(type: string): Promise<Record<string, unknown>[]> {
      const rows = await t.db.selectFrom('events').select('payload').where('type', '=', type).orderBy('created_at').execute();
      return rows.map((r) => JSON.parse(r.payload));
    },
  };
}
