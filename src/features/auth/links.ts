import { hash, randomBytes } from 'node:crypto';
import type { Executor, SignInLinksTable } from '../../db/types.ts';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { appUrl } from '../../platform/urls.ts';
import type { Role } from '../access/roles.ts';
import { findOrganization } from '../organizations/queries.ts';
import { findUserById } from '../users/queries.ts';
import { renameUser } from '../users/service.ts';
import { MIN_PASSWORD_LENGTH, hashPassword } from './passwords.ts';
import { closeLinksOf, deleteExpiredLinks, findOpenLink, insertLink, savePasswordHash, useLink, type SignInLinkRow } from './store.ts';

export type LinkKind = SignInLinksTable['kind'];

/**
 * How long a one-time link opens: an invitation or the first start's link a week (people read mail late), a
 * password reset an hour (it is asked for by whoever types an e-mail address).
 */
export const LINK_LIFETIME_MS: Record<LinkKind, number> = {
  invite: 7 * 24 * 60 * 60_000,
  'first-start': 7 * 24 * 60 * 60_000,
  reset: 60 * 60_000,
  verify: 7 * 24 * 60 * 60_000,
};

const NO_LONGER_VALID = 'This link is no longer valid: it was used already, it expired, or it never existed. Ask for a new one.';

const tokenHash = (token: string) => hash('sha256', token, 'hex');

/** Where the web app opens a link's token. */
export function linkUrl(ctx: AppContext, token: string): string {
  return appUrl(ctx.config, `/auth/link/${token}`);
}

/** A new one-time link for a person; the token is in the returned URL only (stored as its hash). */
export async function createLink(
  ctx: AppContext,
  db: Executor,
  input: { kind: LinkKind; userId: string; organizationId?: string | null; role?: string | null },
): Promise<{ url: string; expiresAt: string }> {
  const now = ctx.clock.now();
  const token = randomBytes(32).toString('base64url');
  const row: SignInLinkRow = {
    id: newId(),
    token_hash: tokenHash(token),
    kind: input.kind,
    user_id: input.userId,
    organization_id: input.organizationId ?? null,
    role: input.role ?? null,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + LINK_LIFETIME_MS[input.kind]).toISOString(),
    used_at: null,
  };
  await deleteExpiredLinks(db, row.created_at);
  await insertLink(db, row);
  return { url: linkUrl(ctx, token), expiresAt: row.expires_at };
}

async function openLink(ctx: AppContext, db: Executor, token: string): Promise<SignInLinkRow> {
  const link = await findOpenLink(db, tokenHash(token), ctx.clock.now().toISOString());
  if (!link) throw notFound(NO_LONGER_VALID);
  return link;
}

/** What the page of a link shows before the person sets their password. */
export async function describeLink(ctx: AppContext, token: string) {
  const link = await openLink(ctx, ctx.db, token);
  const [user, organization] = await Promise.all([
    findUserById(ctx.db, link.user_id),
    link.organization_id ? findOrganization(ctx.db, link.organization_id) : undefined,
  ]);
  if (!user?.email) throw notFound(NO_LONGER_VALID);
  return {
    kind: link.kind,
    email: user.email,
    ...(organization ? { organization: { id: organization.id, title: organization.title } } : {}),
    ...(link.kind === 'invite' ? { role: link.role as Role | null } : {}),
  };
}

export function checkPasswordRule(password: string, field: string): void {
  if ([...password].length < MIN_PASSWORD_LENGTH) throw badRequest(`body/${field} must be at least ${MIN_PASSWORD_LENGTH} characters long`);
}

/**
 * Uses a link: sets the person's password (and their name when given), ends every other open link of theirs,
 * and runs `then` (which opens the session) in the same transaction. The password is hashed before the
 * transaction: on SQLite a transaction holds the one connection, and hashing takes a few hundred ms. An
 * invitation's membership was made when the person was invited; a member removed since does not come back
 * through the link.
 */
export async function consumeLink<T>(
  ctx: AppContext,
  token: string,
  input: { password: string; displayName?: string | undefined },
  then: (trx: Executor, link: SignInLinkRow) => Promise<T>,
): Promise<T> {
  checkPasswordRule(input.password, 'password');
  const link = await openLink(ctx, ctx.db, token);
  const passwordHash = await hashPassword(input.password);
  return ctx.db.transaction().execute(async (trx) => {
    const now = ctx.clock.now().toISOString();
    if (!(await useLink(trx, link.id, now))) throw notFound(NO_LONGER_VALID);
    await savePasswordHash(trx, link.user_id, passwordHash, now);
    await closeLinksOf(trx, link.user_id, now);
    const name = input.displayName?.trim();
    if (name) await renameUser(trx, link.user_id, name);
    return then(trx, link);
  });
}
