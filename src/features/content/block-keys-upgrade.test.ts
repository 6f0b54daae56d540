import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Migrator } from 'kysely';
import { startServer } from '../../../test/helpers.ts';
import { ok } from '../../../test/assertions.ts';
import { buildChangeRequest, buildSpace, markdown } from '../../../test/factories.ts';
import { migrations } from '../../db/migrations/index.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const paragraph = (key: string, text: string) => ({ object: 'block', type: 'paragraph', key, nodes: [{ object: 'text', key: `${key}t`, leaves: [{ object: 'leaf', text, marks: [] }] }] });

const keysOf = (document: unknown): string[] => {
  const keys: string[] = [];
  JSON.stringify(document, (name, value: unknown) => (name === 'key' ? void keys.push(value as string) : value));
  return keys;
};

test('migration 0041 gives the later copies of a stored key new keys, in place: ids, revisions and comments stay', async (t) => {
  const server = await startServer();
  try {
    const space = await buildSpace(server, { title: 'Split before the check' });
    const written = ok(await server.api('POST', `/v1/spaces/${space.id}/content`, {
      body: { changes: [{ operation: 'insert_page', title: 'Guide', document: { document: { object: 'document', data: {}, nodes: [paragraph('K', 'Alpha '), paragraph('A', 'paragraph.'), paragraph('L', 'Beta.')] } } }] },
    }));
    const pageId = written.changes[0].page.id as string;
    const other = ok(await server.api('POST', `/v1/spaces/${space.id}/content`, { body: { changes: [{ operation: 'insert_page', title: 'Other', document: markdown('Untouched.') }] } }));
    const comment = ok(await server.api('POST', `/v1/spaces/${space.id}/comments`, { body: { page: pageId, node: 'K', body: markdown('About Alpha') } }));
    // A change request made now shares the page's document with the main line (one row, one id).
    const cr = await buildChangeRequest(server, space.id);

    // As the editor saved it before keys were checked: the second half holds the first half's keys.
    const { document_id: documentId } = await server.db.selectFrom('page_versions').select('document_id').where('page_id', '=', pageId).where('to_seq', 'is', null).executeTakeFirstOrThrow();
    const stored = JSON.parse((await server.db.selectFrom('documents').select('body').where('id', '=', documentId!).executeTakeFirstOrThrow()).body);
    stored.nodes[1].key = 'K';
    stored.nodes[1].nodes[0].key = 'Kt';
    await server.db.updateTable('documents').set({ body: JSON.stringify(stored) }).where('id', '=', documentId!).execute();
    const untouched = await server.db.selectFrom('documents').select(['id', 'body']).where('id', '!=', documentId!).orderBy('id').execute();

    const logged = t.mock.method(console, 'error', () => undefined);
    const migrator = new Migrator({ db: server.db, provider: { getMigrations: async () => migrations } });
    assert.equal((await migrator.migrateTo('0038_git_sync_last_import')).error, undefined);
    const up = await migrator.migrateToLatest();
    assert.equal(up.error, undefined, String(up.error));
    logged.mock.restore();
    const lines = logged.mock.calls.map((call) => String(call.arguments[0]));
    assert.ok(lines.some((line) => /0041_unique_block_keys: 1 of \d+ documents held a key on two nodes/.test(line)), lines.join('\n'));

    const repaired = JSON.parse((await server.db.selectFrom('documents').select('body').where('id', '=', documentId!).executeTakeFirstOrThrow()).body);
    const keys = keysOf(repaired);
    assert.equal(new Set(keys).size, keys.length, keys.join(' '));
    assert.deepEqual([repaired.nodes[0].key, repaired.nodes[0].nodes[0].key, repaired.nodes[2].key], ['K', 'Kt', 'L'], 'the first holders keep their keys');
    assert.deepEqual(await server.db.selectFrom('documents').select(['id', 'body']).where('id', '!=', documentId!).orderBy('id').execute(), untouched);

    // Every revision holding the document reads the repaired one, under the same id.
    for (const path of [`/v1/spaces/${space.id}/content/page/${pageId}`, `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${pageId}`]) {
      const page = ok(await server.api('GET', path));
      assert.deepEqual(keysOf(page.document), keys, path);
    }
    assert.equal(ok(await server.api('GET', `/v1/spaces/${space.id}/content/page/${other.changes[0].page.id}?format=markdown`)).markdown.trim(), 'Untouched.');
    // The comment written on K is on the block that holds K alone now: the first half.
    const [listed] = ok(await server.api('GET', `/v1/spaces/${space.id}/comments?targetPage=${pageId}`)).items as Json[];
    assert.equal(listed.id, comment.id);
    assert.equal(listed.target.node.id, 'K');
    assert.equal(repaired.nodes.filter((n: Json) => n.key === 'K').length, 1);

    // A second run finds nothing to repair.
    assert.equal((await migrator.migrateTo('0038_git_sync_last_import')).error, undefined);
    const again = t.mock.method(console, 'error', () => undefined);
    assert.equal((await migrator.migrateToLatest()).error, undefined);
    again.mock.restore();
    assert.ok(again.mock.calls.some((call) => /: 0 of \d+ documents/.test(String(call.arguments[0]))));
  } finally {
    await server.close();
  }
});
