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
  const row = await db.selectFrom('documents').select('body').where('id', '=', id).executeTakeFirst();
  return row ? (JSON.parse(row.body) as unknown) : undefined;
}

/** Several documents in one query, by id (absent ids are left out). */
export async function getDocuments(db: Executor, ids: readonly string[]): Promise<Map<string, unknown>> {
  const documents = new Map<string, unknown>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 500) {
    const rows = await db.selectFrom('documents').select(['id', 'body']).where('id', 'in', unique.slice(i, i + 500)).execute();
    for (const row of rows) documents.set(row.id, JSON.parse(row.body) as unknown);
  }
  return documents;
}
