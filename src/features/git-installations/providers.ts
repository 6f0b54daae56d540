import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { AppContext } from '../../platform/context.ts';
import { ApiError } from '../../platform/errors.ts';
import { safeFetch } from '../../platform/safe-fetch.ts';
import {
  branchOf,
  githubFile,
  githubLocation,
  githubRepository,
  gitlabFile,
  gitlabLocation,
  gitlabProject,
  pageItems,
  PROVIDER_LABEL,
  providerRefusal,
  unexpectedAnswer,
  type ProviderBranch,
  type ProviderFile,
  type ProviderName,
  type ProviderRepository,
  type RepositoryLocation,
} from './provider-answers.ts';

/*
 * The calls an installation makes to GitHub's or GitLab's REST API with its token. Every one goes through the
 * outbound fetch guard (platform/safe-fetch.ts) with the server's fetch time limit. The hosts the operator named
 * (GITHUB_API_URL, GITLAB_URL) are reachable even on a private address, as the translation provider's is; a
 * GitLab `customInstanceURL`, given by a user, is not. Redirects are not followed: the token must not travel to
 * wherever a redirect points.
 */

/** Items per page asked of the provider, and the most pages read for one list (a bound on a huge account). */
const PER_PAGE = 100;
const MAX_PAGES = 10;
const MAX_ANSWER_BYTES = 5 * 1024 * 1024;

export interface ProviderSession {
  provider: ProviderName;
  /** GitHub's API base, or the GitLab instance's URL (its API is under /api/v4). */
  baseUrl: string;
  token: string;
  /** The operator named this host: its addresses are reachable even when private fetches are not allowed. */
  operatorNamed: boolean;
}

async function addressesOf(hostname: string): Promise<string[]> {
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host)) return [host];
  try {
    return (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    return [];
  }
}

function apiUrl(session: ProviderSession, path: string): string {
  return session.provider === 'github' ? `${session.baseUrl}${path}` : `${session.baseUrl}/api/v4${path}`;
}

function headersOf(session: ProviderSession): Record<string, string> {
  if (session.provider === 'github') return { authorization: `Bearer ${session.token}`, 'x-github-api-version': '2022-11-28' };
  return { authorization: `Bearer ${session.token}` };
}

/** One GET of the provider's API as JSON; its refusals and failures as our errors (provider-answers.ts). */
async function getJson(ctx: AppContext, session: ProviderSession, path: string, what: string): Promise<unknown> {
  const url = apiUrl(session, path);
  const label = PROVIDER_LABEL[session.provider];
  let response;
  try {
    response = await safeFetch(ctx.config, url, {
      maxBytes: MAX_ANSWER_BYTES,
      accept: session.provider === 'github' ? 'application/vnd.github+json' : 'application/json',
      headers: headersOf(session),
      maxRedirects: 0,
      ...(session.operatorNamed ? { trustedAddresses: await addressesOf(new URL(url).hostname) } : {}),
    });
  } catch (error) {
    // 400: the guard refused the address (a user's customInstanceURL on a private network): said as it is.
    if (error instanceof ApiError && error.statusCode !== 400) throw new ApiError(502, `${label} could not be reached for ${what}: ${error.message}`);
    throw error;
  }
  let body: unknown;
  try {
    body = response.body.length > 0 ? JSON.parse(response.body.toString('utf8')) : undefined;
  } catch {
    body = undefined;
  }
  if (response.status < 200 || response.status > 299) throw providerRefusal(session.provider, response.status, body, what);
  if (body === undefined) throw unexpectedAnswer(session.provider, what);
  return body;
}

/** Every page of a list (page/per_page, which both providers take), up to MAX_PAGES. */
async function getAllPages(ctx: AppContext, session: ProviderSession, path: string, what: string) {
  const items: Record<string, unknown>[] = [];
  const join = path.includes('?') ? '&' : '?';
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const batch = pageItems(session.provider, what, await getJson(ctx, session, `${path}${join}per_page=${PER_PAGE}&page=${page}`, what));
    items.push(...batch);
    if (batch.length < PER_PAGE) break;
  }
  return items;
}

const segment = encodeURIComponent;

/** GitHub App installation tokens (`ghs_`) list their installation's repositories; other tokens their user's. */
function githubRepositoriesPath(token: string): string {
  return token.startsWith('ghs_') ? '/installation/repositories' : '/user/repos?sort=full_name&affiliation=owner,collaborator,organization_member';
}

/** Whether the provider takes the token: a 409 (or 502, 404 for an unknown instance) when not. */
export async function checkToken(ctx: AppContext, session: ProviderSession): Promise<void> {
  if (session.provider === 'github') {
    await getJson(ctx, session, session.token.startsWith('ghs_') ? '/installation/repositories?per_page=1' : '/user', 'the token');
  } else {
    await getJson(ctx, session, '/user', 'the token');
  }
}

export async function listRepositories(ctx: AppContext, session: ProviderSession): Promise<ProviderRepository[]> {
  if (session.provider === 'github') {
    const raw = await getAllPages(ctx, session, githubRepositoriesPath(session.token), 'the list of repositories');
    return raw.map(githubRepository).filter((r) => r !== undefined);
  }
  const raw = await getAllPages(ctx, session, '/projects?membership=true&simple=true&order_by=path&sort=asc', 'the list of projects');
  return raw.map(gitlabProject).filter((r) => r !== undefined);
}

/** `repository`: `owner/name` on GitHub, the project's id on GitLab. */
export async function listBranches(ctx: AppContext, session: ProviderSession, repository: string | number): Promise<ProviderBranch[]> {
  const path =
    session.provider === 'github'
      ? `/repos/${String(repository).split('/').map(segment).join('/')}/branches`
      : `/projects/${segment(String(repository))}/repository/branches`;
  const raw = await getAllPages(ctx, session, path, session.provider === 'github' ? `the repository ${repository}` : `the project ${repository}`);
  return raw.map(branchOf).filter((b) => b !== undefined);
}

export async function getFile(ctx: AppContext, session: ProviderSession, repository: string | number, path: string, ref: string): Promise<ProviderFile> {
  const clean = path.replace(/^\/+/, '');
  if (session.provider === 'github') {
    const repo = String(repository).split('/').map(segment).join('/');
    const body = await getJson(ctx, session, `/repos/${repo}/contents/${clean.split('/').map(segment).join('/')}?ref=${segment(ref)}`, `the file "${clean}" at ${ref}`);
    return githubFile(body, clean);
  }
  const body = await getJson(ctx, session, `/projects/${segment(String(repository))}/repository/files/${segment(clean)}?ref=${segment(ref)}`, `the file "${clean}" at ${ref}`);
  return gitlabFile(body, clean);
}

/** Where the repository chosen by its id (GitHub's repositoryId, GitLab's projectId) is cloned from. */
export async function locateRepository(ctx: AppContext, session: ProviderSession, id: string): Promise<RepositoryLocation> {
  if (session.provider === 'github') return githubLocation(await getJson(ctx, session, `/repositories/${segment(id)}`, `the repository ${id}`));
  return gitlabLocation(await getJson(ctx, session, `/projects/${segment(id)}`, `the project ${id}`));
}
