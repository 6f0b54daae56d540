import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, isNotFound } from '../../api/client.ts';
import { Badge } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { RadioGroup } from '../../ui/choices.tsx';
import { AlertDialog } from '../../ui/dialogs.tsx';
import { Select } from '../../ui/select.tsx';
import { ErrorNote, Skeleton } from '../../ui/states.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { refOfBranch } from './git-ref.ts';

type Provider = 'github' | 'gitlab';

/** getGitSyncInstallationById, as this screen reads it. */
interface Installation {
  id: string;
  provider: Provider;
  status: 'unauthenticated' | 'active' | 'pending';
  providerConfiguration: { repositoryId?: number; projectId?: number; customInstanceURL?: string | null; branch?: string };
  projectDirectory?: string;
}

interface Repository {
  id: number;
  fullName: string;
  defaultBranch: string | null;
}

const PROVIDER_WORDS: Record<Provider, string> = { github: 'GitHub', gitlab: 'GitLab' };
const TOKEN_HINTS: Record<Provider, string> = {
  github: 'A personal access token (or an app installation token) with read and write access to the repository’s contents. Kept encrypted, never shown again.',
  gitlab: 'A personal, group or project access token with the api and write_repository scopes. Kept encrypted, never shown again.',
};

/**
 * Git Sync through a GitHub or GitLab account (the official Git Sync installations): the account's token is
 * given once, then the repository and branch are picked from what the token reaches instead of typing a URL.
 * Choosing them with a source of truth starts the space's sync, as Import or Export by URL does.
 */
export function ProviderConnect({ spaceId, installationId, onChanged }: { spaceId: string; installationId: string | undefined; onChanged: () => void }) {
  const queryClient = useQueryClient();
  const key = ['git-installation', installationId] as const;
  const installation = useQuery({
    queryKey: key,
    enabled: installationId !== undefined,
    queryFn: async ({ signal }) => {
      try {
        return await api<Installation>('GET', `/git/installations/${installationId}`, { signal });
      } catch (error) {
        // A space synced by URL names an installation that is no record: none to show.
        if (isNotFound(error)) return null;
        throw error;
      }
    },
  });
  const changed = () => {
    onChanged();
    void queryClient.invalidateQueries({ queryKey: ['git-installation'] });
  };
  const current = installation.data ?? undefined;
  const account = useAccount(spaceId, current, changed);
  if (installationId !== undefined && installation.isPending) return <Skeleton lines={2} label="Loading the Git Sync account" />;
  if (installation.error) return <ErrorNote error={installation.error} />;
  return (
    <section className="panel" aria-labelledby="git-provider-title">
      <h2 id="git-provider-title">
        Through a GitHub or GitLab account{' '}
        {current ? <Badge tone={current.status === 'active' ? 'success' : 'warning'}>{current.status === 'active' ? `${PROVIDER_WORDS[current.provider]} connected` : 'Needs a token'}</Badge> : null}
      </h2>
      {current?.status === 'active' ? (
        <RepositoryPicker installation={current} onChanged={changed} />
      ) : (
        <AccountForm installation={current} state={account} />
      )}
      {current ? <Uninstall installation={current} onChanged={changed} /> : null}
    </section>
  );
}

interface Account {
  provider: Provider;
  token: string;
  instance: string;
}

/**
 * The provider and its token: installs Git Sync on the space (once), then gives it the token. Its state lives in
 * ProviderConnect: the installation made by a first try reloads the panel, which keeps what was typed and the
 * provider's refusal.
 */
function useAccount(spaceId: string, installation: Installation | undefined, onChanged: () => void) {
  const [account, setAccount] = useState<Account>({ provider: installation?.provider ?? 'github', token: '', instance: installation?.providerConfiguration.customInstanceURL ?? '' });
  const connect = useMutation({
    mutationFn: async ({ provider, token, instance }: Account) => {
      const id = installation?.id ?? (await api<Installation>('POST', '/git/installations', { body: { provider, target: { type: 'space', spaceId } } })).id;
      try {
        await api('PATCH', `/git/installations/${id}`, {
          body: { provider, providerConfiguration: { accessToken: token.trim(), ...(provider === 'gitlab' && instance.trim() ? { customInstanceURL: instance.trim() } : {}) } },
        });
      } finally {
        // Installed even when the token was refused: the panel shows it waiting for one.
        if (!installation) onChanged();
      }
    },
    onSuccess: () => {
      setAccount((a) => ({ ...a, token: '' }));
      onChanged();
    },
  });
  return { account, setAccount, connect };
}

function AccountForm({ installation, state }: { installation: Installation | undefined; state: ReturnType<typeof useAccount> }) {
  const { account, setAccount, connect } = state;
  const provider = installation?.provider ?? account.provider;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    connect.mutate({ ...account, provider });
  };
  return (
    <form onSubmit={submit} aria-label="Connect an account">
      <p className="muted">Pick the repository and branch from your account instead of typing a URL. The token reaches only what you allow it.</p>
      {installation ? null : (
        <Select label="Provider" value={provider} onValueChange={(next) => setAccount((a) => ({ ...a, provider: next }))} options={[{ value: 'github', label: 'GitHub' }, { value: 'gitlab', label: 'GitLab' }]} />
      )}
      <TextField label={`${PROVIDER_WORDS[provider]} access token`} type="password" autoComplete="off" required hint={TOKEN_HINTS[provider]} value={account.token} onChange={(e) => setAccount((a) => ({ ...a, token: e.target.value }))} />
      {provider === 'gitlab' ? (
        <TextField label="GitLab instance" type="url" placeholder="https://gitlab.example.com" hint="A self-hosted GitLab; empty for the server’s (GITLAB_URL)." value={account.instance} onChange={(e) => setAccount((a) => ({ ...a, instance: e.target.value }))} />
      ) : null}
      <Button type="submit" variant="primary" loading={connect.isPending}>Connect {PROVIDER_WORDS[provider]}</Button>
      <ErrorNote error={connect.error} />
    </form>
  );
}

/** The repository, branch, folder and source of truth; saving them starts the sync. */
function RepositoryPicker({ installation, onChanged }: { installation: Installation; onChanged: () => void }) {
  const id = useId();
  const github = installation.provider === 'github';
  const chosenId = github ? installation.providerConfiguration.repositoryId : installation.providerConfiguration.projectId;
  const [repository, setRepository] = useState(chosenId !== undefined ? String(chosenId) : '');
  const [branch, setBranch] = useState(installation.providerConfiguration.branch?.replace(/^refs\/heads\//, '') ?? '');
  const [directory, setDirectory] = useState(installation.projectDirectory ?? '');
  const [priority, setPriority] = useState<'git' | 'gitbook'>('git');
  const [confirming, setConfirming] = useState(false);
  const repositories = useQuery({
    queryKey: ['git-installation', installation.id, 'repositories'],
    queryFn: ({ signal }) => api<{ items: Repository[] }>('GET', `/git/installations/${installation.id}/${github ? 'github/repos' : 'gitlab/projects'}`, { signal }),
  });
  const picked = repositories.data?.items.find((r) => String(r.id) === repository);
  const branches = useQuery({
    queryKey: ['git-installation', installation.id, 'branches', repository],
    enabled: picked !== undefined,
    queryFn: ({ signal }) =>
      api<{ items: { name: string }[] }>('GET', `/git/installations/${installation.id}/${github ? `github/repos/${picked!.fullName}` : `gitlab/projects/${picked!.id}`}/branches`, { signal }),
  });
  const start = useMutation({
    mutationFn: () =>
      api('PATCH', `/git/installations/${installation.id}`, {
        body: {
          provider: installation.provider,
          providerConfiguration: { [github ? 'repositoryId' : 'projectId']: Number(repository), branch: refOfBranch(branch) },
          projectDirectory: directory.trim(),
          priority,
        },
      }),
    onSuccess: onChanged,
  });
  const choose = (next: string) => {
    setRepository(next);
    setBranch(repositories.data?.items.find((r) => String(r.id) === next)?.defaultBranch ?? '');
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // An import replaces the space's content: asked first.
    if (priority === 'git') setConfirming(true);
    else start.mutate();
  };
  const noun = github ? 'Repository' : 'Project';
  return (
    <form onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Choose what to sync</h3>
      {repositories.isPending ? <Skeleton lines={1} label={`Loading the ${noun.toLowerCase()}s`} /> : null}
      <ErrorNote error={repositories.error} />
      {repositories.data ? (
        <>
          <Select label={noun} placeholder={`Choose a ${noun.toLowerCase()}`} value={repository || undefined} onValueChange={choose} options={repositories.data.items.map((r) => ({ value: String(r.id), label: r.fullName }))} />
          <Select
            label="Branch"
            placeholder={picked ? 'Choose a branch' : `Choose a ${noun.toLowerCase()} first`}
            value={branch || undefined}
            onValueChange={setBranch}
            disabled={!branches.data}
            options={(branches.data?.items ?? []).map((b) => ({ value: b.name, label: b.name }))}
          />
          <ErrorNote error={branches.error} />
          <TextField label="Project directory" placeholder="docs/en" hint="The folder of the docs in the repository, when it is not the root." value={directory} onChange={(e) => setDirectory(e.target.value)} />
          <RadioGroup
            legend="Start from"
            value={priority}
            onValueChange={setPriority}
            options={[
              { value: 'git', label: `The ${noun.toLowerCase()}`, hint: 'Its content replaces this space’s, then both stay in sync.' },
              { value: 'gitbook', label: 'This space', hint: 'Its content is committed to the branch, then both stay in sync.' },
            ]}
          />
          <Button type="submit" variant="primary" loading={start.isPending} disabled={!picked || !branch}>Start syncing</Button>
        </>
      ) : null}
      <ErrorNote error={start.error} />
      <AlertDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Replace this space’s content?"
        description={`Syncing from the ${noun.toLowerCase()} replaces the content of this space with ${picked?.fullName ?? 'its'}’s.`}
        confirm="Replace and sync"
        error={start.error}
        onConfirm={() => start.mutateAsync()}
      />
    </form>
  );
}

function Uninstall({ installation, onChanged }: { installation: Installation; onChanged: () => void }) {
  const remove = useMutation({ mutationFn: () => api('DELETE', `/git/installations/${installation.id}`), onSuccess: onChanged });
  return (
    <AlertDialog
      title={`Disconnect the ${PROVIDER_WORDS[installation.provider]} account?`}
      description="Its token is forgotten; the space and the repository stay as they are."
      confirm="Disconnect account"
      error={remove.error}
      onConfirm={() => remove.mutateAsync()}
      trigger={<Button variant="ghost" size="sm">Disconnect the {PROVIDER_WORDS[installation.provider]} account</Button>}
    />
  );
}
