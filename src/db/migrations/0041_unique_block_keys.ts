import type { Kysely } from 'kysely';
import { withUniqueKeys } from '../../features/content/document/keys.ts';
import type { Document } from '../../features/content/document/types.ts';

/**
 * Stored documents whose nodes hold a key twice (issue 39: the editor copied a block's key to the new half of a
 * split, and writes were not checked until now) get new keys for the later copies; the first holder, by
 * position, keeps its key, and with it the comments, threads and links that point at it.
 *
 * A document's id is the hash of its content, and every revision that holds the content points at the id. The
 * repair rewrites the body in place and keeps the id: page versions of every revision, document links and
 * collaboration states keep pointing at it, where a new id would mean rewriting the history of every space.
 * Nothing reads the id back from the body: a document is looked up by id and stored (putDocument) under the hash
 * of what is stored then, so after the repair the old content's hash still finds the repaired document (and the
 * old content is refused on write now), and the repaired content, stored again, is one more copy under its own
 * hash, which is harmless. The body stays canonical JSON: the parsed body keeps its keys' order, and only the
 * values of some `key` fields change.
 *
 * Documents are read a batch at a time, in the order of their ids, so a large database is repaired in bounded
 * memory, with progress on stderr. A body is parsed only when its text names a key value twice.
 */

interface Tables {
  documents: { id: string; body: string };
}

/**
 * Documents read at once: as many as keep a batch near BODY_CHARS characters, between 1 and MAX_BATCH (a batch of
 * large ones makes the next smaller). Small batches are also the quick ones: SQLite reads a hundred bodies at a
 * time four times faster than five hundred. Measured on copies of the corpus: 20,000 documents (394 million
 * characters, 1 in 100 repaired) in 4.7 s on SQLite, 10,000 in 7.3 s on PostgreSQL.
 */
const BODY_CHARS = 2_000_000;
const MAX_BATCH = 128;
const PROGRESS_EVERY_MS = 10_000;

/** Every `"key":"…"` of a JSON text: property names (a quote inside a string is written `\"`), node keys among them. */
const KEY_FIELD = /"key":"((?:[^"\\]|\\.)*)"/g;

/** Whether a body may hold a node key twice: it names some `key` value twice (node keys, and a few others). */
function namesAKeyTwice(body: string): boolean {
  const seen = new Set<string>();
  for (const match of body.matchAll(KEY_FIELD)) {
    if (seen.has(match[1]!)) return true;
    seen.add(match[1]!);
  }
  return false;
}

export async function up(untyped: Kysely<unknown>): Promise<void> {
  const db = untyped as unknown as Kysely<Tables>;
  const total = Number((await db.selectFrom('documents').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  if (total === 0) return;
  const log = (line: string) => console.error(`migration 0041_unique_block_keys: ${line}`);
  let scanned = 0;
  let repaired = 0;
  let last = '';
  let lastLog = Date.now();
  let batch = 64;
  for (;;) {
    const rows = await db.selectFrom('documents').select(['id', 'body']).where('id', '>', last).orderBy('id').limit(batch).execute();
    if (rows.length === 0) break;
    last = rows[rows.length - 1]!.id;
    let chars = 0;
    for (const { id, body } of rows) {
      chars += body.length;
      if (!namesAKeyTwice(body)) continue;
      const document = JSON.parse(body) as Document;
      const unique = withUniqueKeys(document);
      if (unique === document) continue;
      await db.updateTable('documents').set({ body: JSON.stringify(unique) }).where('id', '=', id).execute();
      repaired += 1;
    }
    batch = Math.max(1, Math.min(MAX_BATCH, Math.floor((batch * BODY_CHARS) / Math.max(chars, 1))));
    scanned += rows.length;
    if (Date.now() - lastLog >= PROGRESS_EVERY_MS) {
      log(`${scanned} of ${total} documents read, ${repaired} repaired so far`);
      lastLog = Date.now();
    }
  }
  log(`${repaired} of ${scanned} documents held a key on two nodes; the later copies have new keys`);
}

/** The old keys are not kept: a key repeated is what the repair removed, and nothing needs it back. */
export async function down(): Promise<void> {}
