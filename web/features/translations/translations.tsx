import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { allPages, api } from '../../api/client.ts';
import { keys, spacesQuery } from '../../api/queries.ts';
import type { TranslationSettings } from '../../api/types.ts';
import { EmptyState, ErrorNote, Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';
import { parseLanguages } from './languages.ts';
import { Button } from '../../ui/button.tsx';
import { Select } from '../../ui/select.tsx';
import { TextField } from '../../ui/text-field.tsx';

// "Choose later" in the listbox, which holds no empty value; the form keeps '' for it.
const LATER = 'later';
const translationsKey = (orgId: string) => [...keys.organization(orgId), 'translations'] as const;

/** An organization's translations (listTranslations) and a form to create one (createTranslation: a run is queued). */
export default function TranslationsScreen() {
  const { orgId = '' } = useParams();
  const translations = useQuery({
    queryKey: translationsKey(orgId),
    queryFn: ({ signal }) => allPages<TranslationSettings>(`/orgs/${orgId}/translations`, {}, signal),
    refetchInterval: (query) => (query.state.data?.some((t) => t.status === 'running') ? 2000 : false),
  });
  useTitle('Translations');
  return (
    <main id="main" className="app-main">
      <h1>Translations</h1>
      <CreateTranslation orgId={orgId} />
      {translations.isPending ? <Skeleton lines={3} label="Loading translations" /> : null}
      <ErrorNote error={translations.error} />
      {translations.data ? (
        translations.data.length === 0 ? (
          <EmptyState title="No translation yet">
            <p>A translation keeps a space in other languages, a space for each. Set up the first one in “New translation”.</p>
          </EmptyState>
        ) : (
          <table className="events-table">
            <caption className="sr-only">Translations</caption>
            <thead><tr><th scope="col">Translation</th><th scope="col">Languages</th><th scope="col">Status</th></tr></thead>
            <tbody>
              {translations.data.map((t) => (
                <tr key={t.id}>
                  <td><Link to={`/o/${orgId}/translations/${t.id}`}>{t.title}</Link></td>
                  <td>{t.languages.join(', ') || '—'}</td>
                  <td>{t.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      ) : null}
    </main>
  );
}

function CreateTranslation({ orgId }: { orgId: string }) {
  const id = useId();
  const queryClient = useQueryClient();
  const spaces = useQuery(spacesQuery(orgId));
  const [title, setTitle] = useState('');
  const [space, setSpace] = useState('');
  const [sourceLanguage, setSourceLanguage] = useState('en');
  const [languages, setLanguages] = useState('');
  const create = useMutation({
    mutationFn: () =>
      api('POST', `/orgs/${orgId}/translations`, {
        body: { title: title.trim(), languages: parseLanguages(languages), ...(space ? { source: { space, language: sourceLanguage.trim().toLowerCase() } } : {}) },
      }),
    onSuccess: () => {
      setTitle('');
      setLanguages('');
      return queryClient.invalidateQueries({ queryKey: translationsKey(orgId) });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <form className="panel" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>New translation</h2>
      <TextField label="Title" value={title} onChange={(e) => setTitle(e.target.value)} required maxLength={100} />
      <Select label="Source space" value={space || LATER} onValueChange={(value) => setSpace(value === LATER ? '' : value)} options={[{ value: LATER, label: 'Choose later' }, ...(spaces.data ?? []).map((s) => ({ value: s.id, label: s.title }))]} />
      <TextField label="Source language" value={sourceLanguage} onChange={(e) => setSourceLanguage(e.target.value)} />
      <TextField
        label="Languages"
        hint="Language codes, separated by commas; each gets a space of its own."
        value={languages}
        onChange={(e) => setLanguages(e.target.value)}
        placeholder="fr, de, ja"
      />
      <Button variant="primary" type="submit" disabled={create.isPending}>Create translation</Button>
      <ErrorNote error={create.error} />
    </form>
  );
}
