import { HocuspocusProvider, type HocuspocusProviderWebsocket, MessageType } from '@hocuspocus/provider';
import WebSocket from 'ws';
import * as Y from 'yjs';
import type { TestServer } from '../../../test/helpers.ts';
import { openSession } from '../sessions/service.ts';
import { FinalProviderWebsocket } from './provider-socket.ts';
import { COLLABORATION_PATH } from './websocket.ts';

/** A person's session cookie, as a browser signed in would send it. */
export async function sessionCookie(t: TestServer, userId: string, organizationId = t.org.id): Promise<string> {
  const { setCookies } = await openSession(t.app.ctx, t.db, { userId, organizationId, providerId: null, method: 'password' });
  return setCookies.map((header) => header.split(';')[0]).join('; ');
}

export interface EditorClient {
  ydoc: Y.Doc;
  provider: HocuspocusProvider;
  socket: HocuspocusProviderWebsocket;
  /** Resolves once the first sync with the server is done; rejects when the server refuses the document. */
  synced: Promise<void>;
  /** Every close the socket saw (code). */
  closes: number[];
  /** Updates of this client the server answered it did not apply (a read-only connection's). */
  refused: number;
  text(): string;
  destroy(): void;
}

/**
 * A Node editor: the Hocuspocus provider over `ws` with the person's cookie, on `documentName` of the server at
 * `baseUrl` (http://…). What a browser's Collaboration extension does, without ProseMirror.
 */
export function editorClient(baseUrl: string, cookie: string, documentName: string, options: { origin?: string } = {}): EditorClient {
  const headers: Record<string, string> = { cookie, ...(options.origin ? { origin: options.origin } : {}) };
  class CookieWebSocket extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers });
      // Destroyed while reconnecting (a suite's end on a loaded machine), a socket still connecting emits "closed
      // before the connection was established" after the provider has let go of it: unheard, an uncaught exception
      // that failed a whole batch. The provider's own handlers still hear every error.
      this.on('error', () => undefined);
    }
  }
  const closes: number[] = [];
  let refused = 0;
  const socket = new FinalProviderWebsocket({
    url: `${baseUrl.replace(/^http/, 'ws')}${COLLABORATION_PATH}`,
    WebSocketPolyfill: CookieWebSocket,
    minDelay: 100,
    maxDelay: 500,
    onClose: ({ event }) => closes.push(event.code),
  });
  const ydoc = new Y.Doc();
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const synced = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  synced.catch(() => undefined);
  const provider = new HocuspocusProvider({
    websocketProvider: socket,
    name: documentName,
    document: ydoc,
    token: 'session',
    onSynced: () => resolve(),
    onAuthenticationFailed: ({ reason }) => reject(new Error(`refused: ${reason}`)),
    onMessage: ({ message }) => {
      message.readVarString();
      // The status is a varint 0 or 1, which reads the same as a varuint.
      if (message.readVarUint() === MessageType.SyncStatus && message.readVarUint() === 0) refused += 1;
    },
  });
  provider.attach();
  return {
    ydoc,
    provider,
    socket,
    synced,
    closes,
    get refused() {
      return refused;
    },
    text: () => textOf(ydoc),
    destroy() {
      provider.destroy();
      socket.destroy();
    },
  };
}

/** The plain text of the editor's content, paragraphs on lines. */
export function textOf(ydoc: Y.Doc): string {
  return ydoc
    .getXmlFragment('default')
    .toArray()
    .map((node) => (node instanceof Y.XmlElement ? node.toArray().map((child) => (child instanceof Y.XmlText ? (child.toDelta() as { insert: unknown }[]).map((d) => (typeof d.insert === 'string' ? d.insert : '')).join('') : '')).join('') : ''))
    .join('\n');
}

/** Types `text` at the end of the first paragraph, as an editor would (one Yjs transaction). */
export function typeInto(ydoc: Y.Doc, text: string, paragraph = 0): void {
  const element = ydoc.getXmlFragment('default').get(paragraph) as Y.XmlElement;
  let target = element.toArray().find((child): child is Y.XmlText => child instanceof Y.XmlText);
  ydoc.transact(() => {
    if (!target) {
      target = new Y.XmlText();
      element.insert(0, [target]);
    }
    target.insert(target.length, text);
  });
}

/** Waits until `check` holds (polling), or fails after `ms`. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 8_000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}
