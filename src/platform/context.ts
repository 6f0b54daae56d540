import type { Config } from '../config.ts';
import type { Db } from '../db/types.ts';
import type { BlobStore } from './blob-store.ts';
import type { Clock } from './clock.ts';
import type { Cursors } from './pagination.ts';
import type { Mailer } from './mail.ts';
import type { AiProvider } from './ai-provider.ts';

/** What every service needs from the running server; built once in buildApp. */
export interface AppContext {
  db: Db;
  clock: Clock;
  config: Config;
  cursors: Cursors;
  /** File bytes, addressed by content hash. */
  blobs: BlobStore;
  /** Mail through SMTP_URL (invitations, password resets); sends nothing when it is unset. */
  mailer: Mailer;
  /** The model Ask answers with (AI_PROVIDER_URL); undefined when none is configured, and Ask says it is off. */
  ai: AiProvider | undefined;
}

import { forbidden } from './errors.ts';

/**
 * Where a request came from, kept with the caller for the audit log (features/audit): set once by the auth hook
 * (platform/auth.ts), and by the sign-in routes, which have no caller yet. `via` is `ui` for a browser's
 * session, `api` for a token.
 */
export interface RequestOrigin {
  ipAddress: string | null;
  userAgent: string | null;
  via: 'ui' | 'api';
}

/** A person, through one of their API tokens. */
export interface UserCaller {
  kind: 'user';
  userId: string;
  tokenId: string;
  /** Set when the user calls from a browser with a session cookie (features/sessions), not with a token. */
  session?: { id: string; organizationId: string | null };
  /**
   * The one organization the caller reaches, when an identity provider of it is what proved who they are (a
   * session it opened, or a token such a session minted): its word is good for its own organization only.
   */
  onlyOrganization?: string;
  /**
   * The only operations the caller may call, when its token was made for one client (a notifications token:
   * features/notifications/token.ts); the auth hook refuses the others.
   */
  onlyOperations?: readonly string[];
  origin?: RequestOrigin;
}

/**
 * An integration installation, through a token from createIntegrationInstallationToken: it reaches only its
 * organization, there only the spaces and sites the installation is on, and only with the manifest's `scopes`
 * (features/access decides the reach, features/integrations/scopes.ts the scope each operation needs).
 * `installedBy` is the person who installed it: what it writes is recorded under their name, since authors are
 * people (a revision's or a comment's author is a user the API can present).
 */
export interface InstallationCaller {
  kind: 'installation';
  installationId: string;
  integrationId: string;
  organizationId: string;
  scopes: string[];
  tokenId: string;
  installedBy: string;
  origin?: RequestOrigin;
}

/**
 * A visitor of a published site, through the short-lived token getPublishedContentByUrl answered as `apiToken`
 * (features/urls/read-token.ts): it reads the content of the site's spaces that visitor was shown, and
 * nothing else; every other operation refuses it before its service runs. It acts for no person.
 */
export interface SiteReaderCaller {
  kind: 'site-reader';
  siteId: string;
  organizationId: string;
  spaceIds: string[];
  tokenId: string;
  origin?: RequestOrigin;
}

/** Who is calling. */
export type Caller = UserCaller | InstallationCaller | SiteReaderCaller;

/**
 * The person a caller is, for what only a person can do (their organizations, their membership, their teams):
 * an installation token is refused there with 403.
 */
export function personOf(caller: Caller): string {
  if (caller.kind === 'user') return caller.userId;
  throw forbidden('This operation acts as a person: an integration installation token cannot call it');
}

/** Whom what the caller writes is recorded under: the person, or for an installation the person who installed it. */
export function authorOf(caller: Caller): string {
  if (caller.kind === 'user') return caller.userId;
  if (caller.kind === 'installation') return caller.installedBy;
  throw forbidden("A site's read token writes nothing");
}
