import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { badRequest } from './errors.ts';

/** The largest `limit` of every list (the spec's maximum). */
export const MAX_PAGE_SIZE = 1000;

/** The values of the sort key of the last row of a page; the next page starts strictly after them. */
export type KeysetPosition = readonly (string | number)[];

export interface PageRequest {
  /** Rows strictly after this position in the list's order; absent for the first page. */
  after: KeysetPosition | undefined;
  limit: number;
}

export interface ListEnvelope<T> {
  next?: { page: string };
  count: number;
  items: T[];
}

/**
 * Opaque `page` cursors: the list they belong to and the keyset position, signed so that a cursor from
 * another list (or from other filters) or an edited one is refused instead of silently misread.
 */
export class Cursors {
  /** The signing key, imported once (not at each signature). */
  private readonly key: KeyObject;

  constructor(secret: string) {
    this.key = createSecretKey(Buffer.from(secret));
  }

  encode(listKey: string, position: KeysetPosition): string {
    const body = Buffer.from(JSON.stringify(position)).toString('base64url');
    return `${body}.${this.sign(listKey, body)}`;
  }

  decode(listKey: string, page: string): KeysetPosition {
    const [body, signature, extra] = page.split('.');
    if (body && signature && extra === undefined) {
      const expected = Buffer.from(this.sign(listKey, body));
      const given = Buffer.from(signature);
      if (expected.length === given.length && timingSafeEqual(expected, given)) {
        const position: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
        if (Array.isArray(position) && position.every((v) => typeof v === 'string' || typeof v === 'number')) return position;
      }
    }
    throw badRequest('querystring/page is not a cursor of this list: pass the next.page value of a previous response unchanged, with the same filters');
  }

  /** Reads `page` and `limit` of a list request. */
  open(listKey: string, query: { page?: string | undefined; limit?: number | undefined }, defaultLimit: number): PageRequest {
    // The route schemas say the same, but a service may be called with a query that no schema saw, and SQL
    // must never receive a limit such as Infinity (see platform/request-guards.ts for how one gets past Ajv).
    if (query.limit !== undefined && !(Number.isSafeInteger(query.limit) && query.limit >= 1 && query.limit <= MAX_PAGE_SIZE)) {
      throw badRequest(`querystring/limit must be an integer from 1 to ${MAX_PAGE_SIZE}`);
    }
    return {
      after: query.page === undefined || query.page === '' ? undefined : this.decode(listKey, query.page),
      limit: query.limit ?? defaultLimit,
    };
  }

  /**
   * Builds the envelope from rows fetched with `limit + 1`: the extra row only tells that a next page exists.
   */
  close<Row, Item>(
    listKey: string,
    request: PageRequest,
    rows: Row[],
    count: number,
    keyOf: (row: Row) => KeysetPosition,
    present: (row: Row) => Item,
  ): ListEnvelope<Item> {
    const pageRows = rows.slice(0, request.limit);
    const envelope: ListEnvelope<Item> = { count, items: pageRows.map(present) };
    const last = pageRows[pageRows.length - 1];
    if (rows.length > request.limit && last !== undefined) envelope.next = { page: this.encode(listKey, keyOf(last)) };
    return envelope;
  }

  private sign(listKey: string, body: string): string {
    return createHmac('sha256', this.key).update(listKey).update('\0').update(body).digest('base64url').slice(0, 22);
  }
}
