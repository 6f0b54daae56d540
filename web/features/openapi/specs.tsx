import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../../api/client.ts';
import { keys } from '../../api/queries.ts';
import type { OpenAPISpec } from '../../api/types.ts';
import { EmptyState, ErrorNote, Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';
import { processingWords } from './processing.ts';
import { SpecSourceFields } from './spec-source-fields.tsx';
import { sourceOf, specsQuery } from './openapi-api.ts';
import { Button } from '../../ui/button.tsx';
import { TextField } from '../../ui/text-field.tsx';

/** An organization's OpenAPI specifications (listOpenAPISpecs) and a form to add one (createOpenAPISpec). */
export default function OpenApiSpecsScreen() {
  const { orgId = '' } = useParams();
  const specs = useQuery(specsQuery(orgId));
  useTitle('OpenAPI specifications');
  return (
    <main id="main" className="app-main">
      <h1>OpenAPI specifications</h1>
      <AddSpec orgId={orgId} />
      {specs.isPending ? <Skeleton lines={3} label="Loading specifications" /> : null}
      <ErrorNote error={specs.error} />
      {specs.data ? (
        specs.data.length === 0 ? (
          <EmptyState title="No specification yet">
            <p>An OpenAPI specification becomes an API reference that pages can show. Add the first one, from its URL or its text, in “Add a specification”.</p>
          </EmptyState>
        ) : (
          <table className="events-table">
            <caption className="sr-only">OpenAPI specifications</caption>
            <thead><tr><th scope="col">Specification</th><th scope="col">Processing</th><th scope="col">Visibility</th></tr></thead>
            <tbody>
              {specs.data.map((spec) => (
                <tr key={spec.id}>
                  <td><Link to={`/o/${orgId}/openapi/${spec.slug}`}>{spec.slug}</Link></td>
                  <td>{processingWords(spec)}</td>
                  <td>{spec.visibility === 'public' ? 'Public' : 'Private'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      ) : null}
    </main>
  );
}

function AddSpec({ orgId }: { orgId: string }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [slug, setSlug] = useState('');
  const [kind, setKind] = useState<'url' | 'text'>('url');
  const [url, setUrl] = useState('');
  const [text, setText] = useState('');
  const create = useMutation({
    mutationFn: () => api<OpenAPISpec>('POST', `/orgs/${orgId}/openapi`, { body: { slug: slug.trim(), source: sourceOf(kind, url, text) } }),
    onSuccess: () => {
      setSlug('');
      setUrl('');
      setText('');
      return queryClient.invalidateQueries({ queryKey: [...keys.organization(orgId), 'openapi'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <form className="panel" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Add a specification</h2>
      <TextField label="Name" hint="Lowercase letters and digits, words joined by dashes." value={slug} onChange={(e) => setSlug(e.target.value)} placeholder="payments-api" required />
      <SpecSourceFields kind={kind} setKind={setKind} url={url} setUrl={setUrl} text={text} setText={setText} />
      <Button variant="primary" type="submit" disabled={create.isPending}>Add specification</Button>
      <ErrorNote error={create.error} />
    </form>
  );
}
