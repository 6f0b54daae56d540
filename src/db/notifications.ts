import pg from 'pg';
import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.ts';

/*
 * PostgreSQL's LISTEN/NOTIFY between the processes of one database. A notification names the schema it is about
 * (tests and several installations may share a database, one schema each): a listener hears only its own
 * schema's. NOTIFY inside a transaction is delivered when the transaction commits, and never if it rolls back,
 * so a notification always tells of committed rows. SQLite has one process: nothing to send, nothing to hear.
 */

const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 30_000;

/** How to open a connection of its own to the database of a handle (set by database.ts for PostgreSQL). */
const connectionSettings = new WeakMap<object, pg.ClientConfig>();

export function registerNotifications(db: object, settings: pg.ClientConfig): void {
  connectionSettings.set(db, settings);
}

/** Sends `channel` a notification through `db` (a transaction: delivered at its commit). Nothing on SQLite. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function notify(db: Kysely<any>, channel: string): Promise<void> {
  if (isPostgres(db)) await sql`select pg_notify(${channel}, current_schema())`.execute(db);
}

export interface Listening {
  /** Stops listening and closes the connection. */
  close(): Promise<void>;
}

/**
 * Calls `onNotification` for each notification of `channel` about this handle's schema, and `onConnected` each
 * time the connection is (re)established: notifications sent while it was down are lost, so the listener
 * catches up then. Undefined on SQLite. LISTEN belongs to a session, so it has a connection of its own, outside
 * the pool; a connection that breaks is opened again after a pause that grows to 30 s.
 */
export function listen(db: object, channel: string, handlers: { onNotification: () => void; onConnected?: () => void }, options: { retryMs?: number } = {}): Listening | undefined {
  const settings = connectionSettings.get(db);
  if (!settings) return undefined;
  const firstRetryMs = options.retryMs ?? RETRY_FIRST_MS;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let retryMs = firstRetryMs;
  let closed = false;

  const again = (failed: pg.Client) => {
    if (closed || client !== failed) return;
    client = undefined;
    failed.removeAllListeners('notification');
    void failed.end().catch(() => undefined);
    retry = setTimeout(() => void connect(), retryMs);
    retry.unref();
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  };

  const connect = async () => {
    retry = undefined;
    const next = new pg.Client({ ...settings, keepAlive: true });
    client = next;
    // Unheard, a broken connection's 'error' would end the process.
    next.on('error', () => again(next));
    next.on('end', () => again(next));
    try {
      await next.connect();
      const { rows } = await next.query<{ schema: string }>('select current_schema() as schema');
      const schema = rows[0]?.schema;
      next.on('notification', (message) => {
        if (message.channel === channel && message.payload === schema) handlers.onNotification();
      });
      await next.query(`LISTEN ${next.escapeIdentifier(channel)}`);
      if (closed) return void (await next.end().catch(() => undefined));
      retryMs = firstRetryMs;
      handlers.onConnected?.();
    } catch {
      again(next);
    }
  };

  void connect();
  return {
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const open = client;
      client = undefined;
      if (open) {
        open.removeAllListeners('notification');
        await open.end().catch(() => undefined);
      }
    },
  };
}
