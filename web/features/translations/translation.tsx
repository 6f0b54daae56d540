import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../../api/client.ts';
import { keys, translationQuery } from '../../api/queries.ts';
import { ResourceScreen } from '../../ui/resource-screen.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { ErrorNote } from '../../ui/states.tsx';
import { parseLanguages } from './languages.ts';
import { Button } from '../../ui/button.tsx';
import { AlertDialog } from '../../ui/dialogs.tsx';

type Translation = { status: string; lastError?: string; lastRunAt?: string; permissions?: { edit: boolean } };

/** One translation: its languages and spaces, the state of its runs, "Run now" (runTranslation), its title and languages edited (updateTranslation), and delete. */
export default function TranslationScreen() {
  const { orgId = '', translationId = '' } = useParams();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const query = useQuery({ ...translationQuery(orgId, translationId), refetchInterval: (q) => (q.state.data?.status === 'running' || q.state.data?.status === 'pending' ? 2000 : false) });
  const run = useMutation({
    mutationFn: () => api('POST', `/orgs/${orgId}/translations/${translationId}/run`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.translation(orgId, translationId) }),
  });
  const remove = useMutation({
    mutationFn: () => api('DELETE', `/orgs/${orgId}/translations/${translationId}`),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: [...keys.organization(orgId), 'translations'] });
      await navigate(`/o/${orgId}/translations`);
    },
  });
  return (
    <ResourceScreen
      query={query}
      what="translation"
      title={(t) => t.title}
      facts={(t) => {
        const extra = t as unknown as Translation;
        return [
          ['Status', <span role="status">{t.status}</span>],
          ['Last run', extra.lastRunAt ? new Date(extra.lastRunAt).toLocaleString() : '—'],
          ...(extra.lastError ? [['Last error', extra.lastError] as [string, string]] : []),
          ['Languages', t.languages.join(', ') || '—'],
          ['Source space', t.source ? <Link to={`/o/${orgId}/s/${t.source.space}`}>{t.source.language}</Link> : '—'],
          ['Translated spaces', t.targets.length === 0 ? '—' : <>{t.targets.map((target) => <Link key={target.space} className="fact-link" to={`/o/${orgId}/s/${target.space}`}>{target.language}</Link>)}</>],
        ];
      }}
    >
      {(t) =>
        (t as unknown as Translation).permissions?.edit === false ? null : (
          <>
            <div className="panel">
              <Button variant="primary" disabled={run.isPending || t.status === 'running'} onClick={() => run.mutate()}>Run now</Button>{' '}
              <AlertDialog
                title={`Delete the translation ${t.title}?`}
                description="Its translated spaces stay; they are no longer kept up to date."
                confirm="Delete translation"
                onConfirm={() => remove.mutateAsync()}
                error={remove.error}
                trigger={<Button variant="danger">Delete</Button>}
              />
              <ErrorNote error={run.error ?? remove.error} />
            </div>
            <TranslationSettingsForm orgId={orgId} translationId={translationId} title={t.title} languages={t.languages} />
          </>
        )
      }
    </ResourceScreen>
  );
}

/**
 * The title and target languages (updateTranslation: the source is left as it is). A change of languages queues a
 * run on the server, so the new languages' spaces follow.
 */
function TranslationSettingsForm({ orgId, translationId, title, languages }: { orgId: string; translationId: string; title: string; languages: string[] }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState({ title, languages: languages.join(', ') });
  const save = useMutation({
    mutationFn: () => api('PUT', `/orgs/${orgId}/translations/${translationId}`, { body: { title: form.title.trim(), languages: parseLanguages(form.languages) } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.translation(orgId, translationId) }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form className="panel" onSubmit={submit} aria-label="Translation settings">
      <TextField label="Translation title" required maxLength={100} value={form.title} onChange={(e) => setForm((f) => ({ ...f, title: e.target.value }))} />
      <TextField label="Target languages" hint="Language codes, separated by commas; each gets a space of its own." value={form.languages} onChange={(e) => setForm((f) => ({ ...f, languages: e.target.value }))} />
      <Button type="submit" loading={save.isPending}>Save settings</Button>
      {save.isSuccess && !save.isPending ? <span role="status"> Saved.</span> : null}
      <ErrorNote error={save.error} />
    </form>
  );
}
