import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import type { Collaborator } from './collaborator.ts';

/*
 * Awareness (who is in the page, where their caret is) is what the editors tell each other, relayed by the
 * server: y-protocols applies an update for any client id with a newer clock, and shows whatever `user` it names.
 * A reader's socket named itself "Organization Admin" and rewrote the editor's own entry (issue 38). So the server
 * lets through only the entries of client ids the connection introduced (or introduces now: one nobody holds),
 * and writes into each the name and colour of the session's person, whatever the client wrote there.
 */

/**
 * The awareness message (document name, message type, update) that goes on for `frame`: the entries of client
 * ids `owns` accepts, each with `user` set to `user`; null when no entry is left. Throws when the frame is not an
 * awareness message y-protocols could read.
 */
export function ownAwarenessMessage(frame: Uint8Array, owns: (clientId: number) => boolean, user: Collaborator): Uint8Array | null {
  const message = decoding.createDecoder(frame);
  const name = decoding.readVarString(message);
  const type = decoding.readVarUint(message);
  const update = decoding.createDecoder(decoding.readVarUint8Array(message));
  const entries: { clientId: number; clock: number; state: string }[] = [];
  const count = decoding.readVarUint(update);
  for (let i = 0; i < count; i++) {
    const clientId = decoding.readVarUint(update);
    const clock = decoding.readVarUint(update);
    const state: unknown = JSON.parse(decoding.readVarString(update));
    if (!owns(clientId)) continue;
    // null is the client leaving: it keeps its meaning. Any other state is an object of fields, `user` the server's.
    const shown = state === null ? null : { ...(typeof state === 'object' && !Array.isArray(state) ? state : {}), user };
    entries.push({ clientId, clock, state: JSON.stringify(shown) });
  }
  if (entries.length === 0) return null;
  const rewritten = encoding.createEncoder();
  encoding.writeVarUint(rewritten, entries.length);
  for (const entry of entries) {
    encoding.writeVarUint(rewritten, entry.clientId);
    encoding.writeVarUint(rewritten, entry.clock);
    encoding.writeVarString(rewritten, entry.state);
  }
  const out = encoding.createEncoder();
  encoding.writeVarString(out, name);
  encoding.writeVarUint(out, type);
  encoding.writeVarUint8Array(out, encoding.toUint8Array(rewritten));
  return encoding.toUint8Array(out);
}
