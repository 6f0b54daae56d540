/*
 * The one way the app talks to the server: the public API under /v1, as any script could call it. The browser's
 * session cookie (HttpOnly) goes along by itself; a request that changes something also carries the session's
 * CSRF token, read from the `quire_csrf` cookie (the double-submit check of src/features/sessions/).
 */

/** A failed call: the API's own message (`{ error: { code, message } }`) and its status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The whole answer, for the errors that say more than their message (a save's 409 lists its conflicts). */
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const SAFE = new Set(['GET', 'HEAD']);

export function csrfToken(): string {
  const match = /(?:^|;\s*)quire_csrf=([^;]*)/.exec(document.cookie);
  return match ? decodeURIComponent(match[1]!) : '';
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  signal?: AbortSignal;
  /** Sent even if the page is closing (an editor's last save when the tab is hidden or closed). */
  keepalive?: boolean;
}

/** `/v1` + path, with the query's defined values. */
export function apiPath(path: string, query?: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined && value !== '') params.set(name, String(value));
  const search = params.toString();
  return `/v1${path}${search ? `?${search}` : ''}`;
}

export async function api<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (!SAFE.has(method)) headers['x-csrf-token'] = csrfToken();
  let response: Response;
  try {
    response = await fetch(apiPath(path, options.query), {
      method,
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
      ...(options.keepalive ? { keepalive: true } : {}),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'The server could not be reached; check the connection and try again');
  }
  if (response.status === 204 || response.status === 205) return undefined as T;
  const text = await response.text();
  const body: unknown = text ? parseJson(text) : undefined;
  if (!response.ok) throw new ApiError(response.status, messageOf(body) ?? `The server answered ${response.status} ${response.statusText}`, body);
  return body as T;
}

/**
 * A streamed answer of the API (server-sent events, as the official client's streamRequest reads them): each
 * event's JSON value in turn, until `event: done`. A refusal before the stream is the API's error; a failure after
 * it began is its `event: error`, thrown as an ApiError with the message the server gave.
 */
export async function* apiStream<T>(path: string, options: Pick<RequestOptions, 'query' | 'signal'> = {}): AsyncGenerator<T> {
  let response: Response;
  try {
    response = await fetch(apiPath(path, options.query), { headers: { accept: 'text/event-stream' }, credentials: 'same-origin', signal: options.signal });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'The server could not be reached; check the connection and try again');
  }
  if (!response.ok || !response.body) {
    const text = await response.text();
    const body: unknown = text ? parseJson(text) : undefined;
    throw new ApiError(response.status, messageOf(body) ?? `The server answered ${response.status} ${response.statusText}`, body);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const name = /^event: ?(.*)$/m.exec(block)?.[1];
      const data = [...block.matchAll(/^data: ?(.*)$/gm)].map((m) => m[1]).join('\n');
      if (name === 'done') return;
      const parsed = parseJson(data);
      if (name === 'error') {
        const error = (parsed as { error?: { code?: number } } | undefined)?.error;
        throw new ApiError(typeof error?.code === 'number' ? error.code : 500, messageOf(parsed) ?? 'The answer failed', parsed);
      }
      yield parsed as T;
    }
    if (done) return;
  }
}

/**
 * Sends a file's bytes as a request's body (uploadSpaceFile), reporting how much of it has gone. XMLHttpRequest,
 * not fetch: a fetch cannot tell how far its upload is, and a streamed fetch body needs HTTP/2.
 */
export function uploadBytes<T>(path: string, file: Blob, options: { query?: RequestOptions['query']; signal?: AbortSignal; onProgress?: (sent: number, total: number) => void } = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', apiPath(path, options.query));
    request.setRequestHeader('accept', 'application/json');
    request.setRequestHeader('x-csrf-token', csrfToken());
    // The browser's guess from the name, or nothing: the server decides from the bytes either way.
    if (file.type) request.setRequestHeader('content-type', file.type);
    request.upload.addEventListener('progress', (event) => options.onProgress?.(event.loaded, event.lengthComputable ? event.total : file.size));
    request.addEventListener('load', () => {
      const body = request.responseText ? parseJson(request.responseText) : undefined;
      if (request.status >= 200 && request.status < 300) resolve(body as T);
      else reject(new ApiError(request.status, messageOf(body) ?? `The server answered ${request.status} ${request.statusText}`, body));
    });
    request.addEventListener('error', () => reject(new ApiError(0, 'The server could not be reached; check the connection and try again')));
    request.addEventListener('abort', () => reject(new DOMException('The upload was cancelled', 'AbortError')));
    options.signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(file);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function messageOf(body: unknown): string | undefined {
  const error = (body as { error?: { message?: unknown } } | undefined)?.error;
  return typeof error?.message === 'string' ? error.message : undefined;
}

/** What to show a person for any failure: the API's message, or what went wrong otherwise. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return 'Something went wrong';
}

export const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;
export const isUnauthorized = (error: unknown) => error instanceof ApiError && error.status === 401;

/** A list answer of the API: one page of items and the cursor of the next. */
export interface ListPage<T> {
  items: T[];
  next?: { page: string };
  count?: number;
}

/** Every item of a list, page after page (lists of an organization's collections or spaces are short). */
export async function allPages<T>(path: string, query: RequestOptions['query'] = {}, signal?: AbortSignal): Promise<T[]> {
  const items: T[] = [];
  let page: string | undefined;
  do {
    const answer: ListPage<T> = await api<ListPage<T>>('GET', path, { query: { ...query, limit: 1000, page }, signal });
    items.push(...answer.items);
    page = answer.next?.page;
  } while (page);
  return items;
}
