import { Redis as RedisExtension } from '@hocuspocus/extension-redis';
import type { afterUnloadDocumentPayload, onStoreDocumentPayload } from '@hocuspocus/server';

/** The `cause` of the extension's error when another process holds a document's store lock. */
const LOCKED_BY_ANOTHER = 'Could not acquire lock, another instance locked it already.';

/**
 * The Hocuspocus Redis extension on REDIS_URL, as Quire uses it: each document's updates relayed between
 * processes under `quire:collaboration`.
 *
 * A document whose last editor left waits a second (the extension's disconnect delay) before it is unloaded and
 * unsubscribed. At shutdown the connections close first, so every open document starts that wait, and the
 * extension's connections are gone when it ends: its unsubscribe was refused and logged ("Connection is closed")
 * by a process that had stopped cleanly. Once destroyed, there is nothing left to unsubscribe from.
 *
 * A store takes the document's lock in Redis first: when two processes hold the page, one stores it and the other
 * finds the lock taken. The extension then throws an error without a message to stop the store, which Hocuspocus
 * logs with its stack ("Caught error during storeDocumentHooks") at every store of a page open in two processes.
 * Here that store ends quietly instead, and the store of the page's document asks `storedByAnother` first.
 */
export class RedisRelay extends RedisExtension {
  private destroyed = false;
  private leftToAnother = new Set<string>();

  constructor(redisUrl: string) {
    const url = new URL(redisUrl);
    super({
      host: url.hostname,
      port: Number(url.port || 6379),
      options: { ...(url.password ? { password: decodeURIComponent(url.password) } : {}), ...(url.protocol === 'rediss:' ? { tls: {} } : {}), db: Number(url.pathname.slice(1) || 0) },
      prefix: 'quire:collaboration',
      // A store writes the page's document in a transaction: longer than the extension's default second.
      lockTimeout: 15_000,
    });
  }

  override async onStoreDocument(data: onStoreDocumentPayload): Promise<void> {
    try {
      await super.onStoreDocument(data);
    } catch (error) {
      if (!(error instanceof Error && error.cause === LOCKED_BY_ANOTHER)) throw error;
      this.leftToAnother.add(data.documentName);
    }
  }

  /** Whether this store of the document is another process's (it holds the lock): asked once per store. */
  storedByAnother(documentName: string): boolean {
    return this.leftToAnother.delete(documentName);
  }

  override async afterUnloadDocument(data: afterUnloadDocumentPayload): Promise<void> {
    if (!this.destroyed) await super.afterUnloadDocument(data);
  }

  override async onDestroy(): Promise<void> {
    this.destroyed = true;
    await super.onDestroy();
  }
}
