import type { Static } from 'typebox';
import { isoNow } from '../../platform/clock.ts';
import { recordAudit } from '../audit/record.ts';
import { type AppContext, type Caller, authorOf } from '../../platform/context.ts';
import { ApiError, badRequest, conflict, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { openSecret, sealSecret } from '../../platform/secret-box.ts';
import { atLeast } from '../access/roles.ts';
import type { OrgAccess } from '../access/service.ts';
import { disconnect } from '../git-sync/connection.ts';
import { exportToGitRepository, importGitRepository } from '../git-sync/service.ts';
import { can as canOnSite } from '../sites/policy.ts';
import { organizationOfSite } from '../sites/queries.ts';
import { loadSite } from '../sites/service.ts';
import { findSpace } from '../spaces/queries.ts';
import { loadSpace } from '../spaces/service.ts';
import { installationPolicy, type InstallationStanding } from './policy.ts';
import { presentInstallation, settingsOf, type InstallationSettings } from './present.ts';
import { PROVIDER_LABEL, type ProviderName, type RepositoryLocation } from './provider-answers.ts';
import { checkToken, getFile, listBranches, listRepositories, locateRepository, type ProviderSession } from './providers.ts';
import type { InstallBody, UpdateInstallationBody } from './schemas.ts';
import { childrenOf, deleteInstallation, findInstallation, findInstallationOfTarget, installationsOfSite, insertInstallation, targetKeyOf, updateInstallation, type InstallationRow } from './store.ts';

/*
 * Git Sync installations (0.202.0): a GitHub or GitLab provider installed on a space or a site, through which a
 * person picks a repository and branch instead of typing a URL. On this server an installation holds the token
 * Quire calls the provider's REST API with (sealed by the secret box, never returned) and, for GitLab, the
 * instance it lives on. Choosing a repository and branch with a `priority` starts the space's Git Sync (an import
 * or an export, features/git-sync) with the repository's clone URL and the installation's token.
 */

interface LoadedTarget {
  organizationId: string;
  standing: InstallationStanding;
}

const isOrgAdmin = (access: OrgAccess) => access.isMember && access.orgRole === 'admin';

async function standingOnSpace(ctx: AppContext, caller: Caller, spaceId: string): Promise<LoadedTarget> {
  const { space, access, role } = await loadSpace(ctx, caller, spaceId);
  return { organizationId: space.organization_id, standing: { orgAdmin: isOrgAdmin(access), setsUpGitSync: atLeast(role, 'edit') } };
}

async function standingOnSite(ctx: AppContext, caller: Caller, siteId: string, knownOrganization?: string): Promise<LoadedTarget> {
  const organizationId = knownOrganization ?? (await organizationOfSite(ctx.db, siteId));
  if (!organizationId) throw notFound(`No site ${siteId}`);
  const { access, standing } = await loadSite(ctx, caller, organizationId, siteId, 'view');
  return { organizationId, standing: { orgAdmin: isOrgAdmin(access), setsUpGitSync: canOnSite(standing, 'manage') } };
}

/** The installation, if the caller sees its target (404 otherwise, as for one that does not exist) and may `action` it. */
async function loadInstallation(ctx: AppContext, caller: Caller, id: string, action: 'use' | 'manage', doing: string): Promise<InstallationRow> {
  const row = await findInstallation(ctx.db, id);
  if (!row) throw notFound(`No Git Sync installation ${id}`);
  let target: LoadedTarget;
  try {
    target = row.space_id !== null ? await standingOnSpace(ctx, caller, row.space_id) : await standingOnSite(ctx, caller, row.site_id!, row.organization_id);
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 404) throw notFound(`No Git Sync installation ${id}`);
    throw error;
  }
  // A space moved to another organization leaves its installation behind: the new organization does not see it.
  if (target.organizationId !== row.organization_id) throw notFound(`No Git Sync installation ${id}`);
  installationPolicy.assert(target.standing, action, doing);
  return row;
}

/** What the installation calls its provider with: its own token and instance, else its parent's (a site's). */
async function credentialsOf(ctx: AppContext, row: InstallationRow): Promise<{ sealedToken: string | null; instanceUrl: string | null }> {
  if (row.sealed_token !== null || row.parent_installation_id === null) return { sealedToken: row.sealed_token, instanceUrl: row.instance_url };
  const parent = await findInstallation(ctx.db, row.parent_installation_id);
  return { sealedToken: row.sealed_token ?? parent?.sealed_token ?? null, instanceUrl: row.instance_url ?? parent?.instance_url ?? null };
}

function sameOrigin(a: string, b: string): boolean {
  return new URL(a).origin === new URL(b).origin;
}

function sessionWith(ctx: AppContext, provider: ProviderName, token: string, instanceUrl: string | null): ProviderSession {
  if (provider === 'github') return { provider, baseUrl: ctx.config.githubApiUrl, token, operatorNamed: true };
  const baseUrl = instanceUrl ?? ctx.config.gitlabUrl;
  return { provider, baseUrl, token, operatorNamed: sameOrigin(baseUrl, ctx.config.gitlabUrl) };
}

async function sessionOf(ctx: AppContext, row: InstallationRow): Promise<ProviderSession> {
  const { sealedToken, instanceUrl } = await credentialsOf(ctx, row);
  if (sealedToken === null) {
    throw conflict(
      `Git Sync installation ${row.id} has no ${PROVIDER_LABEL[row.provider as ProviderName]} token yet: an organization admin sets one (updateGitSyncInstallationById, providerConfiguration.accessToken)`,
    );
  }
  return sessionWith(ctx, row.provider as ProviderName, await openSecret(ctx, sealedToken), instanceUrl);
}

async function present(ctx: AppContext, row: InstallationRow) {
  return presentInstallation(ctx.config, row, (await credentialsOf(ctx, row)).sealedToken !== null);
}

export async function installGitSyncProvider(ctx: AppContext, caller: Caller, body: Static<typeof InstallBody>) {
  const { target } = body;
  const loaded = target.type === 'space' ? await standingOnSpace(ctx, caller, target.spaceId) : await standingOnSite(ctx, caller, target.siteId);
  installationPolicy.assert(loaded.standing, 'manage', 'Installing Git Sync');
  let parent: InstallationRow | undefined;
  if (target.type === 'space' && target.siteId !== undefined) {
    await standingOnSite(ctx, caller, target.siteId).catch(() => {
      throw badRequest(`body/target/siteId: no site ${target.siteId} in this organization`);
    });
    parent = await findInstallationOfTarget(ctx.db, `site:${target.siteId}`);
    if (!parent || parent.organization_id !== loaded.organizationId) throw badRequest(`body/target/siteId: site ${target.siteId} has no Git Sync installation to manage this space's; install one on the site first`);
    if (parent.provider !== body.provider) throw badRequest(`body/provider: the site's installation is ${PROVIDER_LABEL[parent.provider as ProviderName]}; a space installation it manages is too`);
  }
  const targetKey = targetKeyOf(target);
  const existing = await findInstallationOfTarget(ctx.db, targetKey);
  if (existing) throw conflict(`The ${target.type} already has Git Sync installation ${existing.id}; change it or uninstall it first`);
  const now = isoNow(ctx.clock);
  const row: InstallationRow = {
    id: newId(),
    organization_id: loaded.organizationId,
    provider: body.provider,
    target_key: targetKey,
    space_id: target.type === 'space' ? target.spaceId : null,
    site_id: target.siteId ?? null,
    parent_installation_id: parent?.id ?? null,
    sealed_token: null,
    instance_url: null,
    repository_id: null,
    branch: null,
    settings: '{}',
    created_by: authorOf(caller),
    created_at: now,
    updated_at: now,
  };
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await insertInstallation(trx, row);
      await recordAudit(ctx, trx, row.organization_id, caller, { action: 'git_sync.installed', target: auditTarget(row), details: { provider: row.provider } });
    });
  } catch (error) {
    // Two installs of one target at once: the unique target_key lets one through.
    if (await findInstallationOfTarget(ctx.db, targetKey)) throw conflict(`The ${target.type} already has a Git Sync installation`);
    throw error;
  }
  return present(ctx, row);
}

export async function getGitSyncInstallation(ctx: AppContext, caller: Caller, id: string) {
  return present(ctx, await loadInstallation(ctx, caller, id, 'use', 'Reading a Git Sync installation'));
}

function cleanInstanceUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw badRequest('body/providerConfiguration/customInstanceURL: not an absolute URL (e.g. https://gitlab.example.com)');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw badRequest('body/providerConfiguration/customInstanceURL: must be an http or https URL');
  if (url.username || url.password || url.search || url.hash) throw badRequest('body/providerConfiguration/customInstanceURL: must not hold credentials, a query or a fragment');
  return url.href.replace(/\/+$/, '');
}

function cleanProjectDirectory(dir: string, field: string): string {
  const clean = dir.trim().replace(/^\.?\/+|\/+$/g, '');
  if (clean.split('/').some((s) => s === '..')) throw badRequest(`${field}: must stay inside the repository`);
  return clean;
}

/** A provider call made for a body field: what the provider refused is that field's fault (400 naming it). */
async function forField<T>(field: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ApiError && error.statusCode >= 400 && error.statusCode < 500) throw badRequest(`${field}: ${error.message}`);
    throw error;
  }
}

/** The clone URL with the token as its credentials, as importGitRepository takes them (it seals them). */
function withToken(cloneUrl: string, provider: ProviderName, token: string): string {
  const url = new URL(cloneUrl);
  url.username = provider === 'github' ? 'x-access-token' : 'oauth2';
  url.password = token;
  return url.href;
}

export async function updateGitSyncInstallation(ctx: AppContext, caller: Caller, id: string, body: Static<typeof UpdateInstallationBody>) {
  const row = await loadInstallation(ctx, caller, id, 'manage', 'Changing a Git Sync installation');
  const provider = row.provider as ProviderName;
  const label = PROVIDER_LABEL[provider];
  if (body.provider !== provider) throw badRequest(`body/provider: installation ${id} is a ${label} installation; uninstall it and install the other provider instead`);
  const config = body.providerConfiguration;
  const foreign = provider === 'github' ? (['projectId', 'customInstanceURL'] as const) : (['repositoryId'] as const);
  for (const field of foreign) if (config[field] !== undefined) throw badRequest(`body/providerConfiguration/${field}: not a ${label} setting`);
  if (row.parent_installation_id !== null) {
    for (const field of ['previewExternalBranches', 'agentInstructions'] as const) {
      if (body[field] !== undefined) throw badRequest(`body/${field}: inherited from the site's installation ${row.parent_installation_id}; set it there`);
    }
  }
  const children = body.childInstallationProjectDirectories ? await childrenOf(ctx.db, row.id) : [];
  for (const childId of Object.keys(body.childInstallationProjectDirectories ?? {})) {
    if (!children.some((child) => child.id === childId)) throw badRequest(`body/childInstallationProjectDirectories/${childId}: not a space installation managed by this one`);
  }

  const instanceUrl = config.customInstanceURL === undefined ? row.instance_url : config.customInstanceURL === null || config.customInstanceURL.trim() === '' ? null : cleanInstanceUrl(config.customInstanceURL);
  // The stored token never travels to a host it was not given for.
  if (instanceUrl !== row.instance_url && instanceUrl !== null && config.accessToken === undefined) {
    throw badRequest('body/providerConfiguration/accessToken: a new customInstanceURL needs the token for that instance in the same request');
  }
  const current = await credentialsOf(ctx, { ...row, instance_url: instanceUrl });
  const token = config.accessToken ?? (current.sealedToken === null ? undefined : await openSecret(ctx, current.sealedToken));
  const session = token === undefined ? undefined : sessionWith(ctx, provider, token, current.instanceUrl);
  // A new token or instance is tried at once, so a wrong one is refused here rather than at the next listing.
  if (session && (config.accessToken !== undefined || instanceUrl !== row.instance_url)) {
    try {
      await checkToken(ctx, session);
    } catch (error) {
      // The guard's refusal (400) and an instance that is not GitLab (404) are about the URL; a refusal, the token.
      const aboutInstance = instanceUrl !== row.instance_url && error instanceof ApiError && (error.statusCode === 400 || error.statusCode === 404);
      await forField(aboutInstance ? 'body/providerConfiguration/customInstanceURL' : 'body/providerConfiguration/accessToken', () => Promise.reject(error));
    }
  }

  const repositoryField = provider === 'github' ? 'repositoryId' : 'projectId';
  const chosen = config[repositoryField];
  if (chosen !== undefined && (!Number.isInteger(chosen) || chosen < 1)) throw badRequest(`body/providerConfiguration/${repositoryField}: must be a positive integer`);
  const repositoryId = chosen !== undefined ? String(chosen) : row.repository_id;
  let location: RepositoryLocation | undefined;
  if (chosen !== undefined) {
    if (!session) throw badRequest(`body/providerConfiguration/${repositoryField}: the installation needs a token (providerConfiguration.accessToken) to reach the ${provider === 'github' ? 'repository' : 'project'}`);
    location = await forField(`body/providerConfiguration/${repositoryField}`, () => locateRepository(ctx, session, String(chosen)));
  }
  const branch = config.branch ?? row.branch;

  const settings: InstallationSettings = { ...settingsOf(row) };
  if (body.projectDirectory !== undefined) settings.projectDirectory = cleanProjectDirectory(body.projectDirectory, 'body/projectDirectory');
  if (body.commitMessageTemplate !== undefined) settings.commitMessageTemplate = body.commitMessageTemplate;
  if (body.previewExternalBranches !== undefined) settings.previewExternalBranches = body.previewExternalBranches;
  if (body.agentInstructions !== undefined) settings.agentInstructions = [...new Set(body.agentInstructions)];
  if (body.priority !== undefined) settings.priority = body.priority;
  const childDirectories = Object.entries(body.childInstallationProjectDirectories ?? {}).map(
    ([childId, dir]) => [childId, cleanProjectDirectory(dir, `body/childInstallationProjectDirectories/${childId}`)] as const,
  );

  // The sync the official operation queues: a space's Git Sync from the chosen repository and branch (git), or
  // to them (gitbook). It checks the caller's right on the space and starts before anything is saved, so a
  // refusal leaves the installation as it was.
  if (body.priority !== undefined && row.space_id === null) {
    throw badRequest("body/priority: this server syncs spaces, not a site's whole tree: set the priority on the installations of the site's spaces");
  }
  if (body.priority !== undefined && row.space_id !== null) {
    if (!session || repositoryId === null || branch === null) {
      throw badRequest(`body/priority: syncing needs a token, a ${provider === 'github' ? 'repository' : 'project'} (providerConfiguration.${repositoryField}) and a branch (providerConfiguration.branch)`);
    }
    location ??= await locateRepository(ctx, session, repositoryId);
    const operation = {
      url: withToken(location.cloneUrl, provider, session.token),
      ref: branch,
      repoProjectDirectory: settings.projectDirectory,
      gitInfo: { provider, url: location.webUrl },
    };
    const via = { installationId: row.id };
    if (body.priority === 'git') await importGitRepository(ctx, caller, row.space_id, operation, via);
    else await exportToGitRepository(ctx, caller, row.space_id, { ...operation, commitMessage: settings.commitMessageTemplate?.trim() || 'Update from Quire' }, via);
  }

  const now = isoNow(ctx.clock);
  const sealedToken = config.accessToken !== undefined ? await sealSecret(ctx, config.accessToken) : row.sealed_token;
  await ctx.db.transaction().execute(async (trx) => {
    await updateInstallation(trx, row.id, { sealed_token: sealedToken, instance_url: instanceUrl, repository_id: repositoryId, branch, settings: JSON.stringify(settings), updated_at: now });
    // What changed, by name: the token itself is never written to the log.
    await recordAudit(ctx, trx, row.organization_id, caller, {
      action: 'git_sync.installation_changed',
      target: auditTarget(row),
      details: { fields: [...Object.keys(config), ...Object.keys(body).filter((key) => key !== 'provider' && key !== 'providerConfiguration')] },
    });
    for (const [childId, dir] of childDirectories) {
      const child = children.find((c) => c.id === childId)!;
      await updateInstallation(trx, childId, { settings: JSON.stringify({ ...settingsOf(child), projectDirectory: dir }), updated_at: now });
    }
  });
  return present(ctx, (await findInstallation(ctx.db, row.id))!);
}

/**
 * uninstallGitSyncInstallation: the installation and the space installations it manages. A space whose Git Sync
 * an installation started is disconnected, so its token stops being used.
 */
export async function uninstallGitSyncInstallation(ctx: AppContext, caller: Caller, id: string): Promise<void> {
  const row = await loadInstallation(ctx, caller, id, 'manage', 'Uninstalling Git Sync');
  const removed = [row, ...(await childrenOf(ctx.db, row.id))];
  for (const installation of removed) {
    if (installation.space_id !== null && installation.repository_id !== null) await disconnect(ctx, caller, installation.space_id);
  }
  await ctx.db.transaction().execute(async (trx) => {
    await deleteInstallation(trx, row.id);
    await recordAudit(ctx, trx, row.organization_id, caller, { action: 'git_sync.uninstalled', target: auditTarget(row), details: { provider: row.provider, managed: removed.length - 1 } });
  });
}

/** The space or site the installation is on, as the audit log names it. */
function auditTarget(row: InstallationRow): { type: string; id: string } {
  return row.space_id !== null ? { type: 'space', id: row.space_id } : { type: 'site', id: row.site_id! };
}

async function sessionFor(ctx: AppContext, caller: Caller, id: string, provider: ProviderName, doing: string): Promise<ProviderSession> {
  const row = await loadInstallation(ctx, caller, id, 'use', doing);
  if (row.provider !== provider) {
    const other = row.provider === 'github' ? 'listGitHubRepositoriesForGitSyncInstallation' : 'listGitLabProjectsForGitSyncInstallation';
    throw badRequest(`installationId: ${id} is a ${PROVIDER_LABEL[row.provider as ProviderName]} installation, not a ${PROVIDER_LABEL[provider]} one (see ${other})`);
  }
  return sessionOf(ctx, row);
}

export async function listInstallationRepositories(ctx: AppContext, caller: Caller, id: string, provider: ProviderName) {
  const session = await sessionFor(ctx, caller, id, provider, `Listing the ${provider === 'github' ? 'repositories' : 'projects'} of a Git Sync installation`);
  return { items: await listRepositories(ctx, session) };
}

export async function listInstallationBranches(ctx: AppContext, caller: Caller, id: string, provider: ProviderName, repository: string | number) {
  const session = await sessionFor(ctx, caller, id, provider, 'Listing branches through a Git Sync installation');
  return { items: await listBranches(ctx, session, repository) };
}

export async function getInstallationFile(ctx: AppContext, caller: Caller, id: string, provider: ProviderName, repository: string | number, path: string, ref: string) {
  const session = await sessionFor(ctx, caller, id, provider, 'Reading a file through a Git Sync installation');
  return getFile(ctx, session, repository, path, ref);
}

/**
 * listSiteGitSyncInstallations: the site's own installation and those of the spaces it publishes, each only when
 * the caller may use it (see policy.ts); someone who sees the site but may use none gets an empty list.
 */
export async function listSiteGitSyncInstallations(ctx: AppContext, caller: Caller, organizationId: string, siteId: string) {
  const { access, standing } = await loadSite(ctx, caller, organizationId, siteId, 'view');
  const orgAdmin = isOrgAdmin(access);
  // The site's own first (what its spaces' installations hang from), then its spaces' in the order they were made.
  const rows = (await installationsOfSite(ctx.db, organizationId, siteId)).sort((a, b) => Number(a.space_id !== null) - Number(b.space_id !== null));
  const usable: InstallationRow[] = [];
  for (const row of rows) {
    let setsUpGitSync = canOnSite(standing, 'manage');
    if (row.space_id !== null && !orgAdmin) {
      const space = await findSpace(ctx.db, row.space_id);
      setsUpGitSync = space !== undefined && space.deleted_at === null && atLeast(await access.roleOn(space), 'edit');
    }
    if (installationPolicy.can({ orgAdmin, setsUpGitSync }, 'use')) usable.push(row);
  }
  // A space installation without a token of its own uses its site's, most often on this same list.
  const sealedTokens = new Map(rows.map((row) => [row.id, row.sealed_token]));
  const items = await Promise.all(
    usable.map(async (row) => {
      const inherited = row.parent_installation_id !== null && sealedTokens.has(row.parent_installation_id) ? sealedTokens.get(row.parent_installation_id)! : (await credentialsOf(ctx, row)).sealedToken;
      return presentInstallation(ctx.config, row, (row.sealed_token ?? inherited) !== null);
    }),
  );
  return { items };
}
