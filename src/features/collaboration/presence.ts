import { randomUUID } from 'node:crypto';
import { parseCollaborationDocumentName } from './document-name.ts';

/** What a person may do in the page they have open: edit it, or follow it read-only. */
export type OpenAccess = 'edit' | 'view';

/** A document a connection of this process has open, and how. */
export interface OpenDocument {
  name: string;
  userId: string;
  access: OpenAccess;
}

/** One person with one page of a change request open in an editor (several tabs of theirs count once). */
export interface PageOpener {
  pageId: string;
  userId: string;
  access: OpenAccess;
}

/** The few Redis commands presence needs (ioredis's names): a hash per change request, one field per process. */
export interface PresenceRedis {
  hset(key: string, field: string, value: string): Promise<unknown>;
  hdel(key: string, field: string): Promise<unknown>;
  hgetall(key: string): Promise<Record<string, string>>;
  pexpire(key: string, ms: number): Promise<unknown>;
}

/** How long another process's list counts without being written again: a process killed stops counting then. */
export const SHARED_PRESENCE_MS = 10_000;

/**
 * Who has which page of a change request open in an editor, for the change request's screen (issue 31: "who is
 * in which page of a change request"). The server's own record of the sockets it let open a document, not the
 * awareness states the editors send each other: those are whatever a client chose to write, and a name there
 * could be anyone's. With REDIS_URL each process also writes its openers of each change request to a Redis hash
 * (one field per process, with the time it was written), again at least every few seconds, so any process
 * answers for all; a field older than SHARED_PRESENCE_MS is a process that is gone.
 */
export class CollaborationPresence {
  /** The documents open on this process now: the sockets themselves are the record, so nothing here can go stale. */
  private source: () => Iterable<OpenDocument> = () => [];
  private redis: PresenceRedis | undefined;
  private readonly process = randomUUID();
  /** The change requests this process wrote to Redis, so one it no longer has anyone in is taken out. */
  private readonly shared = new Set<string>();

  /** Where this process's open documents are read (the collaboration socket's connections). */
  track(source: () => Iterable<OpenDocument>): void {
    this.source = source;
  }

  /** From now on, shares this process's openers through Redis and reads the others'. */
  shareThrough(redis: PresenceRedis): void {
    this.redis = redis;
  }

  /** Someone opened or closed a page: the other processes are told now rather than at the next refresh. */
  changed(documentName: string): void {
    const document = parseCollaborationDocumentName(documentName);
    if (document?.target.kind === 'change-request') void this.share(keyOf(document.spaceId, document.target.changeRequestId));
  }

  /** Writes this process's openers of every change request again (a timer calls it), so they do not age out. */
  async refresh(): Promise<void> {
    await Promise.all([...new Set([...this.local().keys(), ...this.shared])].map((key) => this.share(key)));
  }

  /** This process stops answering for anyone (it is closing): its fields in Redis go now, not when they age out. */
  async leave(): Promise<void> {
    this.source = () => [];
    await this.refresh();
  }

  /** Who has which page of the change request open, on every process; a person once per page, `edit` over `view`. */
  async openers(spaceId: string, changeRequestId: string): Promise<PageOpener[]> {
    const key = keyOf(spaceId, changeRequestId);
    const all = this.local().get(key) ?? [];
    if (this.redis) {
      const fields = await this.redis.hgetall(this.redisKey(key)).catch(() => ({}) as Record<string, string>);
      const now = Date.now();
      for (const [process, text] of Object.entries(fields)) {
        if (process === this.process) continue;
        const entry = parseEntry(text);
        if (entry && now - entry.at <= SHARED_PRESENCE_MS) all.push(...entry.openers);
      }
    }
    return distinct(all);
  }

  /** This process's openers, by change request. */
  private local(): Map<string, PageOpener[]> {
    const byChangeRequest = new Map<string, PageOpener[]>();
    for (const open of this.source()) {
      const document = parseCollaborationDocumentName(open.name);
      if (document?.target.kind !== 'change-request') continue;
      const key = keyOf(document.spaceId, document.target.changeRequestId);
      byChangeRequest.set(key, [...(byChangeRequest.get(key) ?? []), { pageId: document.pageId, userId: open.userId, access: open.access }]);
    }
    return byChangeRequest;
  }

  private async share(key: string): Promise<void> {
    const redis = this.redis;
    if (!redis) return;
    const openers = distinct(this.local().get(key) ?? []);
    // Presence is a courtesy: Redis being away must not break editing, and the next refresh writes again.
    try {
      if (openers.length === 0) {
        if (!this.shared.delete(key)) return;
        await redis.hdel(this.redisKey(key), this.process);
        return;
      }
      this.shared.add(key);
      await redis.hset(this.redisKey(key), this.process, JSON.stringify({ at: Date.now(), openers }));
      await redis.pexpire(this.redisKey(key), SHARED_PRESENCE_MS);
    } catch {
      // Written again at the next refresh.
    }
  }

  private redisKey(key: string): string {
    return `quire:collaboration:presence:${key}`;
  }
}

/** A person once per page; `edit` wins over `view` (one tab may follow read-only while another edits). */
function distinct(openers: readonly PageOpener[]): PageOpener[] {
  const people = new Map<string, PageOpener>();
  for (const opener of openers) {
    const id = `${opener.pageId} ${opener.userId}`;
    if (!people.has(id) || opener.access === 'edit') people.set(id, opener);
  }
  return [...people.values()];
}

const keyOf = (spaceId: string, changeRequestId: string) => `${spaceId}/${changeRequestId}`;

function parseEntry(text: string): { at: number; openers: PageOpener[] } | null {
  try {
    const entry = JSON.parse(text) as { at?: unknown; openers?: unknown };
    if (typeof entry.at !== 'number' || !Array.isArray(entry.openers)) return null;
    const openers = entry.openers.filter(
      (o): o is PageOpener => typeof o === 'object' && o !== null && typeof o.pageId === 'string' && typeof o.userId === 'string' && (o.access === 'edit' || o.access === 'view'),
    );
    return { at: entry.at, openers };
  } catch {
    return null;
  }
}
