import type { Config } from '../config.ts';
import type { Db } from '../db/types.ts';
import type { BlobStore } from './blob-store.ts';
import type { Clock } from './clock.ts';
import type { Cursors } from './pagination.ts';

/** What every service needs from the running server; built once in buildApp. */
export interface AppContext {
  db: Db;
  clock: Clock;
  config: Config;
  cursors: Cursors;
  /** File bytes, addressed by content hash. */
  blobs: BlobStore;
}

/** Who is calling. Integration installations join as a second kind when integrations arrive. */
export interface Caller {
  kind: 'user';
  userId: string;
  tokenId: string;
  /** Set when the user calls from a browser with a session cookie (features/sessions), not with a token. */
  session?: { id: string; organizationId: string };
}
