import { useEffect, useState, useSyncExternalStore } from 'react';
import { Autosave, type SaveTransport } from './autosave.ts';
import { draftKey, readDraft } from './local-drafts.ts';
import type { SaveState } from './save-queue.ts';

/**
 * The autosave of one page, for as long as the page is open: edits saved about a second after typing stops,
 * flushed when the tab is hidden or closed (a keepalive request: it outlives the page), held while offline and
 * sent when back online; what is unsaved stays in localStorage and is sent when the page is next opened.
 */
export function useAutosave(options: { spaceId: string; target: string; pageId: string; base: string; transport: SaveTransport }): { autosave: Autosave; state: SaveState } {
  const { spaceId, target, pageId, base, transport } = options;
  const [autosave] = useState(() => {
    const key = draftKey(spaceId, target, pageId);
    return new Autosave(pageId, base, transport, { key, store: window.localStorage }, readDraft(window.localStorage, key));
  });
  const state = useSyncExternalStore(autosave.subscribe, autosave.snapshot);

  useEffect(() => {
    const hide = () => {
      if (document.visibilityState === 'hidden') void autosave.flush({ keepalive: true });
    };
    const leave = () => void autosave.flush({ keepalive: true });
    const online = () => autosave.online();
    document.addEventListener('visibilitychange', hide);
    window.addEventListener('pagehide', leave);
    window.addEventListener('online', online);
    // Edits kept from an earlier visit go now.
    if (navigator.onLine) void autosave.flush();
    return () => {
      document.removeEventListener('visibilitychange', hide);
      window.removeEventListener('pagehide', leave);
      window.removeEventListener('online', online);
      void autosave.flush({ keepalive: true });
    };
  }, [autosave]);

  return { autosave, state };
}
