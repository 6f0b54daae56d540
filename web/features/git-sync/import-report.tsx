/** What getSpaceGitInfo tells of an import: the layout the repository was read as, and what was not carried over. */
export interface ImportReport {
  layout: 'gitbook' | 'mkdocs' | 'docusaurus' | 'folders';
  notes: string[];
  pages: { file: string; title: string; notes: string[] }[];
}

const LAYOUT_WORDS: Record<ImportReport['layout'], string> = {
  gitbook: 'a GitBook repository (SUMMARY.md, .gitbook.yaml)',
  mkdocs: 'an MkDocs site (mkdocs.yml)',
  docusaurus: 'a Docusaurus site (its docs plugin’s sidebars)',
  folders: 'folders of markdown files',
};

/**
 * The last import's report, which the exports after it leave in place: which layout the repository was read as and, per page, each
 * construct that was converted or left out (as `quire import` prints it), so that a person knows what to check.
 */
export function ImportReportView({ report, endedAt }: { report: ImportReport; endedAt: string }) {
  const pages = report.pages.filter((page) => page.notes.length > 0);
  return (
    <section className="panel" aria-labelledby="import-report-title">
      <h2 id="import-report-title">Last import</h2>
      <p>Read as {LAYOUT_WORDS[report.layout]}, <time dateTime={endedAt}>{new Date(endedAt).toLocaleString()}</time>.</p>
      {report.notes.length > 0 ? (
        <ul aria-label="About the repository">{report.notes.map((note) => <li key={note}>{note}</li>)}</ul>
      ) : null}
      {pages.length === 0 ? (
        <p>Every page was carried over as written.</p>
      ) : (
        <details>
          <summary>Converted or not carried over exactly on {pages.length === 1 ? '1 page' : `${pages.length} pages`}</summary>
          <ul className="import-report-pages">
            {pages.map((page) => (
              <li key={page.file}>
                <strong>{page.title || page.file}</strong> <code>{page.file}</code>
                <ul>{page.notes.map((note) => <li key={note}>{note}</li>)}</ul>
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
