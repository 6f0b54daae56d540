import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
// 0.202.0's structure: external links among the sections.
import type { SiteStructure } from '@gitbook/api-latest';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/button.tsx';
import { lineOfError, MAX_ROWS, parseRedirectCsv, type ParsedImport } from './redirect-import.ts';
import { siteSpacesOf } from './structure-order.ts';
import { useSiteChange } from './use-site-change.ts';

interface BulkResults {
  results: { status: 'created' | 'updated' | 'published' | 'deleted' }[];
}

/** "3 created, 1 deleted": the counts of an import's results, in a fixed order. */
function summary(results: BulkResults['results']): string {
  const counts = (['created', 'updated', 'deleted', 'published'] as const).map((status) => [status, results.filter((r) => r.status === status).length] as const);
  return counts.filter(([, n]) => n > 0).map(([status, n]) => `${n} ${status}`).join(', ');
}

const lineList = (lines: readonly number[]) => (lines.length === 1 ? `Line ${lines[0]} names` : `Lines ${lines.join(', ')} name`);

/**
 * Redirects imported from a spreadsheet (GitBook's "Upload CSV"), through bulkUpsertSiteRedirects: the file is
 * read here first, so that what is wrong with it is said by line before anything is sent; then every redirect of
 * it is written, or none (the API's error names the item, which is the file's line here).
 */
export function RedirectImportForm({ orgId, siteId, structure }: { orgId: string; siteId: string; structure: SiteStructure }) {
  const id = useId();
  const change = useSiteChange<BulkResults>(orgId, siteId);
  const [file, setFile] = useState<{ name: string; parsed: ParsedImport }>();
  const [unreadable, setUnreadable] = useState<string>();
  const siteSpaces = siteSpacesOf(structure);
  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    change.reset();
    setUnreadable(undefined);
    const chosen = event.target.files?.[0];
    if (!chosen) return setFile(undefined);
    try {
      const parsed = parseRedirectCsv(await chosen.text(), {
        appBase: `${window.location.origin}/app`,
        siteSpaceOf: (spaceId) => siteSpaces.find((v) => v.siteSpace.space.id === spaceId)?.siteSpace.id,
      });
      setFile({ name: chosen.name, parsed });
    } catch (error) {
      setFile(undefined);
      setUnreadable(`${chosen.name} could not be read: ${errorMessage(error)}`);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (file && file.parsed.problems.length === 0) change.mutate({ method: 'PUT', path: '/redirects', body: { redirects: file.parsed.items } });
  };
  const parsed = file?.parsed;
  const ready = parsed !== undefined && parsed.problems.length === 0;
  const failedLine = change.error && parsed ? lineOfError(errorMessage(change.error), parsed.lines) : undefined;
  return (
    <form className="panel" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Import from a CSV</h3>
      <p className="muted">
        Columns <code>source</code>, <code>destination</code> — a page's URL in Quire, a web address, or empty to delete the redirect — and, if you need
        it, <code>intent</code>: live (the default), draft, or publish (a draft, with destination empty). {MAX_ROWS} rows at most; every row is
        imported, or none.
      </p>
      <div className="ui-field">
        <label htmlFor={`${id}-file`} className="ui-field-label">CSV file</label>
        <input id={`${id}-file`} className="ui-input" type="file" accept=".csv,text/csv" onChange={(e) => void choose(e)} />
      </div>
      {unreadable ? <p role="alert" className="error-note">{unreadable}</p> : null}
      {file && file.parsed.problems.length > 0 ? (
        <div role="alert" className="error-note">
          <p>Nothing is imported until {file.name} is fixed:</p>
          <ul>
            {file.parsed.problems.map((problem) => (
              <li key={`${problem.line} ${problem.message}`}>{problem.line > 0 ? `Line ${problem.line}: ` : ''}{problem.message}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {ready && file ? (
        <p>
          {parsed.items.length === 1 ? 'One redirect' : `${parsed.items.length} redirects`} to import from {file.name}.
          {parsed.duplicates.length > 0 ? ` ${lineList(parsed.duplicates)} a source again and ${parsed.duplicates.length === 1 ? 'is' : 'are'} left out.` : ''}
        </p>
      ) : null}
      <Button type="submit" variant="primary" loading={change.isPending} disabled={!ready}>
        {ready ? `Import ${parsed.items.length === 1 ? 'one redirect' : `${parsed.items.length} redirects`}` : 'Import redirects'}
      </Button>
      {change.error ? (
        <p role="alert" className="error-note">
          {failedLine ? `Line ${failedLine}: ` : ''}
          {errorMessage(change.error)} Nothing was imported.
        </p>
      ) : null}
      {change.data ? <p role="status">Imported from {file?.name}: {summary(change.data.results)}.</p> : null}
    </form>
  );
}
