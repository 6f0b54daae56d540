import { allowIf, Policy } from '../../platform/policy.ts';

/**
 * Who may do what with a Git Sync installation, from the caller's standing on its target (a space or a site).
 * Whoever cannot see the target gets 404 before this is asked (loadSpace, loadSite).
 * - `use`: read the installation and list the repositories, branches and files it reaches: those who may set up
 *   Git Sync on the target (the edit role on a space, as importGitRepository takes; the admin role on a site)
 *   and organization admins. The installation's token is the organization's: a reader must not browse with it.
 * - `manage`: install, change (token, repository, branch, settings) and uninstall: organization admins, who
 *   hold the provider's credentials for the organization.
 */
export interface InstallationStanding {
  orgAdmin: boolean;
  setsUpGitSync: boolean;
}

export const installationPolicy = new Policy<InstallationStanding, 'use' | 'manage'>({
  use: allowIf((s) => s.orgAdmin || s.setsUpGitSync, 'needs the edit role on the space (the admin role on a site), or the admin role in the organization'),
  manage: allowIf((s) => s.orgAdmin, 'needs the admin role in the organization'),
});
