import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, isNotFound } from '../../api/client.ts';
import { keys, openApiSpecQuery } from '../../api/queries.ts';
import type { OpenAPISpec } from '../../api/types.ts';
import { External } from '../../ui/resource-screen.tsx';
import { ErrorNote, NotFound, Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';
import { processingWords } from './processing.ts';
import { SpecSourceFields } from './spec-source-fields.tsx';
import { sourceOf, specVersionsQuery } from './openapi-api.ts';
import { Button } from '../../ui/button.tsx';
import { AlertDialog } from '../../ui/dialogs.tsx';

type Spec = OpenAPISpec & { lastProcessedErrors?: { message: string; code?: string }[]; lastProcessErrorCode?: string; lastProcessedErrorCount?: number };

/**
 * One OpenAPI specification: its processing and the problems found, its versions, public or private
 * (updateOpenAPISpecBySlug), a new source (createOrUpdateOpenAPISpecBySlug: a new version), and delete.
 */
export default function OpenApiSpecScreen() {
  const { orgId = '', specSlug = '' } = useParams();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const spec = useQuery({
    ...openApiSpecQuery(orgId, specSlug),
    refetchInterval: (query) => (query.state.data && query.state.data.processingState !== 'complete' ? 2000 : false),
  });
  const versions = useQuery(specVersionsQuery(orgId, specSlug));
  useTitle(spec.data ? `${spec.data.slug} · OpenAPI` : 'OpenAPI specification');
  const refresh = () => queryClient.invalidateQueries({ queryKey: keys.openApiSpec(orgId, specSlug) });
  const visibility = useMutation({
    mutationFn: (value: 'public' | 'private') => api('PATCH', `/orgs/${orgId}/openapi/${specSlug}`, { body: { visibility: value } }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: () => api('DELETE', `/orgs/${orgId}/openapi/${specSlug}`),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: [...keys.organization(orgId), 'openapi'] });
      await navigate(`/o/${orgId}/openapi`);
    },
  });
  if (isNotFound(spec.error)) return <main id="main" className="app-main"><NotFound what="OpenAPI specification" /></main>;
  const data = spec.data as Spec | undefined;
  return (
    <main id="main" className="app-main">
      <p className="kind"><Link to={`/o/${orgId}/openapi`}>OpenAPI specifications</Link></p>
      {spec.isPending ? <Skeleton lines={4} label="Loading the specification" /> : null}
      <ErrorNote error={spec.error} />
      {data ? (
        <>
          <h1>{data.slug}</h1>
          <dl className="facts">
            <div><dt>Processing</dt><dd><span role="status">{processingWords(data)}</span></dd></div>
            <div><dt>Source</dt><dd>{data.sourceURL ? <External href={data.sourceURL} /> : 'Uploaded text'}</dd></div>
            <div><dt>Last processed</dt><dd>{data.lastProcessedAt ? new Date(data.lastProcessedAt).toLocaleString() : '—'}</dd></div>
            <div><dt>Published</dt><dd>{data.urls.published ? <External href={data.urls.published} /> : 'Not public'}</dd></div>
          </dl>
          {data.lastProcessedErrors && data.lastProcessedErrors.length > 0 ? (
            <section className="panel" aria-labelledby="spec-errors">
              <h2 id="spec-errors">Problems found</h2>
              <ul>{data.lastProcessedErrors.map((error, index) => <li key={index}>{error.code ? <code>{error.code}</code> : null} {error.message}</li>)}</ul>
            </section>
          ) : null}
          {data.permissions.edit ? (
            <section className="panel" aria-labelledby="spec-visibility">
              <h2 id="spec-visibility">Visibility</h2>
              <p>{data.visibility === 'public' ? 'Anyone can download the latest document at its published URL.' : 'Only members of the organization can read it.'}</p>
              <Button disabled={visibility.isPending} onClick={() => visibility.mutate(data.visibility === 'public' ? 'private' : 'public')}>
                {data.visibility === 'public' ? 'Make private' : 'Make public'}
              </Button>
              <ErrorNote error={visibility.error} />
            </section>
          ) : null}
          <section className="panel" aria-labelledby="spec-versions">
            <h2 id="spec-versions">Versions</h2>
            <ErrorNote error={versions.error} />
            {versions.data ? (
              versions.data.length === 0 ? <p className="muted">No version yet: one is made when a document is processed without failing.</p> : (
                <ol reversed>{[...versions.data].map((version) => <li key={version.id}><a href={version.url}>{new Date(version.createdAt).toLocaleString()}</a></li>)}</ol>
              )
            ) : null}
          </section>
          {data.permissions.edit ? <NewSource orgId={orgId} slug={specSlug} onDone={refresh} /> : null}
          {data.permissions.edit ? (
            <section className="panel" aria-labelledby="spec-delete">
              <h2 id="spec-delete">Delete</h2>
              <AlertDialog
                title={`Delete the specification ${data.slug}?`}
                description="Its versions go with it, and pages that show it show nothing in its place."
                confirm="Delete specification"
                onConfirm={() => remove.mutateAsync()}
                error={remove.error}
                trigger={<Button variant="danger">Delete {data.slug}</Button>}
              />
              <ErrorNote error={remove.error} />
            </section>
          ) : null}
        </>
      ) : null}
    </main>
  );
}

function NewSource({ orgId, slug, onDone }: { orgId: string; slug: string; onDone: () => Promise<unknown> }) {
  const [kind, setKind] = useState<'url' | 'text'>('url');
  const [url, setUrl] = useState('');
  const [text, setText] = useState('');
  const update = useMutation({
    mutationFn: () => api('PUT', `/orgs/${orgId}/openapi/${slug}`, { body: { source: sourceOf(kind, url, text) } }),
    onSuccess: () => onDone(),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate();
  };
  return (
    <form className="panel" onSubmit={submit} aria-labelledby="spec-source">
      <h2 id="spec-source">New version</h2>
      <SpecSourceFields kind={kind} setKind={setKind} url={url} setUrl={setUrl} text={text} setText={setText} />
      <Button type="submit" disabled={update.isPending}>Process this source</Button>
      <ErrorNote error={update.error} />
    </form>
  );
}
