import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { ok } from '../../../test/assertions.ts';
import { buildSpace } from '../../../test/factories.ts';
import { writeImportedContent } from './imported-content.ts';

let t: TestServer;
before(async () => {
  t = await startServer();
});
after(() => t.close());

const paragraph = (key: string, text: string) => ({ object: 'block', type: 'paragraph', key, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] });

test('an import whose document repeats a key is written with new keys for the later copies, not refused', async () => {
  const space = await buildSpace(t, { title: 'Imported' });
  const document = { object: 'document', data: {}, nodes: [paragraph('K', 'Alpha '), paragraph('K', 'paragraph.'), paragraph('L', 'Beta.')] };
  const page = { id: 'imported-page', parentId: null, kind: 'document' as const, title: 'Page', slug: '', document, attributes: {} };
  await writeImportedContent(t.app.ctx, { userId: t.admin.userId }, { id: space.id, organization_id: t.org.id }, { branch: 'main' }, { pages: [page], files: [], mode: { replace: true } });
  const stored = ok(await t.api('GET', `/v1/spaces/${space.id}/content/page/${page.id}`)).document;
  const keys = stored.nodes.map((n: { key: string }) => n.key);
  assert.equal(keys[0], 'K');
  assert.equal(keys[2], 'L');
  assert.equal(new Set(keys).size, 3);
  assert.equal(document.nodes[1]!.key, 'K', "the importer's document is left as it was");
});
