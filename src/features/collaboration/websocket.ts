import type { IncomingMessage } from 'node:http';
import { Socket as NetSocket } from 'node:net';
import type { Duplex } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Hocuspocus, MessageType, type Extension } from '@hocuspocus/server';
import { WebSocketServer, type WebSocket } from 'ws';
import type { App } from '../../platform/app-type.ts';
import { authorOf, type Caller } from '../../platform/context.ts';
import { onContentWrite } from '../../platform/content-writes.ts';
import { callerOfSession, sessionFromCookies } from '../sessions/service.ts';
import { cachedUserById } from '../users/service.ts';
import { accessTo } from './access.ts';
import { ownAwarenessMessage } from './awareness-updates.ts';
import { personColor, type Collaborator } from './collaborator.ts';
import { parseCollaborationDocumentName } from './document-name.ts';
import { GATE_CLOSES, MessageGate } from './message-gate.ts';
import { PageDocuments, SERVER_ORIGIN } from './page-documents.ts';
import type { CollaborationPresence } from './presence.ts';
import { RedisRelay } from './redis-relay.ts';

/** Where editors connect: a WebSocket on the same port as everything else, under the app's path. */
export const COLLABORATION_PATH = '/app/collaboration';

/** A Yjs message larger than this closes the socket (ws answers 1009): a page's whole state fits many times over. */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/** Messages a connection may send per second (a fast typist sends an update and an awareness change per key). */
export const MAX_MESSAGES_PER_SECOND = 200;
/**
 * Messages a connection may send for documents it has not been let into yet, all together: an editor sends three
 * per document it opens (the auth message, its first sync step, its awareness) before the answer comes.
 */
export const MAX_MESSAGES_BEFORE_OPEN = 16;
/** Their bytes: a first sync step is a state vector, a few bytes per session that ever edited the page. */
export const MAX_BYTES_BEFORE_OPEN = 256 * 1024;
/** How often every open connection's session and rights are checked again. */
export const ACCESS_CHECK_MS = 3_000;

/**
 * One WebSocket: whose session it carries (and how that person is shown to the others), the documents it opened
 * with the access each was given, and the gate its frames pass before Hocuspocus reads them.
 */
interface Socket {
  ws: WebSocket;
  cookie: string | undefined;
  caller: Caller;
  user: Collaborator;
  documents: Map<string, 'edit' | 'view'>;
  gate: MessageGate;
}

/**
 * Editing together (issue 31): a Hocuspocus server (Yjs over WebSocket) mounted on the Quire HTTP server's
 * `upgrade` event, so `npm start` serves it on the same port. The browser's session cookie opens the socket
 * (and a foreign Origin is refused, as for the API's writes); each document the socket opens is checked like an
 * API call on the page (`edit` edits, `view` follows read-only, anything else is refused without saying whether
 * the page exists), and every few seconds again, so a revoked right or a signed-out session ends the connection.
 * With REDIS_URL, processes share each document's updates through Redis (docs/operations.md).
 */
export function mountCollaboration(app: App, presence: CollaborationPresence): void {
  const ctx = app.ctx;
  const pages = new PageDocuments(ctx);
  const sockets = new Set<Socket>();
  // Stores under way, which closing waits for: the last editor of a page leaving stores it at once, outside any
  // request, and a store still writing when the database closed lost the edit (and rejected unheard).
  const inFlight = new Set<Promise<unknown>>();
  presence.track(function* () {
    for (const socket of sockets) for (const [name, access] of socket.documents) yield { name, userId: authorOf(socket.caller), access };
  });
  const extensions: Extension[] = [];
  const relay = ctx.config.redisUrl ? new RedisRelay(ctx.config.redisUrl) : undefined;
  if (relay) {
    extensions.push(relay);
    // The extension's publishing connection writes presence too: no third connection per process.
    presence.shareThrough(relay.pub);
  }

  const hocuspocus = new Hocuspocus({
    name: 'quire',
    quiet: true,
    debounce: 2_000,
    maxDebounce: 10_000,
    extensions,
    async onConnect({ documentName, context, connectionConfig }) {
      const socket = (context as { socket: Socket }).socket;
      try {
        const page = parseCollaborationDocumentName(documentName);
        const decided = page ? await accessTo(ctx, socket.caller, page) : { access: 'refused' as const };
        if (decided.access === 'refused') throw Object.assign(new Error('refused'), { reason: 'No such page, or not yours to open' });
        connectionConfig.readOnly = decided.access === 'view';
        socket.documents.set(documentName, decided.access);
        presence.changed(documentName);
        return { page: decided.page };
      } catch (error) {
        // What the socket sent for the document meanwhile is dropped now, not held while the socket lives.
        socket.gate.refused(documentName);
        throw error;
      }
    },
    async connected({ documentName, context }) {
      (context as { socket: Socket }).socket.gate.opened(documentName);
    },
    async onLoadDocument({ documentName, document, context }) {
      const { socket, page } = context as { socket: Socket; page: Parameters<PageDocuments['load']>[3] };
      await pages.load(documentName, document, socket.caller, page);
      return document;
    },
    async onChange({ documentName, context, transactionOrigin }) {
      const socket = (context as { socket?: Socket } | undefined)?.socket;
      if (socket && transactionOrigin !== SERVER_ORIGIN) pages.noteAuthor(documentName, socket.caller);
    },
    async onStoreDocument({ documentName, document }) {
      if (relay?.storedByAnother(documentName)) return;
      const storing = pages.store(documentName, document);
      inFlight.add(storing);
      try {
        await storing;
      } finally {
        inFlight.delete(storing);
      }
    },
    async afterUnloadDocument({ documentName }) {
      pages.forget(documentName);
    },
    async onDisconnect({ documentName, context }) {
      const socket = (context as { socket?: Socket } | undefined)?.socket;
      socket?.documents.delete(documentName);
      socket?.gate.left(documentName);
      presence.changed(documentName);
    },
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  app.server.on('upgrade', (request: IncomingMessage, stream: Duplex, head: Buffer) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== COLLABORATION_PATH) return refuse(stream, 404, 'Not Found');
    void (async () => {
      const origin = request.headers.origin;
      if (origin !== undefined && origin !== new URL(ctx.config.publicUrl).origin) return refuse(stream, 403, 'Forbidden');
      const browser = await sessionFromCookies(ctx, request.headers.cookie);
      const person = browser && (await cachedUserById(ctx, browser.session.user_id));
      if (!browser || !person) return refuse(stream, 401, 'Unauthorized');
      wss.handleUpgrade(request, stream, head, (ws) => {
        const toHocuspocus = readThroughGate(ws, (frame) => socket.gate.receive(frame));
        const socket: Socket = {
          ws,
          cookie: request.headers.cookie,
          caller: callerOfSession(browser.session),
          user: { name: person.display_name, color: personColor(person.id) },
          documents: new Map(),
          gate: new MessageGate(
            { messagesPerSecond: MAX_MESSAGES_PER_SECOND, messagesBeforeOpen: MAX_MESSAGES_BEFORE_OPEN, bytesBeforeOpen: MAX_BYTES_BEFORE_OPEN },
            (frame, name, type) => {
              const allowed = allowedFrame(socket, frame, name, type);
              if (allowed) toHocuspocus(allowed);
            },
            (code, reason) => ws.close(code, reason),
          ),
        };
        sockets.add(socket);
        writeOncePerTurn(ws, stream);
        ws.on('close', () => {
          sockets.delete(socket);
          for (const name of socket.documents.keys()) presence.changed(name);
        });
        // An oversized or broken frame is an 'error' on this socket (ws then closes it, 1009 or 1002): without a
        // listener it would be thrown at the process.
        ws.on('error', () => ws.terminate());
        hocuspocus.handleConnection(ws, request, { socket });
      });
    })().catch(() => refuse(stream, 500, 'Internal Server Error'));
  });

  /** What goes on to Hocuspocus of a frame the gate let through: an awareness update only with what it may say (awareness-updates.ts). */
  function allowedFrame(socket: Socket, frame: Uint8Array, name: string, type: number): Uint8Array | null {
    if (type !== MessageType.Awareness) return frame;
    const document = hocuspocus.documents.get(name);
    if (!document) return null;
    const introduced = document.getClients(socket.ws);
    const states = document.awareness.getStates();
    try {
      return ownAwarenessMessage(frame, (clientId) => introduced.has(clientId) || !states.has(clientId), socket.user);
    } catch {
      socket.ws.close(GATE_CLOSES.malformed.code, GATE_CLOSES.malformed.reason);
      return null;
    }
  }

  // Brings API writes into the pages open here.
  const stopListening = onContentWrite(ctx.db, (write) => pages.written(write, (name) => hocuspocus.documents.get(name)));

  // Sessions and rights, again: a socket whose session ended is closed; a document whose access changed is closed
  // for that socket (the editor reconnects and is told its new access, or refused).
  let checking = false;
  const recheck = setInterval(() => {
    void presence.refresh();
    if (checking) return;
    checking = true;
    void recheckAll().finally(() => (checking = false));
  }, ACCESS_CHECK_MS);
  recheck.unref();

  // On SQLite every query of these checks runs on this thread, and an await between them gives the loop back to
  // nothing but promises: fifty sockets checked in one go held the loop for over 100 ms, while their editors'
  // updates waited (bench/collab.ts). So each socket is checked in a turn of its own, and one round asks once per
  // session and once per session and document (a person's tabs of one page are one question).
  async function recheckAll(): Promise<void> {
    const sessions = new Map<string, Promise<boolean>>();
    const rights = new Map<string, Promise<string>>();
    for (const socket of [...sockets]) {
      await nextTurn();
      if (!sockets.has(socket)) continue;
      const cookie = socket.cookie ?? '';
      let live = sessions.get(cookie);
      if (!live) sessions.set(cookie, (live = sessionFromCookies(ctx, socket.cookie).then(Boolean, () => false)));
      if (!(await live)) {
        socket.ws.close(4401, 'Signed out');
        continue;
      }
      for (const [name, had] of socket.documents) {
        const key = `${socket.caller.tokenId} ${name}`;
        let now = rights.get(key);
        if (!now) rights.set(key, (now = accessNow(socket.caller, name)));
        if ((await now) !== had) {
          socket.ws.close(4403, 'Access changed');
          break;
        }
      }
    }
  }

  async function accessNow(caller: Caller, name: string): Promise<string> {
    const page = parseCollaborationDocumentName(name);
    if (!page) return 'refused';
    return (await accessTo(ctx, caller, page, { document: false }).catch(() => ({ access: 'refused' as const }))).access;
  }

  app.addHook('preClose', async () => {
    clearInterval(recheck);
    stopListening();
    // What waits to be stored is stored now, then the sockets close and Redis is let go.
    await Promise.all([...hocuspocus.documents.keys()].map((name) => Promise.resolve(hocuspocus.debouncer.executeNow(`onStoreDocument-${name}`)).catch(() => undefined)));
    await Promise.allSettled([...inFlight]);
    // Terminated, not closed: a closing handshake with a client that is gone would hold the process for 30 s.
    for (const socket of sockets) socket.ws.terminate();
    hocuspocus.closeConnections();
    await presence.leave();
    for (const document of hocuspocus.documents.values()) document.destroy();
    hocuspocus.documents.clear();
    await Promise.all(extensions.map((extension) => extension.onDestroy?.({ instance: hocuspocus })));
    wss.close();
  });
}

function refuse(stream: Duplex, status: number, text: string): void {
  if (stream.writable) stream.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  stream.destroy();
}

/**
 * Hocuspocus reads a socket's frames from its 'message' events: they go to `receive` instead (the gate), and the
 * function returned hands a frame on to Hocuspocus.
 */
function readThroughGate(ws: WebSocket, receive: (frame: Uint8Array) => void): (frame: Uint8Array) => void {
  const emit = ws.emit.bind(ws);
  ws.emit = ((event: string | symbol, ...args: unknown[]) => {
    if (event !== 'message') return emit(event, ...args);
    receive(args[0] as Uint8Array);
    return true;
  }) as WebSocket['emit'];
  return (frame) => emit('message', frame, true);
}

/**
 * Every update an editor sends is relayed to each other editor of the page: fifty people typing make thousands of
 * small frames a second, each its own write on its socket, and the loop spent its time in those system calls
 * (bench/collab.ts). A socket's writes are held until the end of the loop's turn (cork, and uncork on
 * setImmediate), so what one turn relays to an editor goes out in one write; under load a turn relays more, and the
 * writes do not grow with it.
 */
function writeOncePerTurn(ws: WebSocket, stream: Duplex): void {
  if (!(stream instanceof NetSocket)) return;
  const send = ws.send.bind(ws);
  let held = false;
  ws.send = ((...args: Parameters<WebSocket['send']>) => {
    if (!held) {
      held = true;
      stream.cork();
      setImmediate(() => {
        held = false;
        stream.uncork();
      });
    }
    return send(...args);
  }) as WebSocket['send'];
}
