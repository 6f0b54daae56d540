import { Type } from 'typebox';

const gitInfo = Type.Object(
  {
    provider: Type.Optional(Type.Union([Type.Literal('github'), Type.Literal('gitlab')], { description: 'The git provider' })),
    url: Type.Optional(Type.String({ maxLength: 2048, description: "The repository's tree URL" })),
  },
  { description: 'Update metadata about the Git provider on the space' },
);

const common = {
  url: Type.String({ minLength: 1, maxLength: 2048, description: 'URL of the Git repository (https); it can contain basic auth credentials' }),
  ref: Type.String({ minLength: 1, maxLength: 255, description: 'Git ref in the format "refs/heads/main"' }),
  repoCacheID: Type.Optional(Type.String({ maxLength: 255, deprecated: true, description: 'Accepted and ignored' })),
  repoTreeURL: Type.Optional(Type.String({ maxLength: 2048, description: 'URL to use as a prefix for external file references' })),
  repoCommitURL: Type.Optional(Type.String({ maxLength: 2048, description: 'URL to use as a prefix for the commit URL' })),
  repoProjectDirectory: Type.Optional(Type.String({ maxLength: 1024, description: 'Path to a root directory for the project in the repository' })),
  timestamp: Type.Optional(Type.String({ format: 'date-time' })),
  force: Type.Optional(Type.Boolean()),
  standalone: Type.Optional(Type.Boolean()),
  gitInfo: Type.Optional(gitInfo),
};

export const ImportGitRepository = Type.Object({
  ...common,
  standalone: Type.Optional(Type.Boolean({ description: "If true, the import opens a change request with the repository's content instead of updating the space's main content" })),
});

export const ExportToGitRepository = Type.Object({
  ...common,
  commitMessage: Type.String({ minLength: 1, maxLength: 10_000 }),
  force: Type.Optional(Type.Boolean({ description: 'Push even when the branch has commits the export does not contain' })),
});

const Timestamp = Type.String({ format: 'date-time' });

/** What an import of a repository or an archive read it as, and what it could not carry over (import-repository.ts ImportReport). */
export const ImportReportSchema = Type.Object(
  {
    layout: Type.Union([Type.Literal('gitbook'), Type.Literal('mkdocs'), Type.Literal('docusaurus'), Type.Literal('folders')], { description: 'The layout the files were read as' }),
    notes: Type.Array(Type.String(), { description: 'About the files as a whole (their configuration)' }),
    pages: Type.Array(
      Type.Object({ file: Type.String(), title: Type.String(), notes: Type.Array(Type.String()) }),
      { description: 'Per page, each construct that was not carried over exactly' },
    ),
  },
  { 'x-quire-extension': true, description: 'Which layout the files were read as (GitBook, MkDocs, Docusaurus, plain folders) and what could not be carried over' },
);

export const GitSyncState = Type.Object({
  repoName: Type.Optional(Type.String({ description: 'Repository name.' })),
  installationStatus: Type.Union([Type.Literal('unauthenticated'), Type.Literal('active'), Type.Literal('pending')]),
  installationProvider: Type.Union([Type.Literal('github'), Type.Literal('gitlab'), Type.Literal('github-legacy')]),
  installationId: Type.String({ description: 'The ID of the Git Sync installation.' }),
  url: Type.Optional(Type.String({ description: 'The URL to the repository tree, used when rendering public content.' })),
  operation: Type.Optional(
    Type.Object({
      state: Type.Union([Type.Literal('running'), Type.Literal('failure'), Type.Literal('success'), Type.Literal('timeout')]),
      direction: Type.Union([Type.Literal('export'), Type.Literal('import')]),
      startedAt: Timestamp,
      endedAt: Type.Optional(Timestamp),
      error: Type.Optional(Type.String({ description: 'Why the operation failed, when it did.' })),
      report: Type.Optional(ImportReportSchema),
    }),
  ),
  lastImport: Type.Optional(
    Type.Object(
      { endedAt: Timestamp, report: ImportReportSchema },
      { 'x-quire-extension': true, description: 'The last import that read the repository, and its report; the exports after it leave it in place.' },
    ),
  ),
  operationTimeout: Type.Optional(Type.Integer({ description: 'How long an operation is allowed to run before it is terminated (in milliseconds).' })),
  updatedAt: Type.Optional(Timestamp),
  sync: Type.Optional(GitSyncConnection()),
});

/** Quire's automatic syncing of a connected space, as getSpaceGitInfo shows it. */
function GitSyncConnection() {
  return Type.Object(
    {
      connected: Type.Boolean({ description: 'Whether pushes and changes are synced automatically (until disconnected)' }),
      branch: Type.String({ description: 'The branch synced, e.g. "refs/heads/main"' }),
      projectDirectory: Type.String({ description: "The space's folder in the repository ('' for its root)" }),
      lastSync: Type.Optional(
        Type.Object({
          direction: Type.Union([Type.Literal('import'), Type.Literal('export')]),
          commit: Type.Optional(Type.String()),
          revision: Type.Optional(Type.String({ description: "The space's revision it read or wrote" })),
          at: Timestamp,
          by: Type.Optional(Type.String({ description: 'Whose change it carried' })),
        }),
      ),
      pending: Type.Optional(
        Type.Union([Type.Literal('import'), Type.Literal('export'), Type.Literal('both')], { description: 'What the next sync will do, when one is due' }),
      ),
      pausedBy: Type.Optional(
        Type.Object(
          { id: Type.String(), number: Type.Integer() },
          { description: 'The change request holding a push that conflicts with main: exporting waits until it is merged or closed' },
        ),
      ),
      error: Type.Optional(Type.String({ description: 'Why the last automatic sync failed, and what to do' })),
      webhook: Type.Object({
        url: Type.String({ description: 'Where the Git server posts pushes' }),
        configured: Type.Boolean({ description: 'Whether a secret was made (createGitSyncWebhook); deliveries are refused until then' }),
        lastDelivery: Type.Optional(
          Type.Object({ at: Timestamp, provider: Type.String(), event: Type.String(), result: Type.String() }),
        ),
      }),
      pollInterval: Type.Integer({ description: 'How often the branch is polled for pushes, in ms (0: webhooks only)' }),
    },
    { 'x-quire-extension': true, description: "Automatic syncing both ways: a merge or live edit becomes a commit, a push becomes content" },
  );
}

export const GitSyncWebhook = Type.Object(
  {
    url: Type.String({ description: 'The address to give the Git server as its push webhook' }),
    secret: Type.String({ description: 'The webhook secret, shown this once' }),
  },
  { 'x-quire-extension': true },
);

export const WebhookReceipt = Type.Object(
  {
    accepted: Type.Boolean({ description: 'Whether the delivery queued a sync' }),
    message: Type.String({ description: 'What was done with it' }),
  },
  { 'x-quire-extension': true },
);
