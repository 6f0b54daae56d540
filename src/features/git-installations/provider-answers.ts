import { ApiError, notFound } from '../../platform/errors.ts';

/*
 * What GitHub's and GitLab's REST answers mean for the official Git Sync installation objects, and what a refusal
 * of theirs means for our caller. No I/O here: providers.ts fetches, this reads.
 */

export type ProviderName = 'github' | 'gitlab';

export const PROVIDER_LABEL: Record<ProviderName, string> = { github: 'GitHub', gitlab: 'GitLab' };

/** The official GitSyncGitHubRepository and GitSyncGitLabProject (the same shape). */
export interface ProviderRepository {
  id: number;
  accountName: string;
  repositoryName: string;
  fullName: string;
  defaultBranch: string | null;
}

export interface ProviderBranch {
  name: string;
  ref: string;
}

export interface ProviderFile {
  name: string;
  path: string;
  sha: string;
  size: number;
}

/** What an installation needs of a repository to sync it: where it is cloned from and shown. */
export interface RepositoryLocation {
  fullName: string;
  cloneUrl: string;
  webUrl: string;
  defaultBranch: string | null;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** An answer that is not what the provider documents: the provider (or what answers in its place) is at fault. */
export function unexpectedAnswer(provider: ProviderName, what: string): ApiError {
  return new ApiError(502, `${PROVIDER_LABEL[provider]} answered ${what} with something that is not its documented JSON`);
}

/** The items of one page of a list: GitHub lists installation repositories in `repositories`, the rest bare. */
export function pageItems(provider: ProviderName, what: string, body: unknown): Json[] {
  const items = isObject(body) && Array.isArray(body.repositories) ? body.repositories : body;
  if (!Array.isArray(items)) throw unexpectedAnswer(provider, what);
  return items.filter(isObject);
}

export function githubRepository(raw: Json): ProviderRepository | undefined {
  const id = num(raw.id);
  const fullName = str(raw.full_name);
  const name = str(raw.name);
  const owner = isObject(raw.owner) ? str(raw.owner.login) : undefined;
  if (id === undefined || !fullName || !name) return undefined;
  return { id, accountName: owner ?? fullName.slice(0, fullName.lastIndexOf('/')), repositoryName: name, fullName, defaultBranch: str(raw.default_branch) ?? null };
}

export function gitlabProject(raw: Json): ProviderRepository | undefined {
  const id = num(raw.id);
  const fullName = str(raw.path_with_namespace);
  const path = str(raw.path);
  const namespace = isObject(raw.namespace) ? str(raw.namespace.full_path) : undefined;
  if (id === undefined || !fullName || !path) return undefined;
  return { id, accountName: namespace ?? fullName.slice(0, fullName.lastIndexOf('/')), repositoryName: path, fullName, defaultBranch: str(raw.default_branch) ?? null };
}

export function branchOf(raw: Json): ProviderBranch | undefined {
  const name = str(raw.name);
  return name ? { name, ref: `refs/heads/${name}` } : undefined;
}

/** GitHub's contents answer for a file; a directory (an array) or a symlink or submodule is not a file. */
export function githubFile(body: unknown, path: string): ProviderFile {
  if (!isObject(body) || body.type !== 'file') throw notFound(`"${path}" is not a file in this repository at that ref`);
  const name = str(body.name);
  const sha = str(body.sha);
  const size = num(body.size);
  if (!name || !sha || size === undefined) throw unexpectedAnswer('github', 'the file');
  return { name, path: str(body.path) ?? path, sha, size };
}

export function gitlabFile(body: unknown, path: string): ProviderFile {
  if (!isObject(body)) throw unexpectedAnswer('gitlab', 'the file');
  const name = str(body.file_name);
  const sha = str(body.blob_id);
  const size = num(body.size);
  if (!name || !sha || size === undefined) throw unexpectedAnswer('gitlab', 'the file');
  return { name, path: str(body.file_path) ?? path, sha, size };
}

export function githubLocation(body: unknown): RepositoryLocation {
  const cloneUrl = isObject(body) ? str(body.clone_url) : undefined;
  const webUrl = isObject(body) ? str(body.html_url) : undefined;
  const fullName = isObject(body) ? str(body.full_name) : undefined;
  if (!cloneUrl || !webUrl || !fullName) throw unexpectedAnswer('github', 'the repository');
  return { fullName, cloneUrl, webUrl, defaultBranch: str((body as Json).default_branch) ?? null };
}

export function gitlabLocation(body: unknown): RepositoryLocation {
  const cloneUrl = isObject(body) ? str(body.http_url_to_repo) : undefined;
  const webUrl = isObject(body) ? str(body.web_url) : undefined;
  const fullName = isObject(body) ? str(body.path_with_namespace) : undefined;
  if (!cloneUrl || !webUrl || !fullName) throw unexpectedAnswer('gitlab', 'the project');
  return { fullName, cloneUrl, webUrl, defaultBranch: str((body as Json).default_branch) ?? null };
}

/** The provider's own words about a refusal (`message` on both; GitLab also `error`), shortened. */
function reasonOf(body: unknown): string {
  const reason = isObject(body) ? (str(body.message) ?? str(body.error) ?? (isObject(body.message) ? JSON.stringify(body.message) : undefined)) : undefined;
  return reason ? `: ${reason.slice(0, 200)}` : '';
}

/**
 * The error our caller gets when the provider answered `status` about `what` (a 2xx never comes here). The token is
 * the installation's, set by an admin: its refusal is a state of the installation to fix (409, saying how), not
 * the caller's authentication (401). What the token cannot see is 404, as the providers say it themselves. Rate
 * limits, the provider's own failures and anything else are 502: the provider failed, not the request.
 */
export function providerRefusal(provider: ProviderName, status: number, body: unknown, what: string): ApiError {
  const label = PROVIDER_LABEL[provider];
  const reason = reasonOf(body);
  if (status === 404) return notFound(`${label} has no ${what} that the installation's token can see (HTTP 404${reason})`);
  if (status === 429 || (status === 403 && /rate limit/i.test(reason))) return new ApiError(502, `${label} refused ${what} for now: its rate limit is reached (HTTP ${status}${reason}); try again later`);
  if (status === 401 || status === 403) {
    return new ApiError(409, `${label} refused the installation's token for ${what} (HTTP ${status}${reason}): an organization admin sets a token that can reach it (updateGitSyncInstallationById, providerConfiguration.accessToken)`);
  }
  return new ApiError(502, `${label} answered HTTP ${status} for ${what}${reason}`);
}
