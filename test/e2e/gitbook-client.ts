import assert from 'node:assert/strict';
import * as gitbook from '@gitbook/api';
import * as gitbookLatest from '@gitbook/api-latest';
import type * as Generated from '../../node_modules/@gitbook/api/dist/client.d.ts';
import type * as LatestGenerated from '../../node_modules/@gitbook/api-latest/dist/client.d.ts';
import type { GitBookAPIError as GitBookAPIErrorClass } from '../../node_modules/@gitbook/api/dist/GitBookAPIError.d.ts';

/**
 * The official client, typed. @gitbook/api's index.d.ts imports './client' and './GitBookAPIError' without
 * an extension, which NodeNext resolution cannot follow: GitBookAPI would type-check with none of its
 * methods and the enums would not exist. The runtime is the package's own; only the types come by path.
 */
export type OfficialClient = gitbook.GitBookAPI & Generated.Api<{ authToken?: string }>;

export function officialClient(options: { endpoint: string; authToken?: string; serviceBinding?: { fetch: typeof fetch } }): OfficialClient {
  return new gitbook.GitBookAPI(options) as OfficialClient;
}

/**
 * The newest official client (0.202.0, as `@gitbook/api-latest`): the operations the pinned one does not have
 * yet are called through it, with the shapes of that version.
 */
export type LatestClient = gitbookLatest.GitBookAPI & LatestGenerated.Api<{ authToken?: string }>;
export type Latest = typeof LatestGenerated;

export function latestClient(options: { endpoint: string; authToken?: string; serviceBinding?: { fetch: typeof fetch } }): LatestClient {
  return new gitbookLatest.GitBookAPI(options) as LatestClient;
}

export const GitBookAPIError = gitbook.GitBookAPIError as unknown as typeof GitBookAPIErrorClass;
const LatestAPIError = gitbookLatest.GitBookAPIError as unknown as typeof GitBookAPIErrorClass;
export const { ContentVisibility, MemberRole, SpaceEditMode, TranslationLanguage } = gitbook as unknown as typeof Generated;

/**
 * The end-to-end `assertError`: a call the server refused with `status`. The client throws GitBookAPIError;
 * the body was already checked against the spec's error shape on its way (specCheckedFetch).
 */
export async function rejectsWith(call: Promise<unknown>, status: number): Promise<void> {
  await assert.rejects(call, (error: unknown) => {
    if (!(error instanceof GitBookAPIError) && !(error instanceof LatestAPIError)) throw error;
    assert.equal(error.code, status, `expected ${status}, got ${error.code}: ${error.errorMessage}`);
    return true;
  });
}

/** Like rejectsWith, and the error's message holds `text` (the field a 400 names). */
export async function rejectsNaming(call: Promise<unknown>, status: number, text: string): Promise<void> {
  await assert.rejects(call, (error: unknown) => {
    if (!(error instanceof GitBookAPIError) && !(error instanceof LatestAPIError)) throw error;
    assert.equal(error.code, status, `expected ${status}, got ${error.code}: ${error.errorMessage}`);
    assert.ok(error.errorMessage.includes(text), `expected the message to name ${text}: ${error.errorMessage}`);
    return true;
  });
}
