import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { faArrowsRotate, faLinkSlash, faKey } from '@fortawesome/free-solid-svg-icons';
import { api } from '../../api/client.ts';
import { Button } from '../../ui/button.tsx';
import { AlertDialog } from '../../ui/dialogs.tsx';
import { Badge } from '../../ui/badge.tsx';
import { ErrorNote } from '../../ui/states.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { branchOfRef } from './git-ref.ts';

/** getSpaceGitInfo's `sync` (a Quire extension): the automatic syncing of a connected space. */
export interface GitSyncConnection {
  connected: boolean;
  branch: string;
  projectDirectory: string;
  lastSync?: { direction: 'import' | 'export'; commit?: string; revision?: string; at: string; by?: string };
  pending?: 'import' | 'export' | 'both';
  pausedBy?: { id: string; number: number };
  error?: string;
  webhook: { url: string; configured: boolean; lastDelivery?: { at: string; provider: string; event: string; result: string } };
  pollInterval: number;
}

const PENDING_WORDS = { import: 'a push to import', export: 'changes to export', both: 'a push to import and changes to export' } as const;
const PROVIDERS: Record<string, string> = { github: 'GitHub', gitlab: 'GitLab', gitea: 'Gitea or Forgejo', bitbucket: 'Bitbucket' };

/**
 * A connected space syncs by itself (a merge or a live edit becomes a commit, a push becomes content): what was
 * last synced, what is due, what stops it (a conflicting push held in a change request), "Sync now", the push
 * webhook's address and secret, and "Disconnect".
 */
export function SyncPanel({ spaceId, sync, canEdit, onChanged }: { spaceId: string; sync: GitSyncConnection; canEdit: boolean; onChanged: () => void }) {
  const queryClient = useQueryClient();
  const [secret, setSecret] = useState<string | undefined>();
  const syncNow = useMutation({ mutationFn: () => api('POST', `/spaces/${spaceId}/git/sync`), onSuccess: onChanged });
  const webhook = useMutation({
    mutationFn: () => api<{ url: string; secret: string }>('POST', `/spaces/${spaceId}/git/webhook`),
    onSuccess: (made) => {
      setSecret(made.secret);
      onChanged();
    },
  });
  const disconnect = useMutation({
    mutationFn: () => api('DELETE', `/spaces/${spaceId}/git`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['space', spaceId, 'git'] }),
  });
  const last = sync.lastSync;
  const delivery = sync.webhook.lastDelivery;
  const interval = sync.pollInterval > 0 ? `every ${Math.round(sync.pollInterval / 60_000) || 1} min` : 'never (webhook only)';
  return (
    <section className="panel" aria-labelledby="git-sync-auto">
      <h2 id="git-sync-auto">
        Synced automatically <Badge tone={sync.pausedBy || sync.error ? 'warning' : 'success'}>{sync.pausedBy ? 'Paused' : sync.error ? 'Needs attention' : 'On'}</Badge>
      </h2>
      <p className="muted">
        Merged change requests and live edits become commits on <code>{branchOfRef(sync.branch)}</code>
        {sync.projectDirectory ? <> (folder <code>{sync.projectDirectory}</code>)</> : null}; pushes to it become this space’s content. When both
        sides changed, the push is merged with the space; a conflict is held in a change request, never overwritten.
      </p>
      <dl className="facts">
        <div>
          <dt>Last sync</dt>
          <dd>
            {last
              ? `${last.direction === 'import' ? 'Imported' : 'Exported'}${last.commit ? ` commit ${last.commit.slice(0, 7)}` : ''}${last.by ? ` (${last.by})` : ''}, ${new Date(last.at).toLocaleString()}`
              : 'None yet'}
          </dd>
        </div>
        <div>
          <dt>Next</dt>
          <dd>
            <span role="status">{sync.pausedBy ? 'Waiting for the change request below' : sync.pending ? `Soon: ${PENDING_WORDS[sync.pending]}` : 'Nothing to sync'}</span>
          </dd>
        </div>
        <div>
          <dt>Polling the branch</dt>
          <dd>{interval}</dd>
        </div>
      </dl>
      {sync.error ? (
        <div role="alert" className="error-note">
          {sync.error}
          {sync.pausedBy ? (
            <>
              {' '}
              <Link to={`../changes/${sync.pausedBy.number}`} relative="path">
                Open change request #{sync.pausedBy.number}
              </Link>
            </>
          ) : null}
        </div>
      ) : null}
      <h3>Push webhook</h3>
      <p className="muted">
        Give this address to GitHub, GitLab, Gitea, Forgejo or Bitbucket as a push webhook (JSON) with the secret, so that pushes arrive at once instead of
        at the next poll.
      </p>
      <TextField label="Webhook URL" value={sync.webhook.url} readOnly onFocus={(event) => event.currentTarget.select()} />
      {secret ? (
        <TextField label="Secret" value={secret} readOnly hint="Shown this once: copy it into the Git server’s webhook settings." onFocus={(event) => event.currentTarget.select()} />
      ) : (
        <p className="muted">{sync.webhook.configured ? 'A secret is set. Making a new one stops the old one.' : 'No secret yet: deliveries are refused until one is made.'}</p>
      )}
      {delivery ? (
        <p>
          Last delivery: {PROVIDERS[delivery.provider] ?? delivery.provider} “{delivery.event}”, {new Date(delivery.at).toLocaleString()}: {delivery.result}
        </p>
      ) : null}
      {canEdit ? (
        <div className="actions">
          <Button icon={faArrowsRotate} loading={syncNow.isPending} onClick={() => syncNow.mutate()}>
            Sync now
          </Button>
          <Button icon={faKey} loading={webhook.isPending} onClick={() => webhook.mutate()}>
            {sync.webhook.configured ? 'New webhook secret' : 'Make webhook secret'}
          </Button>
          <AlertDialog
            title="Disconnect Git Sync?"
            description="The space stops syncing with the branch. Its content and the repository stay as they are; importing or exporting again connects it again."
            confirm="Disconnect"
            error={disconnect.error}
            onConfirm={() => disconnect.mutateAsync()}
            trigger={
              <Button variant="danger" icon={faLinkSlash}>
                Disconnect
              </Button>
            }
          />
        </div>
      ) : null}
      <ErrorNote error={syncNow.error ?? webhook.error} />
    </section>
  );
}
