import { Redis as RedisExtension } from '@hocuspocus/extension-redis';
import type { afterUnloadDocumentPayload } from '@hocuspocus/server';

/**
 * The Hocuspocus Redis extension on REDIS_URL, as Quire uses it: each document's updates relayed between
 * processes under `quire:collaboration`.
 *
 * A document whose last editor left waits a second (the extension's disconnect delay) before it is unloaded and
 * unsubscribed. At shutdown the connections close first, so every open document starts that wait, and the
 * extension's connections are gone when it ends: its unsubscribe was refused and logged ("Connection is closed")
 * by a process that had stopped cleanly. Once destroyed, there is nothing left to unsubscribe from.
 */
export class RedisRelay extends RedisExtension {
  private destroyed = false;

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

  override async afterUnloadDocument(data: afterUnloadDocumentPayload): Promise<void> {
    if (!this.destroyed) await super.afterUnloadDocument(data);
  }

  override async onDestroy(): Promise<void> {
    this.destroyed = true;
    await super.onDestroy();
  }
}
