import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, Executor } from '../../db/types.ts';
import { extractLinks, type ExtractedLink } from '../links/extract.ts';
import { documentProblem, type DocumentProblem } from './document/validate.ts';

/** Canonical JSON: keys sorted, so equal documents hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/**
 * Stores a document once per distinct content; its id is the hash of its canonical JSON. A new document's
 * links are extracted here, in the same transaction: documents never change, so this happens once per
 * distinct content and reading links later costs no parsing.
 */
export async function putDocument(db: Executor, document: unknown, now: string): Promise<string> {
  const ready = prepared.get(document as object);
  const known = ready ?? identified.get(document as object);
  const body = known?.body ?? canonicalJson(document);
  const id = known?.id ?? documentIdOf(body);
  const inserted = await db.insertInto('documents').values({ id, body, created_at: now, links_extracted: 1 }).onConflict((oc) => oc.column('id').doNothing()).executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0) await storeDocumentLinks(db, id, document, ready?.links);
  return id;
}

/** Canonical JSON and id of documents whose id was asked for (documentIdFor). */
const identified = new WeakMap<object, { body: string; id: string }>();

/**
 * The id putDocument would give a document, without storing it. Its canonical JSON is remembered with the
 * document (which nothing changes once built), so storing it afterwards, as a merge does, hashes it once.
 */
export function documentIdFor(document: unknown): string {
  const known = prepared.get(document as object) ?? identified.get(document as object);
  if (known) return known.id;
  const body = canonicalJson(document);
  const id = documentIdOf(body);
  if (typeof document === 'object' && document !== null) identified.set(document, { body, id });
  return id;
}

/** A document's id: the hash of its canonical JSON. */
export function documentIdOf(body: string): string {
  return createHash('sha256').update(body).digest('base64url').slice(0, 32);
}

/**
 * What storing a document computes from it (its canonical JSON, id, links, and whether it is valid), computed
 * beforehand on the conversion pool for a large document: on the request thread these cost as much as the
 * conversion itself would for a 1 MB page.
 */
export interface PreparedDocument {
  body: string;
  id: string;
  links: ExtractedLink[];
  problem: DocumentProblem | null;
}

const prepared = new WeakMap<object, PreparedDocument>();

export function prepareDocument(document: unknown): PreparedDocument {
  const body = canonicalJson(document);
  return { body, id: documentIdOf(body), links: extractLinks(document), problem: documentProblem(document) };
}

/** The document of a prepared one (parsed from its canonical JSON), which putDocument stores without recomputing. */
export function adoptPreparedDocument(ready: PreparedDocument): unknown {
  const document = JSON.parse(ready.body) as object;
  prepared.set(document, ready);
  return document;
}

/** documentProblem, answered from the preparation when the document was prepared on the pool. */
export function problemOfDocument(document: unknown): DocumentProblem | null {
  const ready = prepared.get(document as object);
  return ready ? ready.problem : documentProblem(document);
}

/** Writes the links of one document (its rows are keyed by document and position, so a second call is refused). */
export async function storeDocumentLinks(db: Executor, documentId: string, document: unknown, extracted?: ExtractedLink[]): Promise<void> {
  const links = extracted ?? extractLinks(document);
  // Chunks keep a very long document under the databases' limits on bound parameters.
  for (let i = 0; i < links.length; i += 500) {
    await db
      .insertInto('document_links')
      .values(
        links.slice(i, i + 500).map((link, j) => ({
          document_id: documentId,
          position: i + j,
          kind: link.kind,
          target: link.target,
          anchor: link.anchor,
          space_id: link.space,
          relation: link.relation,
        })),
      )
      .execute();
  }
}

export async function getDocument(db: Executor, id: string): Promise<unknown | undefined> {
  const text = await getDocumentText(db, id);
  return text === undefined ? undefined : parseStoredDocument(text);
}

const NODE_LISTS = new Set(['nodes', 'fragments', 'leaves']);

/**
 * A stored document's JSON text as a document. Documents written before they were validated on write (issue
 * 14) may hold null nodes; those are left out here, so such a page still reads, merges and renders (a null
 * node never carried content). The reviver runs only on a text that has a `null` somewhere.
 */
export function parseStoredDocument(text: string): unknown {
  const document = JSON.parse(text) as unknown;
  if (!text.includes('null')) return document;
  // A loop over the nodes (no recursion, no reviver: both cost seconds on a large document).
  const stack: unknown[] = [document];
  while (stack.length > 0) {
    const node = stack.pop() as Record<string, unknown> | null;
    if (!node || typeof node !== 'object') continue;
    for (const field of NODE_LISTS) {
      const children = node[field];
      if (!Array.isArray(children)) continue;
      if (children.includes(null)) node[field] = children.filter((child) => child !== null);
      for (const child of node[field] as unknown[]) stack.push(child);
    }
  }
  return document;
}

/** The stored JSON text of a document. */
/** Several documents' JSON texts at once, by id (those that exist). */
export async function getDocumentTexts(db: Executor, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('documents').select(['id', 'body']).where('id', 'in', [...ids]).execute();
  return new Map(rows.map((row) => [row.id, row.body]));
}

export async function getDocumentText(db: Executor, id: string): Promise<string | undefined> {
  const row = await db.selectFrom('documents').select('body').where('id', '=', id).executeTakeFirst();
  return row?.body;
}

/**
 * Documents stored before links were extracted (migration 0009), a batch at a time: the job worker's sweep
 * extracts them, so their links appear without a rewrite of the content.
 */
export async function extractPendingDocumentLinks(db: Kysely<Database>, limit: number): Promise<number> {
  const pending = await db.selectFrom('documents').select(['id', 'body']).where('links_extracted', '=', 0).orderBy('id').limit(limit).execute();
  for (const row of pending) {
    await db.transaction().execute(async (trx) => {
      const claimed = await trx.updateTable('documents').set({ links_extracted: 1 }).where('id', '=', row.id).where('links_extracted', '=', 0).executeTakeFirst();
      // Another process took it first.
      if (Number(claimed.numUpdatedRows) === 0) return;
      await storeDocumentLinks(trx, row.id, parseStoredDocument(row.body));
    });
  }
  return pending.length;
}

/** Several documents in one query, by id (absent ids are left out). */
export async function getDocuments(db: Executor, ids: readonly string[]): Promise<Map<string, unknown>> {
  const documents = new Map<string, unknown>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 500) {
    const rows = await db.selectFrom('documents').select(['id', 'body']).where('id', 'in', unique.slice(i, i + 500)).execute();
    for (const row of rows) documents.set(row.id, parseStoredDocument(row.body));
  }
  return documents;
}
