import { useEffect, useState, useSyncExternalStore } from 'react';
import { Autosave, type SaveTransport } from './autosave.ts';
import { lockPresence } from './editor-presence.ts';
import { draftKey, parseDraft, readDraft } from './local-drafts.ts';
import type { SaveState } from './save-queue.ts';

/**
 * The autosave of one page, for as long as the page is open: edits saved about a second after typing stops,
 * flushed when the tab is hidden or closed (a keepalive request: it outlives the page), held while offline and
 * sent when back online; what is unsaved stays in localStorage and is sent when the page is next opened — or,
 * when another tab of the page closes while this one is open, by this one as soon as that tab is gone.
 */
export function useAutosave(options: { spaceId: string; target: string; pageId: string; base: string; transport: SaveTransport }): { autosave: Autosave; state: SaveState } {
  const { spaceId, target, pageId, base, transport } = options;
  const [key] = useState(() => draftKey(spaceId, target, pageId));
  const [autosave] = useState(() => new Autosave(pageId, base, transport, { key, store: window.localStorage }, readDraft(window.localStorage, key), undefined, lockPresence()));
  const state = useSyncExternalStore(autosave.subscribe, autosave.snapshot);

  useEffect(() => {
    const hide = () => {
      if (document.visibilityState === 'hidden') void autosave.flush({ keepalive: true });
    };
    const leave = () => autosave.leave();
    const back = (event: PageTransitionEvent) => {
      if (event.persisted) autosave.back();
    };
    const online = () => autosave.online();
    const kept = (event: StorageEvent) => {
      const draft = event.storageArea === window.localStorage && event.key === key ? parseDraft(event.newValue) : null;
      if (draft) autosave.noticed(draft);
    };
    const close = autosave.open();
    document.addEventListener('visibilitychange', hide);
    window.addEventListener('pagehide', leave);
    window.addEventListener('pageshow', back);
    window.addEventListener('online', online);
    window.addEventListener('storage', kept);
    // Edits kept from an earlier visit go now.
    if (navigator.onLine) void autosave.flush();
    return () => {
      document.removeEventListener('visibilitychange', hide);
      window.removeEventListener('pagehide', leave);
      window.removeEventListener('pageshow', back);
      window.removeEventListener('online', online);
      window.removeEventListener('storage', kept);
      void autosave.flush({ keepalive: true });
      close();
    };
  }, [autosave, key]);

  return { autosave, state };
}
