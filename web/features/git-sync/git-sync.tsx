import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { isNotFound } from '../../api/client.ts';
import { spaceQuery } from '../../api/queries.ts';
import { ErrorNote, NotFound, Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';
import { SpaceHeader } from '../spaces/space-header.tsx';
import { isRunning } from './git-ref.ts';
import { GIT_STATE_WORDS, readGitInfo, startGitOperation } from './git-sync-api.ts';
import { ImportReportView } from './import-report.tsx';
import { Button } from '../../ui/button.tsx';
import { AlertDialog } from '../../ui/dialogs.tsx';
import { SyncPanel } from './sync-panel.tsx';
import { ProviderConnect } from './provider-connect.tsx';
import { TextField } from '../../ui/text-field.tsx';

/**
 * Git Sync of a space: a repository and branch, "Import now" (importGitRepository: the repository's content
 * replaces the space's) and "Export now" (exportToGitRepository: one commit on the branch), and the last result.
 */
export default function GitSyncScreen() {
  const { spaceId = '' } = useParams();
  const id = useId();
  const queryClient = useQueryClient();
  const space = useQuery(spaceQuery(spaceId));
  const infoKey = ['space', spaceId, 'git'] as const;
  const info = useQuery({
    queryKey: infoKey,
    queryFn: ({ signal }) => readGitInfo(spaceId, signal),
    // While something runs or is due, the screen follows it.
    refetchInterval: (query) => (isRunning(query.state.data?.operation?.state) || query.state.data?.sync?.pending ? 1500 : false),
  });
  const [url, setUrl] = useState('');
  const [branch, setBranch] = useState('main');
  const [message, setMessage] = useState('Export from Quire');
  const [project, setProject] = useState('');
  const [confirming, setConfirming] = useState(false);
  const start = useMutation({
    mutationFn: (direction: 'import' | 'export') => startGitOperation(spaceId, direction, { url, branch, projectDirectory: project }, message),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: infoKey }),
  });
  useTitle(space.data ? `Git Sync · ${space.data.title}` : 'Git Sync');
  if (isNotFound(space.error)) return <main id="main" className="app-main"><NotFound what="space" /></main>;
  // An import replaces the space's content, so the form's submit asks first (the fields checked by then).
  const submit = (direction: 'import' | 'export') => (event?: FormEvent) => {
    event?.preventDefault();
    if (direction === 'import') setConfirming(true);
    else start.mutate(direction);
  };
  const operation = info.data?.operation;
  const canEdit = space.data?.permissions.triggerGitSync ?? false;
  return (
    <main id="main" className="app-main">
      <SpaceHeader spaceId={spaceId} space={space.data} />
      <h1>Git Sync</h1>
      {info.isPending ? <Skeleton lines={2} label="Loading Git Sync" /> : null}
      <ErrorNote error={info.error} />
      {/* An installation whose repository is not chosen yet has synced nothing either. */}
      {info.data === null || (info.data && !info.data.repoName && !operation) ? <p>This space is not synced with a Git repository yet.</p> : null}
      {info.data && (info.data.repoName || operation) ? (
        <dl className="facts">
          <div><dt>Repository</dt><dd>{info.data.repoName ?? '—'}{info.data.url ? <> (<a href={info.data.url} rel="noopener">{info.data.url}</a>)</> : null}</dd></div>
          <div><dt>Last operation</dt><dd><span role="status">{operation ? `${operation.direction === 'import' ? 'Import' : 'Export'}: ${GIT_STATE_WORDS[operation.state]}` : 'None yet'}</span></dd></div>
          {operation ? <div><dt>Started</dt><dd>{new Date(operation.startedAt).toLocaleString()}{operation.endedAt ? `, ended ${new Date(operation.endedAt).toLocaleString()}` : ''}</dd></div> : null}
          {operation?.error ? <div><dt>Error</dt><dd>{operation.error}</dd></div> : null}
        </dl>
      ) : null}
      {info.data?.sync ? <SyncPanel spaceId={spaceId} sync={info.data.sync} canEdit={canEdit} onChanged={() => void queryClient.invalidateQueries({ queryKey: infoKey })} /> : null}
      {info.data?.lastImport ? <ImportReportView report={info.data.lastImport.report} endedAt={info.data.lastImport.endedAt} /> : null}
      {canEdit && info.data !== undefined ? (
        <ProviderConnect spaceId={spaceId} installationId={info.data?.installationId} onChanged={() => void queryClient.invalidateQueries({ queryKey: infoKey })} />
      ) : null}
      {canEdit ? (
        <form className="panel" onSubmit={submit('import')} aria-labelledby={`${id}-title`}>
          <h2 id={`${id}-title`}>{info.data?.sync ? 'Import or export by hand' : 'By repository URL'}</h2>
          {info.data?.sync ? null : <p className="muted">Importing from a branch or exporting to it connects the space: from then on it syncs both ways by itself.</p>}
          <TextField label="Repository URL" type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://github.com/acme/docs.git" required
            hint="https; it may hold credentials (user:token@), which are kept encrypted and never shown." />
          <TextField label="Branch" value={branch} onChange={(e) => setBranch(e.target.value)} required />
          <TextField label="Project directory" value={project} onChange={(e) => setProject(e.target.value)} placeholder="docs/en"
            hint="The folder of the docs in the repository (where its SUMMARY.md, mkdocs.yml or docusaurus.config is), when it is not the root." />
          <TextField label="Commit message (export)" value={message} onChange={(e) => setMessage(e.target.value)} />
          <Button type="submit" disabled={start.isPending || isRunning(operation?.state)}>Import now</Button>{' '}
          <Button variant="primary" disabled={start.isPending || isRunning(operation?.state)}
            onClick={(event) => (event.currentTarget.form?.reportValidity() ?? true) && submit('export')()}>Export now</Button>
          <ErrorNote error={start.error} />
          <AlertDialog
            open={confirming}
            onOpenChange={setConfirming}
            title="Replace this space’s content?"
            description="Import replaces the content of this space with the repository’s."
            confirm="Import and replace"
            error={start.error}
            onConfirm={() => start.mutateAsync('import')}
          />
        </form>
      ) : space.data ? <p className="muted">You cannot sync this space (Git Sync needs the space’s edit permission).</p> : null}
    </main>
  );
}
