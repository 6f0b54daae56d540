/*
 * The API reads a screen of the web app starts with, named in its index.html as `<link rel="preload" as="fetch">`
 * so that the browser asks for them with the page, while the app's JavaScript loads and runs (some 100 ms on
 * the bench's machine before its first fetch), rather than after. Each is the exact URL the app fetches for it
 * (web/api/queries.ts; same mode and credentials: `crossorigin` is same-origin with cookies), or the browser
 * would ask twice. Who is signed in is read by every screen (web/main.tsx); a change request's screen reads its
 * space, itself and its changed pages (the loader of its route in web/routes.tsx). Pure: no I/O.
 */

/** An id or number as the API makes them; anything else in the URL gets no preload (and never reaches the HTML). */
const SEGMENT = '([A-Za-z0-9_-]{1,64})';
const CHANGE_REQUEST = new RegExp(`^/app/s/${SEGMENT}/~/changes/${SEGMENT}/?$`);

/** The API paths (with their query) the screen at `url` (path and query of /app/...) reads first. */
export function firstReads(url: string): string[] {
  const path = url.split(/[?#]/, 1)[0]!;
  const reads = ['/v1/user'];
  const changeRequest = CHANGE_REQUEST.exec(path);
  if (changeRequest) {
    const [, spaceId, number] = changeRequest;
    const base = `/v1/spaces/${spaceId}/change-requests/${number}`;
    reads.push(`/v1/spaces/${spaceId}`, base, `${base}/changes?limit=1000`);
  }
  return reads;
}

/** index.html with a preload of each read at the end of its head. */
export function withPreloads(html: string, reads: readonly string[]): string {
  const links = reads.map((href) => `<link rel="preload" as="fetch" crossorigin href="${href.replace(/&/g, '&amp;')}">`).join('');
  return html.replace('</head>', `${links}</head>`);
}
