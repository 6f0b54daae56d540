import { createHash } from 'node:crypto';
import type { Executor } from '../../db/types.ts';

/** Canonical JSON: keys sorted, so equal documents hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/** Stores a document once per distinct content; its id is the hash of its canonical JSON. */
export async function putDocument(db: Executor, document: unknown, now: string): Promise<string> {
  const body = canonicalJson(document);
  const id = createHash('sha256').update(body).digest('base64url').slice(0, 32);
  await db.insertInto('documents').values({ id, body, created_at: now }).onConflict((oc) => oc.column('id').doNothing()).execute();
  return id;
}

export async function getDocument(db: Executor, id: string): Promise<unknown | undefined> {
  const text = await getDocumentText(db, id);
  return text === undefined ? undefined : (JSON.parse(text) as unknown);
}

/** The stored JSON text of a document. */
export async function getDocumentText(db: Executor, id: string): Promise<string | undefined> {
  const row = await db.selectFrom('documents').select('body').where('id', '=', id).executeTakeFirst();
  return row?.body;
}
