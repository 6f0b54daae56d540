import type { Executor } from '../../db/types.ts';
import { findInstallationOfTarget, targetKeyOf } from './store.ts';

// What other features read of Git Sync installations: a space's own (features/git-sync's getSpaceGitInfo).

/** The space's Git Sync installation, if it has one: its id, provider, and whether it was given a token. */
export async function installationOfSpace(db: Executor, spaceId: string): Promise<{ id: string; provider: 'github' | 'gitlab'; hasToken: boolean } | undefined> {
  const row = await findInstallationOfTarget(db, targetKeyOf({ type: 'space', spaceId }));
  return row ? { id: row.id, provider: row.provider as 'github' | 'gitlab', hasToken: row.sealed_token !== null } : undefined;
}
