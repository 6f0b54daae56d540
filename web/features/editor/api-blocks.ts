import { createContext, useContext, useEffect, useState } from 'react';
import type { ApiReference } from '../../../src/features/openapi-specs/reference.ts';
import type { EditorApiBlocks, InstalledBlocks } from './contract.ts';
import { sourceKey, type SpecSource } from './nodes/openapi-operations.ts';

/*
 * The host's answers for OpenAPI and integration blocks (contract.ts `apiBlocks`), given to node views and pickers
 * through React's context as the files are (files.ts). A spec's reference is asked once per editor and shared by
 * every block of that spec.
 */

export const ApiBlocksContext = createContext<EditorApiBlocks | undefined>(undefined);

export const useApiBlocks = () => useContext(ApiBlocksContext);

const references = new WeakMap<EditorApiBlocks, Map<string, Promise<ApiReference>>>();

/** The reference of a spec, asked once per host (a failed answer is asked again next time). */
export function referenceOf(host: EditorApiBlocks, slug: string): Promise<ApiReference> {
  return referenceAt(host, { spec: slug });
}

/**
 * The reference of a block's spec, by slug or by the address it is fetched from, asked once per host under the
 * reader's key. A spec file of the space is not read: the reader does not draw one either.
 */
/** No spec of the organization is fetched from a block's address: one can be added (contract.ts `addUrlSpec`). */
export class NoSpecAtAddress extends Error {}

export function referenceAt(host: EditorApiBlocks, source: SpecSource): Promise<ApiReference> {
  const key = sourceKey(source);
  if (key === null) return Promise.reject(new Error('a spec file of the space is not read as an API reference: point the block at an address or at a spec of the organization'));
  let known = references.get(host);
  if (!known) references.set(host, (known = new Map()));
  let found = known.get(key);
  if (!found) {
    found =
      'url' in source
        ? host.urlSpecReference(source.url).then((reference) => {
            if (reference) return reference;
            throw new NoSpecAtAddress(`no API specification of the organization is fetched from ${source.url}`);
          })
        : host.specReference((source as { spec: string }).spec);
    known.set(key, found);
    found.catch(() => known.delete(key));
  }
  return found;
}

const installed = new WeakMap<EditorApiBlocks, Promise<InstalledBlocks[]>>();

/** The integrations installed on the space that declare blocks, asked once per host (again after a failure). */
export function installedBlocksOf(host: EditorApiBlocks): Promise<InstalledBlocks[]> {
  let found = installed.get(host);
  if (!found) {
    found = host.integrationBlocks();
    installed.set(host, found);
    found.catch(() => installed.delete(host));
  }
  return found;
}

export type Loaded<T> = { state: 'loading' } | { state: 'ready'; value: T } | { state: 'failed'; reason: string; error: unknown };

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** What a promise made from the host gives, drawn again as it settles; `make` runs again when `key` changes. */
export function useLoaded<T>(key: string | null, make: (host: EditorApiBlocks) => Promise<T>): Loaded<T> | null {
  const host = useApiBlocks();
  const [loaded, setLoaded] = useState<{ key: string; value: Loaded<T> } | null>(null);
  useEffect(() => {
    if (!host || key === null) return;
    let current = true;
    setLoaded({ key, value: { state: 'loading' } });
    make(host).then(
      (value) => current && setLoaded({ key, value: { state: 'ready', value } }),
      (error: unknown) => current && setLoaded({ key, value: { state: 'failed', reason: reasonOf(error), error } }),
    );
    return () => {
      current = false;
    };
    // `make` is a new function on each render; what it asks for is named by `key`.
  }, [host, key]);
  if (!host || key === null) return null;
  return loaded?.key === key ? loaded.value : { state: 'loading' };
}
