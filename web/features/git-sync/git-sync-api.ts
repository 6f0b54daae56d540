import { api, isNotFound } from '../../api/client.ts';
import type { ImportReport } from './import-report.tsx';
import { refOfBranch } from './git-ref.ts';
import type { GitSyncConnection } from './sync-panel.tsx';

/** getSpaceGitInfo: the space's Git Sync and its last operation (404 while the space was never synced). */
export interface GitInfo {
  /** The Git Sync installation (a GitHub or GitLab account) the space syncs through, or the id of a sync by URL. */
  installationId?: string;
  repoName?: string;
  url?: string;
  updatedAt?: string;
  operation?: { state: 'running' | 'failure' | 'success' | 'timeout'; direction: 'import' | 'export'; startedAt: string; endedAt?: string; error?: string };
  /** The last import's report (a Quire extension), which the exports after it leave in place. */
  lastImport?: { endedAt: string; report: ImportReport };
  /** Automatic syncing while the space is connected (a Quire extension). */
  sync?: GitSyncConnection;
}

export const GIT_STATE_WORDS = { running: 'Running', success: 'Succeeded', failure: 'Failed', timeout: 'Timed out' } as const;

/** The space's Git Sync, or null when it was never synced. */
export async function readGitInfo(spaceId: string, signal?: AbortSignal): Promise<GitInfo | null> {
  try {
    return await api<GitInfo>('GET', `/spaces/${spaceId}/git/info`, { signal });
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** A repository's branch (and the docs' folder in it) as a person types them on a form. */
export interface GitTarget {
  url: string;
  branch: string;
  projectDirectory?: string;
}

/**
 * importGitRepository (the repository's content replaces the space's) or exportToGitRepository (one commit on the
 * branch, with `commitMessage`): either connects the space, which then syncs both ways by itself.
 */
export function startGitOperation(spaceId: string, direction: 'import' | 'export', target: GitTarget, commitMessage?: string): Promise<unknown> {
  const project = target.projectDirectory?.trim();
  return api('POST', `/spaces/${spaceId}/git/${direction}`, {
    body: { url: target.url.trim(), ref: refOfBranch(target.branch), ...(project ? { repoProjectDirectory: project } : {}), ...(direction === 'export' ? { commitMessage } : {}) },
  });
}
