import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { watchWork, type WorkOutcome } from '../shell/background-work.tsx';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { api, errorMessage } from '../../api/client.ts';
import { keys } from '../../api/queries.ts';
import type { Space } from '../../api/types.ts';
import { Button, buttonClass } from '../../ui/button.tsx';
import { ErrorNote } from '../../ui/states.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { useTitle } from '../../ui/title.ts';
import { uploadFile } from '../editing/editing-api.ts';
import { postSpace } from '../organizations/sidebar-actions.ts';
import { GitImportForm } from './git-import-form.tsx';

/** The import run as startImportRun and getImportRun answer it (src/features/imports/run-schemas.ts). */
interface ImportRun {
  id: string;
  status: 'pending' | 'in-progress' | 'completed' | 'failed' | 'cancelled';
  reason?: string;
  importedResources?: number;
  totalResources?: number;
}

const DONE = new Set<ImportRun['status']>(['completed', 'failed', 'cancelled']);

const importRunKey = (orgId: string, runId: string | undefined) => ['org', orgId, 'imports', runId];

/** How an import ended, for the shell's toast; null while it runs. */
function importOutcome(run: ImportRun, orgId: string, space: Space): WorkOutcome | null {
  if (!DONE.has(run.status)) return null;
  const open = { label: `Open ${space.title}`, to: `/o/${orgId}/s/${space.id}` };
  if (run.status === 'completed') {
    const count = run.importedResources !== undefined ? `${run.importedResources} of ${run.totalResources ?? run.importedResources} pages and images` : undefined;
    return { title: `Import into ${space.title} finished`, description: count, tone: 'success', open };
  }
  return { title: `Import into ${space.title} ${run.status === 'failed' ? 'failed' : 'was cancelled'}`, description: run.reason, tone: 'error', open };
}
const STATUS_WORDS: Record<ImportRun['status'], string> = {
  pending: 'Waiting to start…',
  'in-progress': 'Importing…',
  completed: 'Imported',
  failed: 'The import failed',
  cancelled: 'The import was cancelled',
};

/**
 * Existing docs into a new space: a .zip of a folder (a GitBook export, an MkDocs or Docusaurus site, markdown
 * files: what Git Sync reads) or Word, HTML and markdown documents, uploaded into the space's files and imported
 * by an import run (startImportRun with a `file` source), whose progress the screen follows; or a Git repository,
 * imported by Git Sync, which connects the new space to it (git-import-form.tsx).
 */
export default function ImportScreen() {
  const { orgId = '' } = useParams();
  useTitle('Import');
  const queryClient = useQueryClient();
  const [title, setTitle] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<string>();
  const start = useMutation({
    mutationFn: async () => {
      setProgress('Creating the space…');
      const space = await postSpace(orgId, { title });
      await queryClient.invalidateQueries({ queryKey: keys.spaces(orgId) });
      const stored: string[] = [];
      for (const [i, file] of files.entries()) {
        setProgress(`Uploading ${file.name} (${i + 1} of ${files.length})…`);
        stored.push((await uploadFile(space.id, { kind: 'live' }, file)).id);
      }
      setProgress(undefined);
      const run = await api<ImportRun>('POST', `/org/${orgId}/imports`, { body: { source: { type: 'file', files: stored }, target: { space: space.id } } });
      // Followed by the shell too: the person may go elsewhere while it runs, and is told how it ended.
      watchWork({
        queryKey: importRunKey(orgId, run.id),
        read: (signal) => api<ImportRun>('GET', `/org/${orgId}/imports/${run.id}`, { signal }),
        outcome: (current) => importOutcome(current, orgId, space),
      });
      return { space, run };
    },
    onError: () => setProgress(undefined),
  });
  const started = start.data;
  const run = useQuery({
    queryKey: importRunKey(orgId, started?.run.id),
    queryFn: ({ signal }) => api<ImportRun>('GET', `/org/${orgId}/imports/${started!.run.id}`, { signal }),
    enabled: !!started,
    initialData: started?.run,
    refetchInterval: (query) => (query.state.data && DONE.has(query.state.data.status) ? false : 1000),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    start.mutate();
  };
  return (
    <main id="main" className="app-main">
      <h1>Import</h1>
      <p className="muted">Bring existing docs into a new space. Quire reads them as GitBook does, and says what it could not carry over.</p>
      <form className="panel" onSubmit={submit} aria-labelledby="import-files-title">
        <h2 id="import-files-title">From files</h2>
        <p>A .zip of a folder — a GitBook export, an MkDocs or Docusaurus site, markdown files — imported alone; or up to 50 markdown, HTML and Word (.docx) documents, a page each.</p>
        <TextField label="Title of the new space" required maxLength={50} value={title} onChange={(e) => setTitle(e.target.value)} disabled={!!started} />
        <div className="ui-field">
          <label htmlFor="import-files" className="ui-field-label">Files</label>
          <input id="import-files" className="ui-input" type="file" required multiple accept=".zip,.md,.markdown,.mdx,.txt,.html,.htm,.docx" disabled={!!started}
            onChange={(e) => setFiles([...(e.target.files ?? [])])} />
        </div>
        {start.error ? <p role="alert" className="error-note">{errorMessage(start.error)}</p> : null}
        <Button type="submit" variant="primary" loading={start.isPending} disabled={!!started || files.length === 0}>Import</Button>
        {progress ? <p role="status">{progress}</p> : null}
        {started ? (
          <div role="status" className="import-status">
            <p>
              <strong>{run.data ? STATUS_WORDS[run.data.status] : 'Importing…'}</strong>
              {run.data?.status === 'completed' && run.data.importedResources !== undefined ? ` — ${run.data.importedResources} of ${run.data.totalResources ?? run.data.importedResources} pages and images.` : null}
              {run.data?.reason ? ` ${run.data.reason}` : null}
            </p>
            <ErrorNote error={run.error} />
            {run.data && DONE.has(run.data.status) ? <Link className={buttonClass('primary')} to={`/o/${orgId}/s/${started.space.id}`}>Open {started.space.title}</Link> : null}
          </div>
        ) : null}
      </form>
      <GitImportForm orgId={orgId} />
    </main>
  );
}
