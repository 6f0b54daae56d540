import type { AppContext } from '../../platform/context.ts';
import { ApiError } from '../../platform/errors.ts';
import { isoNow } from '../../platform/clock.ts';
import { safeFetch, type FetchSettings } from '../../platform/safe-fetch.ts';
import { saveLinkCheck, urlsDueForCheck } from './store.ts';

/** A URL is checked again a day after its last check. */
export const RECHECK_AFTER_MS = 24 * 60 * 60_000;
/** URLs checked per run of the worker. */
const BATCH = 20;

export interface LinkCheck {
  status: 'ok' | 'broken';
  http_status: number | null;
  error: string | null;
}

/**
 * One run of the external link check (a sweep of the job worker, every WORKER_INTERVAL_MS): the URLs of stored
 * documents never checked or checked more than a day ago. At most one URL per host per run, so a host sees at
 * most one request per worker interval from us, however many of its pages the documentation links to.
 */
export async function checkExternalLinks(ctx: AppContext): Promise<number> {
  const cutoff = new Date(ctx.clock.now().getTime() - RECHECK_AFTER_MS).toISOString();
  const due = await urlsDueForCheck(ctx.db, cutoff, BATCH * 10);
  const hosts = new Set<string>();
  const picked: string[] = [];
  for (const url of due) {
    const host = hostOf(url);
    if (hosts.has(host)) continue;
    hosts.add(host);
    picked.push(url);
    if (picked.length >= BATCH) break;
  }
  for (const url of picked) {
    const result = await checkUrl(ctx.config, url);
    await saveLinkCheck(ctx.db, { url, ...result, checked_at: isoNow(ctx.clock) });
  }
  return picked.length;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return url;
  }
}

/** HEAD first; a server that does not do HEAD (405, 501) is asked with GET, reading only the status. */
export async function checkUrl(settings: FetchSettings, url: string): Promise<LinkCheck> {
  try {
    let response = await safeFetch(settings, url, { maxBytes: 0, statusOnly: 'HEAD' });
    if (response.status === 405 || response.status === 501) response = await safeFetch(settings, url, { maxBytes: 0, statusOnly: 'GET' });
    // 401/403: the page exists behind a login; the link itself is fine.
    const ok = (response.status >= 200 && response.status < 400) || response.status === 401 || response.status === 403 || response.status === 429;
    return { status: ok ? 'ok' : 'broken', http_status: response.status, error: ok ? null : `HTTP ${response.status}` };
  } catch (error) {
    // Refused (not public), unreachable, too many redirects, timed out: the reader cannot follow it either.
    return { status: 'broken', http_status: null, error: error instanceof ApiError ? error.message : String(error) };
  }
}
