import { MessageType } from '@hocuspocus/server';
import * as decoding from 'lib0/decoding';

/** What one socket may send: so many frames a second, and so much for documents it has not been let into yet. */
export interface GateLimits {
  messagesPerSecond: number;
  /** Frames for documents not open yet, held or spent on documents refused, all documents of the socket together. */
  messagesBeforeOpen: number;
  bytesBeforeOpen: number;
}

/** Close codes of the gate, as the socket's other closes, an HTTP status in the 4000s. */
export const GATE_CLOSES = {
  malformed: { code: 4400, reason: 'Malformed message' },
  beforeOpen: { code: 4413, reason: 'Too much sent before the document was opened' },
  rate: { code: 4429, reason: 'Too many messages' },
} as const;

/** Where a document of the socket stands: `waiting` for its auth message, `asking` while it is checked. */
interface DocumentState {
  stage: 'waiting' | 'asking' | 'open' | 'refused';
  held: { frame: Uint8Array; type: number }[];
  messages: number;
  bytes: number;
}

/**
 * Every frame a collaboration socket sends, before Hocuspocus reads it. Hocuspocus holds what comes for a
 * document before that document is authenticated, with no bound (a refused document's for as long as the socket
 * lives), and counts nothing until then: 24 frames of 4 MiB were held and answered once the auth message came
 * (issue 38). Here each frame is counted against the rate, whatever document it is for; a document's first auth
 * message goes on to Hocuspocus, while what comes before it is opened is held here, within a budget of the
 * socket's; once open, it goes on in order and its frames leave the budget; refused, they are dropped at once but
 * stay counted, so a socket that keeps asking for documents it may not open is closed too.
 */
export class MessageGate {
  private readonly documents = new Map<string, DocumentState>();
  private window = { start: 0, count: 0 };
  private pending = { messages: 0, bytes: 0 };
  private closed = false;

  constructor(
    private readonly limits: GateLimits,
    /** Hands a frame to Hocuspocus (the document is open, or the frame is its auth message). */
    private readonly pass: (frame: Uint8Array, name: string, type: number) => void,
    private readonly close: (code: number, reason: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  receive(frame: Uint8Array): void {
    if (this.closed) return;
    const time = this.now();
    if (time - this.window.start >= 1_000) this.window = { start: time, count: 0 };
    this.window.count += 1;
    if (this.window.count > this.limits.messagesPerSecond) return this.shut(GATE_CLOSES.rate);
    const head = frameHead(frame);
    if (!head) return this.shut(GATE_CLOSES.malformed);
    const { name, type } = head;
    let document = this.documents.get(name);
    if (document?.stage === 'open') return this.pass(frame, name, type);
    if (document?.stage === 'refused') return;
    if (!document) this.documents.set(name, (document = { stage: 'waiting', held: [], messages: 0, bytes: 0 }));
    document.messages += 1;
    document.bytes += frame.byteLength;
    this.pending.messages += 1;
    this.pending.bytes += frame.byteLength;
    if (this.pending.messages > this.limits.messagesBeforeOpen || this.pending.bytes > this.limits.bytesBeforeOpen) return this.shut(GATE_CLOSES.beforeOpen);
    if (document.stage === 'waiting' && type === MessageType.Auth) {
      document.stage = 'asking';
      return this.pass(frame, name, type);
    }
    document.held.push({ frame, type });
  }

  /** Hocuspocus connected the socket to the document: what was held goes on, in the order it came. */
  opened(name: string): void {
    const document = this.documents.get(name);
    if (document?.stage !== 'asking') return;
    this.pending.messages -= document.messages;
    this.pending.bytes -= document.bytes;
    const held = document.held;
    this.documents.set(name, { stage: 'open', held: [], messages: 0, bytes: 0 });
    for (const { frame, type } of held) {
      if (this.closed) return;
      this.pass(frame, name, type);
    }
  }

  refused(name: string): void {
    const document = this.documents.get(name);
    if (!document) return;
    document.stage = 'refused';
    document.held = [];
  }

  /** The socket's connection to the document ended: it may ask for the document again. */
  left(name: string): void {
    const document = this.documents.get(name);
    if (document?.stage === 'open') this.documents.delete(name);
  }

  private shut(why: { code: number; reason: string }): void {
    this.closed = true;
    this.documents.clear();
    this.close(why.code, why.reason);
  }
}

/** The document name and message type every frame starts with; null when the frame does not start so. */
export function frameHead(frame: Uint8Array): { name: string; type: number } | null {
  try {
    const decoder = decoding.createDecoder(frame);
    const name = decoding.readVarString(decoder);
    return { name, type: decoding.readVarUint(decoder) };
  } catch {
    return null;
  }
}
