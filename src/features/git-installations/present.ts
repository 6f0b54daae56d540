import type { Static } from 'typebox';
import type { Config } from '../../config.ts';
import { apiUrl } from '../../platform/urls.ts';
import type { GitSyncInstallation } from './schemas.ts';
import type { InstallationRow } from './store.ts';

/** What the installation's `settings` column holds: the official GitSyncInstallationSetupCommon fields. */
export interface InstallationSettings {
  projectDirectory?: string;
  commitMessageTemplate?: string;
  previewExternalBranches?: boolean;
  agentInstructions?: ('agents' | 'claude')[];
  priority?: 'git' | 'gitbook';
}

export function settingsOf(row: Pick<InstallationRow, 'settings'>): InstallationSettings {
  try {
    return JSON.parse(row.settings) as InstallationSettings;
  } catch {
    return {};
  }
}

/**
 * The official GitSyncInstallation. `status` is `active` once the installation has a token to call its provider
 * with (its own, or for a space installation managed by a site's, the site's), `unauthenticated` before. The
 * token itself is never part of it.
 */
export function presentInstallation(config: Config, row: InstallationRow, hasToken: boolean): Static<typeof GitSyncInstallation> {
  const repositoryId = row.repository_id === null ? undefined : Number(row.repository_id);
  const providerConfiguration =
    row.provider === 'github'
      ? { ...(repositoryId !== undefined ? { repositoryId } : {}), ...(row.branch ? { branch: row.branch } : {}) }
      : { ...(repositoryId !== undefined ? { projectId: repositoryId } : {}), customInstanceURL: row.instance_url, ...(row.branch ? { branch: row.branch } : {}) };
  return {
    object: 'git-sync-installation',
    id: row.id,
    ...(row.parent_installation_id ? { parentInstallationId: row.parent_installation_id } : {}),
    provider: row.provider as 'github' | 'gitlab',
    providerConfiguration,
    ...settingsOf(row),
    target: row.space_id !== null ? { type: 'space', spaceId: row.space_id, ...(row.site_id ? { siteId: row.site_id } : {}) } : { type: 'site', siteId: row.site_id! },
    status: hasToken ? 'active' : 'unauthenticated',
    createdAt: row.created_at,
    createdBy: row.created_by,
    updatedAt: row.updated_at,
    urls: { location: apiUrl(config, `/git/installations/${row.id}`) },
  };
}
