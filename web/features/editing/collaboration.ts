import { HocuspocusProvider } from '@hocuspocus/provider';
import { useEffect, useState, useSyncExternalStore } from 'react';
import * as Y from 'yjs';
import type { Collaborator } from '../../../src/features/collaboration/collaborator.ts';
import { collaborationDocumentName } from '../../../src/features/collaboration/document-name.ts';
import { FinalProviderWebsocket } from '../../../src/features/collaboration/provider-socket.ts';
import type { EditTarget } from './edit-target.ts';

/*
 * Editing together (issue 31): the page's body is one Yjs document on the server (/app/collaboration, opened
 * with the session cookie), which stores it as the page's document a few seconds after typing stops. While it is
 * connected the API autosave saves the page's header only. A socket that does not open and sync within
 * CONNECT_TIMEOUT_MS, or a document the server refuses, leaves the page to the API autosave, as before.
 */

/** Where the server listens (src/features/collaboration/websocket.ts). */
const COLLABORATION_PATH = '/app/collaboration';
export const CONNECT_TIMEOUT_MS = 5_000;

export interface CollaborationSession {
  document: Y.Doc;
  provider: HocuspocusProvider;
  user: Collaborator;
}

export type Collaboration = { status: 'connecting' } | { status: 'connected'; session: CollaborationSession } | { status: 'unavailable' };

/** Connects to the page's collaborative document while the page is open; `user` null: not known yet, wait. */
export function useCollaboration(options: { spaceId: string; target: EditTarget; pageId: string; user: Collaborator | null }): Collaboration {
  const { spaceId, target, pageId, user } = options;
  const [state, setState] = useState<Collaboration>({ status: 'connecting' });
  const name = collaborationDocumentName({ spaceId, target: target.kind === 'live' ? { kind: 'live' } : { kind: 'change-request', changeRequestId: target.id }, pageId });
  const userName = user?.name;
  const userColor = user?.color;

  useEffect(() => {
    if (userName === undefined || userColor === undefined) return;
    const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
    const document = new Y.Doc();
    let settled = false;
    // A socket refused or closed before the first sync leaves the page to the API autosave at once.
    const giveUp = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timeout);
      setState({ status: 'unavailable' });
      provider.destroy();
      socket.destroy();
    };
    const socket = new FinalProviderWebsocket({ url: `${scheme}://${window.location.host}${COLLABORATION_PATH}`, onClose: giveUp });
    const provider = new HocuspocusProvider({
      websocketProvider: socket,
      name,
      document,
      // The session cookie authenticates the socket; Hocuspocus still wants a token to send.
      token: 'session',
      onSynced: () => {
        if (settled) return;
        settled = true;
        clearTimeout(timeout);
        provider.setAwarenessField('user', { name: userName, color: userColor });
        setState({ status: 'connected', session: { document, provider, user: { name: userName, color: userColor } } });
      },
      onAuthenticationFailed: giveUp,
    });
    const timeout = setTimeout(giveUp, CONNECT_TIMEOUT_MS);
    provider.attach();
    return () => {
      clearTimeout(timeout);
      settled = true;
      provider.destroy();
      socket.destroy();
      document.destroy();
      setState({ status: 'connecting' });
    };
  }, [name, userName, userColor]);

  return state;
}

/**
 * Where the body's edits stand when editing together: none made yet, some not acknowledged by the server yet,
 * or all of them with the server (which stores them as the page's document a few seconds later).
 */
export function useSharedEdits(provider: HocuspocusProvider | undefined): 'none' | 'saving' | 'saved' {
  const [made, setMade] = useState(false);
  const unsynced = useSyncExternalStore(
    (notify) => {
      if (!provider) return () => undefined;
      provider.on('unsyncedChanges', notify);
      return () => provider.off('unsyncedChanges', notify);
    },
    () => provider?.hasUnsyncedChanges ?? false,
  );
  useEffect(() => {
    if (unsynced) setMade(true);
  }, [unsynced]);
  return unsynced ? 'saving' : made ? 'saved' : 'none';
}

/** The people in the page now, the person first, by what the providers tell each other (awareness). */
export function usePeopleInPage(provider: HocuspocusProvider | undefined): (Collaborator & { clientId: number; self: boolean })[] {
  const [people, setPeople] = useState<(Collaborator & { clientId: number; self: boolean })[]>([]);
  useEffect(() => {
    const awareness = provider?.awareness;
    if (!awareness) return;
    const read = () => {
      const list: (Collaborator & { clientId: number; self: boolean })[] = [];
      for (const [clientId, state] of awareness.getStates()) {
        const user = (state as { user?: Partial<Collaborator> }).user;
        if (typeof user?.name === 'string' && typeof user.color === 'string') list.push({ name: user.name, color: user.color, clientId, self: clientId === awareness.clientID });
      }
      list.sort((a, b) => Number(b.self) - Number(a.self) || a.name.localeCompare(b.name));
      setPeople(list);
    };
    read();
    awareness.on('change', read);
    return () => awareness.off('change', read);
  }, [provider]);
  return people;
}
