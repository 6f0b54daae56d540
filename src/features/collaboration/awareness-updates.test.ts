import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MessageType } from '@hocuspocus/server';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import { ownAwarenessMessage } from './awareness-updates.ts';

type Entry = { clientId: number; clock: number; state: unknown };

const message = (entries: Entry[], name = 'spaces/s/live/p') => {
  const update = encoding.createEncoder();
  encoding.writeVarUint(update, entries.length);
  for (const entry of entries) {
    encoding.writeVarUint(update, entry.clientId);
    encoding.writeVarUint(update, entry.clock);
    encoding.writeVarString(update, JSON.stringify(entry.state));
  }
  const out = encoding.createEncoder();
  encoding.writeVarString(out, name);
  encoding.writeVarUint(out, MessageType.Awareness);
  encoding.writeVarUint8Array(out, encoding.toUint8Array(update));
  return encoding.toUint8Array(out);
};

const read = (frame: Uint8Array) => {
  const decoder = decoding.createDecoder(frame);
  const name = decoding.readVarString(decoder);
  const type = decoding.readVarUint(decoder);
  const update = decoding.createDecoder(decoding.readVarUint8Array(decoder));
  const entries: Entry[] = [];
  for (let n = decoding.readVarUint(update); n > 0; n--) {
    entries.push({ clientId: decoding.readVarUint(update), clock: decoding.readVarUint(update), state: JSON.parse(decoding.readVarString(update)) });
  }
  return { name, type, entries };
};

const me = { name: 'Rita Reader', color: '#1f5fbf' };

describe('awareness updates a connection may send', () => {
  it("names the session's person, whatever the client wrote, and keeps its other fields", () => {
    const out = ownAwarenessMessage(message([{ clientId: 7, clock: 3, state: { user: { name: 'Organization Admin', color: '#000' }, cursor: { anchor: 1 } } }]), () => true, me);
    assert.deepEqual(read(out!), { name: 'spaces/s/live/p', type: MessageType.Awareness, entries: [{ clientId: 7, clock: 3, state: { user: me, cursor: { anchor: 1 } } }] });
  });

  it("leaves out the entries of client ids the connection does not own, and nothing when none is left", () => {
    const owns = (id: number) => id === 7;
    const out = ownAwarenessMessage(message([{ clientId: 7, clock: 1, state: {} }, { clientId: 8, clock: 99, state: { user: { name: 'Hacked' } } }]), owns, me);
    assert.deepEqual(read(out!).entries, [{ clientId: 7, clock: 1, state: { user: me } }]);
    assert.equal(ownAwarenessMessage(message([{ clientId: 8, clock: 99, state: null }]), owns, me), null, "another's entry cannot be removed either");
  });

  it('keeps a leaving client as leaving, and gives a state that is not an object the user alone', () => {
    const out = ownAwarenessMessage(message([{ clientId: 7, clock: 4, state: null }, { clientId: 9, clock: 1, state: ['x'] }]), () => true, me);
    assert.deepEqual(read(out!).entries, [{ clientId: 7, clock: 4, state: null }, { clientId: 9, clock: 1, state: { user: me } }]);
  });

  it('throws on an update it cannot read', () => {
    const broken = message([{ clientId: 7, clock: 1, state: {} }]).slice(0, -3);
    assert.throws(() => ownAwarenessMessage(broken, () => true, me));
  });
});
