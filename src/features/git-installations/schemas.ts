import { Type } from 'typebox';
import { SiteIdParams } from '../sites/schemas.ts';

// The official Git Sync installation objects and bodies (0.202.0: GitSyncInstallation, GitSyncInstallationSetup...).

export const GitProvider = Type.Union([Type.Literal('github'), Type.Literal('gitlab')]);

const BranchRef = Type.String({ pattern: '^refs/heads/.+$', maxLength: 255, description: 'A branch ref, e.g. refs/heads/main' });
const Priority = Type.Union([Type.Literal('git'), Type.Literal('gitbook')], { description: 'Which side is the source of truth: git imports, gitbook exports' });
const AgentInstructions = Type.Array(Type.Union([Type.Literal('agents'), Type.Literal('claude')]), { maxItems: 2 });

export const InstallationTarget = Type.Union([
  Type.Object({
    type: Type.Literal('space'),
    spaceId: Type.String({ minLength: 1 }),
    siteId: Type.Optional(Type.String({ minLength: 1, description: "The site whose installation manages this space's" })),
  }),
  Type.Object({ type: Type.Literal('site'), siteId: Type.String({ minLength: 1 }) }),
]);

export const InstallBody = Type.Object({ provider: GitProvider, target: InstallationTarget });

/** Both providers' providerConfiguration fields; which belong to which provider is checked by the service. */
const ProviderConfigurationInput = Type.Object({
  repositoryId: Type.Optional(Type.Number({ description: 'GitHub repository identifier' })),
  projectId: Type.Optional(Type.Number({ description: 'GitLab project identifier' })),
  accessToken: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 1024,
      description: 'The token Quire calls the provider with (GitLab; on this server GitHub takes one too: a personal access token or an app installation token). Stored sealed, never returned.',
    }),
  ),
  customInstanceURL: Type.Optional(Type.Union([Type.String({ maxLength: 2048 }), Type.Null()], { description: 'A self-hosted GitLab; null: GITLAB_URL' })),
  branch: Type.Optional(BranchRef),
});

const SetupCommon = {
  projectDirectory: Type.Optional(Type.String({ maxLength: 1024 })),
  commitMessageTemplate: Type.Optional(Type.String({ maxLength: 1024 })),
  previewExternalBranches: Type.Optional(Type.Boolean()),
  agentInstructions: Type.Optional(AgentInstructions),
  priority: Type.Optional(Priority),
};

export const UpdateInstallationBody = Type.Object({
  ...SetupCommon,
  provider: GitProvider,
  providerConfiguration: ProviderConfigurationInput,
  childInstallationProjectDirectories: Type.Optional(Type.Record(Type.String(), Type.String({ maxLength: 1024 }))),
});

export const GitSyncInstallation = Type.Object({
  object: Type.Literal('git-sync-installation'),
  id: Type.String(),
  parentInstallationId: Type.Optional(Type.String()),
  provider: GitProvider,
  providerConfiguration: Type.Object({
    repositoryId: Type.Optional(Type.Number()),
    projectId: Type.Optional(Type.Number()),
    customInstanceURL: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    branch: Type.Optional(Type.String()),
  }),
  ...SetupCommon,
  target: Type.Object({ type: Type.Union([Type.Literal('space'), Type.Literal('site')]), spaceId: Type.Optional(Type.String()), siteId: Type.Optional(Type.String()) }),
  status: Type.Union([Type.Literal('unauthenticated'), Type.Literal('active'), Type.Literal('pending')]),
  createdAt: Type.String({ format: 'date-time' }),
  createdBy: Type.String(),
  updatedAt: Type.String({ format: 'date-time' }),
  urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
});

export const GitSyncInstallationList = Type.Object({ items: Type.Array(GitSyncInstallation) });

export const InstallationParams = Type.Object({ installationId: Type.String({ minLength: 1 }) });
export const GitHubRepositoryParams = Type.Object({ ...InstallationParams.properties, accountName: Type.String({ minLength: 1 }), repositoryName: Type.String({ minLength: 1 }) });
export const GitLabProjectParams = Type.Object({ ...InstallationParams.properties, projectId: Type.Integer({ minimum: 1 }) });
export const FileQuery = Type.Object({ path: Type.String({ minLength: 1, maxLength: 1024 }), ref: Type.String({ minLength: 1, maxLength: 255 }) });
export { SiteIdParams };

const Repository = Type.Object({
  id: Type.Number(),
  accountName: Type.String(),
  repositoryName: Type.String(),
  fullName: Type.String(),
  defaultBranch: Type.Union([Type.String(), Type.Null()]),
});
export const RepositoryList = Type.Object({ items: Type.Array(Repository) });
export const BranchList = Type.Object({ items: Type.Array(Type.Object({ name: Type.String(), ref: Type.String() })) });
export const RepositoryFile = Type.Object({ name: Type.String(), path: Type.String(), sha: Type.String(), size: Type.Number() });
