import { createContext, useContext, useEffect, useSyncExternalStore } from 'react';
import { safeImageUrl, safeLinkUrl } from '../../../src/features/content/document/safe-url.ts';
import type { EditorFile, EditorFiles } from './contract.ts';

/*
 * The files images and file blocks point to, from the host (PageEditorProps.files): node views render inside the
 * editor's React tree (TipTap's portals), so they read the host's directory through a context.
 */

export const FilesContext = createContext<EditorFiles | undefined>(undefined);

const unsubscribed = () => () => {};

/** A file of the space by id: undefined while it is looked up (or when the host gives no files), null when the space has none. */
export function useEditorFile(fileId: string | undefined): EditorFile | null | undefined {
  const files = useContext(FilesContext);
  const file = useSyncExternalStore(files?.subscribe ?? unsubscribed, () => (files && fileId ? files.get(fileId) : undefined));
  useEffect(() => {
    if (files && fileId && file === undefined) files.load(fileId);
  }, [files, fileId, file]);
  return file;
}

export type Ref = { kind?: string; url?: string; file?: string; page?: string; anchor?: string };

/**
 * Where an image's reference shows from, as the page view shows it: a file's download URL, a URL fit for an
 * `<img>`. `file` is null for a file the space does not have, undefined while it is looked up.
 */
export function useImageSource(ref: Ref | undefined): { src?: string; file?: EditorFile | null } {
  const file = useEditorFile(ref?.kind === 'file' ? ref.file : undefined);
  if (ref?.kind === 'url') return { src: safeImageUrl(ref.url ?? '') ?? undefined };
  if (ref?.kind !== 'file') return {};
  return file ? { src: file.downloadURL, file } : { file };
}

/** A link's address for a file or a URL reference, as the page view follows it. */
export function useLinkTarget(ref: Ref | undefined): { href?: string; file?: EditorFile | null } {
  const file = useEditorFile(ref?.kind === 'file' ? ref.file : undefined);
  if (ref?.kind === 'url') return { href: safeLinkUrl(ref.url ?? '') ?? undefined };
  if (ref?.kind !== 'file') return {};
  return file ? { href: file.downloadURL, file } : { file };
}

const UNITS = ['bytes', 'KB', 'MB', 'GB'];

/** A file's size as people read it: 980 bytes, 12 KB, 3.4 MB. */
export function formatFileSize(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${bytes} bytes` : `${value < 10 ? value.toFixed(1) : Math.round(value)} ${UNITS[unit]}`;
}
