import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { keys } from '../../api/queries.ts';
import type { Space } from '../../api/types.ts';
import { Button, buttonClass } from '../../ui/button.tsx';
import { RadioGroup } from '../../ui/choices.tsx';
import { ErrorNote } from '../../ui/states.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { placeError } from '../../ui/use-submit.ts';
import { watchWork, type WorkOutcome } from '../shell/background-work.tsx';
import { isRunning } from '../git-sync/git-ref.ts';
import { GIT_STATE_WORDS, readGitInfo, startGitOperation, type GitInfo } from '../git-sync/git-sync-api.ts';
import { ProviderConnect } from '../git-sync/provider-connect.tsx';
import { postSpace } from '../organizations/sidebar-actions.ts';

const gitInfoKey = (spaceId: string | undefined) => ['space', spaceId, 'git'] as const;

/** How the first import ended, for the shell's toast; null while it runs. */
function firstImportOutcome(info: GitInfo | null, orgId: string, space: Space): WorkOutcome | null {
  const state = info?.operation?.state;
  if (!state || isRunning(state)) return null;
  const open = { label: `Open ${space.title}`, to: `/o/${orgId}/s/${space.id}` };
  if (state === 'success') return { title: `${space.title} imported from its repository`, description: 'Git Sync keeps them in step from now on.', tone: 'success', open };
  return { title: `Import of ${space.title} from its repository ${GIT_STATE_WORDS[state].toLowerCase()}`, description: info.operation?.error, tone: 'error', open };
}

type Connection = 'url' | 'account';

/**
 * A new space from a Git repository: the space is created, then Git Sync imports the branch into it (a GitBook
 * repository, an MkDocs or a Docusaurus site), which connects them — the space syncs both ways afterwards, as a
 * space connected on its Git Sync screen does (the same calls: git-sync-api.ts). By URL (a private repository's
 * URL holds its credentials, `https://user:token@…`, kept encrypted), or through a GitHub or GitLab account: the
 * space is created, then the Git Sync screen's account panel (ProviderConnect) takes the token and offers the
 * repositories and branches it reaches, and starts the sync.
 */
export function GitImportForm({ orgId }: { orgId: string }) {
  const queryClient = useQueryClient();
  const [title, setTitle] = useState('');
  const [url, setUrl] = useState('');
  const [branch, setBranch] = useState('main');
  const [project, setProject] = useState('');
  const [connection, setConnection] = useState<Connection>('url');
  const [step, setStep] = useState<string>();
  // The space made by an attempt whose import was refused (a wrong URL): the next attempt imports into it.
  const [made, setMade] = useState<Space>();
  const start = useMutation({
    mutationFn: async () => {
      setStep('Creating the space…');
      const space = made ?? (await postSpace(orgId, { title }));
      setMade(space);
      await queryClient.invalidateQueries({ queryKey: keys.spaces(orgId) });
      if (connection === 'account') return space;
      setStep('Starting the import…');
      await startGitOperation(space.id, 'import', { url, branch, projectDirectory: project });
      watchWork({ queryKey: gitInfoKey(space.id), read: (signal) => readGitInfo(space.id, signal), outcome: (info) => firstImportOutcome(info, orgId, space) });
      return space;
    },
    onSettled: () => setStep(undefined),
  });
  const started = start.data;
  const info = useQuery({
    queryKey: gitInfoKey(started?.id),
    queryFn: ({ signal }) => readGitInfo(started!.id, signal),
    enabled: !!started,
    refetchInterval: (query) => (isRunning(query.state.data?.operation?.state) || !query.state.data?.operation ? 1500 : false),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    start.mutate();
  };
  const refused = placeError(start.error, ['title', 'url', 'ref', 'repoProjectDirectory']);
  const operation = info.data?.operation;
  const done = operation && !isRunning(operation.state);
  const byUrl = connection === 'url';
  return (
    <>
      <form className="panel" onSubmit={submit} aria-labelledby="import-git-title">
        <h2 id="import-git-title">From a Git repository</h2>
        <p>A GitBook repository, an MkDocs or a Docusaurus site, imported into a new space that Git Sync keeps in step with the branch afterwards.</p>
        <TextField label="Title of the new space" required maxLength={50} value={title} onChange={(e) => setTitle(e.target.value)} disabled={!!started || !!made} error={refused.fields.title} />
        {started ? null : (
          <RadioGroup
            legend="Connect it"
            orientation="horizontal"
            value={connection}
            onValueChange={setConnection}
            options={[{ value: 'url', label: 'By the repository’s URL' }, { value: 'account', label: 'Through a GitHub or GitLab account' }]}
          />
        )}
        {byUrl ? (
          <>
            <TextField label="Repository URL" type="url" required value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://github.com/acme/docs.git" disabled={!!started}
              hint="https; a private repository’s URL holds its credentials (user:token@), kept encrypted and never shown." error={refused.fields.url} />
            <TextField label="Branch" required value={branch} onChange={(e) => setBranch(e.target.value)} disabled={!!started} error={refused.fields.ref} />
            <TextField label="Project directory" value={project} onChange={(e) => setProject(e.target.value)} placeholder="docs/en" disabled={!!started}
              hint="The folder of the docs in the repository, when it is not the root." error={refused.fields.repoProjectDirectory} />
          </>
        ) : (
          <p className="muted">
            {started ? `${started.title} is created: connect the account below, then pick the repository and branch.` : 'The space is created first; then your account’s token, and the repository and branch picked from what it reaches.'}
          </p>
        )}
        <ErrorNote error={refused.form} />
        <Button type="submit" variant="primary" loading={start.isPending} disabled={!!started}>{byUrl ? 'Import and sync' : 'Create the space'}</Button>
        {step ? <p role="status">{step}</p> : null}
        {started && (byUrl || operation) ? (
          <div role="status" className="import-status">
            <p>
              <strong>{operation ? `Import: ${GIT_STATE_WORDS[operation.state]}` : 'Import: waiting to start'}</strong>
              {operation?.error ? ` ${operation.error}` : null}
            </p>
            <ErrorNote error={info.error} />
            {done ? (
              <p className="actions">
                <Link className={buttonClass('primary')} to={`/o/${orgId}/s/${started.id}`}>Open {started.title}</Link>
                <Link className={buttonClass('secondary')} to={`/s/${started.id}/~/git`}>Git Sync of {started.title}</Link>
              </p>
            ) : null}
          </div>
        ) : null}
      </form>
      {/* The account panel has forms of its own: after this one, not inside it. */}
      {!byUrl && started && info.data !== undefined ? (
        <ProviderConnect spaceId={started.id} installationId={info.data?.installationId} onChanged={() => void queryClient.invalidateQueries({ queryKey: gitInfoKey(started.id) })} />
      ) : null}
    </>
  );
}
