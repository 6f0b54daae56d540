import assert from 'node:assert/strict';
import type { ApiResponse, TestServer } from '../../../test/helpers.ts';

/** What the comment tests share: building spaces with pages and change requests through the API. */

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

export async function newSpace(t: TestServer, token?: string): Promise<{ id: string; revision: string }> {
  const res = await t.api('POST', `/v1/orgs/${t.org.id}/spaces`, { body: { title: 'Docs' }, ...(token ? { token } : {}) });
  return ok(res, 201);
}

export async function openChangeRequest(t: TestServer, spaceId: string): Promise<{ id: string; number: number }> {
  return ok(await t.api('POST', `/v1/spaces/${spaceId}/change-requests`, { body: { subject: 'Edits' } }), 201);
}

/** Applies content changes to a change request; returns the ids of the pages it touched, in order. */
export async function writeContent(t: TestServer, spaceId: string, crId: string, changes: unknown[]): Promise<string[]> {
  const res = ok(await t.api('POST', `/v1/spaces/${spaceId}/change-requests/${crId}/content?compat=false`, { body: { changes } }));
  return res.changes.map((c: { page?: { id: string } | string }) => (typeof c.page === 'string' ? c.page : c.page?.id));
}

export async function merge(t: TestServer, spaceId: string, crId: string): Promise<void> {
  const res = ok(await t.api('POST', `/v1/spaces/${spaceId}/change-requests/${crId}/merge`));
  assert.equal(res.result, 'merge', JSON.stringify(res));
}

/** Changes the space's live content through a change request merged at once. */
export async function editLive(t: TestServer, spaceId: string, changes: unknown[]): Promise<string[]> {
  const cr = await openChangeRequest(t, spaceId);
  const ids = await writeContent(t, spaceId, cr.id, changes);
  await merge(t, spaceId, cr.id);
  return ids;
}

/** A space whose current revision has pages with these titles (and a paragraph each); returns their ids. */
export async function spaceWithPages(t: TestServer, ...titles: string[]): Promise<{ space: { id: string }; pages: string[] }> {
  const space = await newSpace(t);
  const pages = await editLive(
    t,
    space.id,
    titles.map((title) => ({ operation: 'insert_page', title, document: { markdown: `About ${title}.\n\nA second paragraph of ${title}.` } })),
  );
  return { space, pages };
}

export const markdown = (text: string) => ({ markdown: text });
