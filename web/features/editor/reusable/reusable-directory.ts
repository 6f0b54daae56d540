import { createContext, useContext, useEffect, useSyncExternalStore, type ComponentType } from 'react';
import type { Document } from '../../../../src/features/content/document/types.ts';
import type { EditorReusableContents, PageEditorProps } from '../contract.ts';

/*
 * What the editor knows of the space's reusable contents, read once through the host (PageEditorProps.reusableContents)
 * and shared by every block showing one: node views render inside the editor's React tree (TipTap's portals), so
 * they read it through a context, as files are (files.ts). A reusable content edited here is read again, and every
 * block showing it redraws.
 */

export type Loaded<T> = { status: 'loading' } | { status: 'ready'; value: T } | { status: 'failed'; message: string };
type Entry = { id: string; title: string; document: Document } | null;
type Pages = { id: string; title: string }[];

const LOADING = { status: 'loading' } as const;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export class ReusableDirectory {
  readonly source: EditorReusableContents;
  private readonly entries = new Map<string, Loaded<Entry>>();
  private readonly usage = new Map<string, Loaded<Pages>>();
  private readonly listeners = new Set<() => void>();

  constructor(source: EditorReusableContents) {
    this.source = source;
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  entry(id: string): Loaded<Entry> {
    return this.entries.get(id) ?? LOADING;
  }

  pagesUsing(id: string): Loaded<Pages> {
    return this.usage.get(id) ?? LOADING;
  }

  /** Reads what is not known yet (a block shown asks for its reusable content and the pages using it). */
  load(id: string): void {
    if (!this.entries.has(id)) this.fetch(this.entries, id, () => this.source.read(id));
    if (!this.usage.has(id)) this.fetch(this.usage, id, () => this.source.usedIn(id));
  }

  /** A reusable content was written (or made): what is shown of it and where it is used is read again. */
  changed(id: string): void {
    this.entries.delete(id);
    this.usage.clear();
    this.notify();
  }

  private fetch<T>(cache: Map<string, Loaded<T>>, id: string, read: () => Promise<T>): void {
    const pending: Loaded<T> = LOADING;
    cache.set(id, pending);
    read().then(
      (value) => this.settle(cache, id, pending, { status: 'ready', value }),
      (error: unknown) => this.settle(cache, id, pending, { status: 'failed', message: messageOf(error) }),
    );
  }

  // A read answered after the cache was cleared (an edit meanwhile) is dropped: the newer read stands.
  private settle<T>(cache: Map<string, Loaded<T>>, id: string, pending: Loaded<T>, loaded: Loaded<T>): void {
    if (cache.get(id) !== pending) return;
    cache.set(id, loaded);
    this.notify();
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}

/**
 * The directory, the host's props that an editor opened on a reusable content (where it lives) takes too, and that
 * editor: the page editor passes itself (importing it here would make a cycle of the editor's modules).
 */
export const ReusableContext = createContext<{ directory: ReusableDirectory; host: PageEditorProps; Editor: ComponentType<PageEditorProps> } | undefined>(undefined);

/** A reusable content and the pages using it, read when first shown, redrawn when edited. */
export function useReusable(id: string): { entry: Loaded<Entry>; pages: Loaded<Pages> } {
  const directory = useContext(ReusableContext)?.directory;
  const subscribe = directory?.subscribe ?? (() => () => {});
  const entry = useSyncExternalStore(subscribe, () => directory?.entry(id) ?? LOADING);
  const pages = useSyncExternalStore(subscribe, () => directory?.pagesUsing(id) ?? LOADING);
  useEffect(() => {
    if (entry === LOADING || pages === LOADING) directory?.load(id);
  }, [directory, id, entry, pages]);
  return { entry, pages };
}
