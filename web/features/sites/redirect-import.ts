import { csvParseRows } from 'd3-dsv';

/*
 * A spreadsheet of redirects as GitBook imports one ("Upload CSV"): columns `source`, `destination` and optionally
 * `intent`, one redirect per row, 500 rows at most. The destination is a page's URL in this app, a URL elsewhere,
 * or empty (the redirect is deleted; with intent `publish`, the draft is published). A source named twice is
 * imported from its first row only. Plain functions: no DOM, no request.
 */

/** Rows imported at most (bulkUpsertSiteRedirects takes 500). */
export const MAX_ROWS = 500;

export type ImportDestination =
  | { kind: 'external'; url: string }
  | { kind: 'site-space'; siteSpaceId: string }
  | { kind: 'site-page'; siteSpaceId: string; pageId: string }
  | { kind: 'path'; spaceId: string; path: string };

/** An item of bulkUpsertSiteRedirects' body. */
export type ImportItem = { source: string; intent: 'publish' } | { source: string; intent: 'live' | 'draft'; destination: ImportDestination | null };

export interface ParsedImport {
  items: ImportItem[];
  /** The file's line of each item (the header is line 1): what an error naming `body/redirects/N` is about. */
  lines: number[];
  /** Lines left out because an earlier row named the same source. */
  duplicates: number[];
  /** What is wrong with the file, by line (0: the file as a whole); nothing is imported while there is any. */
  problems: { line: number; message: string }[];
}

export interface ImportContext {
  /** The app's base URL, like `https://docs.example.com/app`: a destination under it is a page of a space. */
  appBase: string;
  /** The site's variant (site-space) showing a space, if any. */
  siteSpaceOf: (spaceId: string) => string | undefined;
}

const INTENTS = new Set(['live', 'draft', 'publish']);

export function parseRedirectCsv(text: string, context: ImportContext): ParsedImport {
  const rows = csvParseRows(text.replace(/^\uFEFF/, ''));
  const parsed: ParsedImport = { items: [], lines: [], duplicates: [], problems: [] };
  const header = (rows[0] ?? []).map((cell) => cell.trim().toLowerCase());
  const column = { source: header.indexOf('source'), destination: header.indexOf('destination'), intent: header.indexOf('intent') };
  if (column.source < 0 || column.destination < 0) {
    parsed.problems.push({ line: 1, message: 'The first row names the columns: source, destination and, if you need it, intent.' });
    return parsed;
  }
  const seen = new Set<string>();
  rows.slice(1).forEach((row, index) => {
    const line = index + 2;
    const cell = (at: number) => (at >= 0 ? (row[at] ?? '').trim() : '');
    if (row.every((value) => value.trim() === '')) return;
    const source = cell(column.source);
    const problem = (message: string) => parsed.problems.push({ line, message });
    if (!source) return problem('source is empty: name the path to redirect, like /docs/old-page.');
    if (seen.has(source)) return parsed.duplicates.push(line);
    seen.add(source);
    const intent = cell(column.intent).toLowerCase() || 'live';
    if (!INTENTS.has(intent)) return problem(`intent “${cell(column.intent)}” is not one of live, draft or publish.`);
    const written = cell(column.destination);
    if (intent === 'publish') {
      if (written) return problem('intent publish publishes the draft redirect of the source: leave destination empty.');
      add({ source, intent: 'publish' }, line);
      return;
    }
    if (!written) {
      add({ source, intent: intent as 'live' | 'draft', destination: null }, line);
      return;
    }
    const destination = destinationOf(written, context);
    if (typeof destination === 'string') return problem(destination);
    add({ source, intent: intent as 'live' | 'draft', destination }, line);
  });
  if (parsed.items.length > MAX_ROWS) parsed.problems.push({ line: 0, message: `The file has ${parsed.items.length} redirects: import ${MAX_ROWS} at most at a time.` });
  if (parsed.items.length === 0 && parsed.problems.length === 0) parsed.problems.push({ line: 0, message: 'The file has no redirect below its header row.' });
  return parsed;

  function add(item: ImportItem, line: number) {
    parsed.items.push(item);
    parsed.lines.push(line);
  }
}

/** A written destination as the API takes it, or what is wrong with it. */
function destinationOf(written: string, context: ImportContext): ImportDestination | string {
  let url: URL;
  try {
    url = new URL(written);
  } catch {
    return `destination “${written}” is neither a page's URL in Quire nor a web address (https://…).`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `destination “${written}” is not a web address (https://…).`;
  const base = new URL(context.appBase.replace(/\/?$/, '/'));
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) return { kind: 'external', url: url.href };
  // A page of this app: /app/s/SPACE/PATH (reading) or /app/s/SPACE/~/edit/PAGE (editing).
  const parts = url.pathname.slice(base.pathname.length).split('/').filter(Boolean).map(decodeURIComponent);
  const at = parts.indexOf('s');
  const spaceId = at >= 0 ? parts[at + 1] : undefined;
  if (!spaceId) return `destination “${written}” is a Quire address but not a page's: copy the URL of the page you want.`;
  const rest = parts.slice(at + 2);
  if (rest[0] === '~') {
    const pageId = rest[1] === 'edit' ? rest[2] : undefined;
    if (!pageId) return `destination “${written}” is a Quire address but not a page's: copy the URL of the page you want.`;
    const siteSpaceId = context.siteSpaceOf(spaceId);
    if (!siteSpaceId) return `destination: space ${spaceId} is not shown by this site, so its pages cannot be redirected to.`;
    return { kind: 'site-page', siteSpaceId, pageId };
  }
  if (rest.length === 0) {
    const siteSpaceId = context.siteSpaceOf(spaceId);
    if (!siteSpaceId) return `destination: space ${spaceId} is not shown by this site, so it cannot be redirected to.`;
    return { kind: 'site-space', siteSpaceId };
  }
  return { kind: 'path', spaceId, path: rest.join('/') };
}

/** The file's line an API error is about, when it names an item (`body/redirects/N/...`). */
export function lineOfError(message: string, lines: readonly number[]): number | undefined {
  const match = /body\/redirects\/(\d+)/.exec(message);
  return match ? lines[Number(match[1])] : undefined;
}
