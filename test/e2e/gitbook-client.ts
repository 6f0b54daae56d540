import assert from 'node:assert/strict';
import * as gitbook from '@gitbook/api';
import type * as Generated from '../../node_modules/@gitbook/api/dist/client.d.ts';
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

export const GitBookAPIError = gitbook.GitBookAPIError as unknown as typeof GitBookAPIErrorClass;
export const { ContentVisibility, MemberRole, SpaceEditMode, TranslationLanguage } = gitbook as unknown as typeof Generated;

/**
 * The end-to-end `assertError`: a call the server refused with `status`. The client throws GitBookAPIError;
 * the body was already checked against the spec's error shape on its way (specCheckedFetch).
 */
export async function rejectsWith(call: Promise<unknown>, status: number): Promise<void> {
  await assert.rejects(call, (error: unknown) => {
    if (!(error instanceof GitBookAPIError)) throw error;
    assert.equal(error.code, status, `expected ${status}, got ${error.code}: ${error.errorMessage}`);
    return true;
  });
}
