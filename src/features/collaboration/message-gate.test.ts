import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MessageType } from '@hocuspocus/server';
import * as encoding from 'lib0/encoding';
import { GATE_CLOSES, MessageGate } from './message-gate.ts';

const frame = (name: string, type: number, bytes = 8) => {
  const out = encoding.createEncoder();
  encoding.writeVarString(out, name);
  encoding.writeVarUint(out, type);
  encoding.writeVarUint8Array(out, new Uint8Array(bytes));
  return encoding.toUint8Array(out);
};

/** A gate with small limits, what it passed on (document and type) and how it closed; the clock is `time.now`. */
function gate(limits = { messagesPerSecond: 50, messagesBeforeOpen: 4, bytesBeforeOpen: 1024 }) {
  const passed: string[] = [];
  const closes: number[] = [];
  const time = { now: 0 };
  const g = new MessageGate(limits, (_frame, name, type) => passed.push(`${name} ${type}`), (code) => closes.push(code), () => time.now);
  return { g, passed, closes, time };
}

describe('the gate before a collaboration socket', () => {
  it('passes the auth message, holds what comes before the document is opened, and hands it on in order once it is', () => {
    const { g, passed, closes } = gate();
    g.receive(frame('a', MessageType.Sync, 10));
    g.receive(frame('a', MessageType.Auth));
    g.receive(frame('a', MessageType.Awareness, 20));
    assert.deepEqual(passed, ['a 2']);
    g.opened('a');
    assert.deepEqual(passed, ['a 2', 'a 0', 'a 1']);
    g.receive(frame('a', MessageType.Sync, 30));
    assert.equal(passed.at(-1), 'a 0');
    assert.deepEqual(closes, []);
  });

  it('closes the socket past a few messages or past its bytes before a document is opened', () => {
    const many = gate();
    for (let i = 0; i < 5; i++) many.g.receive(frame('a', MessageType.Sync));
    assert.deepEqual(many.closes, [GATE_CLOSES.beforeOpen.code]);
    many.g.opened('a');
    assert.deepEqual(many.passed, [], 'nothing held is handed on after the close');

    const big = gate();
    big.g.receive(frame('a', MessageType.Auth));
    big.g.receive(frame('a', MessageType.Sync, 2000));
    assert.deepEqual(big.closes, [GATE_CLOSES.beforeOpen.code]);
  });

  it('lets each opened document leave the budget, so a socket opens one page after another', () => {
    const { g, closes } = gate();
    for (const name of ['a', 'b', 'c', 'd', 'e']) {
      g.receive(frame(name, MessageType.Auth));
      g.receive(frame(name, MessageType.Sync));
      g.receive(frame(name, MessageType.Awareness));
      g.opened(name);
    }
    assert.deepEqual(closes, []);
  });

  it("drops a refused document's messages at once, and what comes for it after, but keeps them counted", () => {
    const { g, passed, closes } = gate();
    g.receive(frame('secret', MessageType.Auth));
    g.receive(frame('secret', MessageType.Sync));
    g.refused('secret');
    g.receive(frame('secret', MessageType.Auth));
    g.opened('secret');
    assert.deepEqual(passed, ['secret 2']);
    g.receive(frame('other', MessageType.Auth));
    g.receive(frame('other', MessageType.Sync));
    assert.deepEqual(closes, []);
    g.receive(frame('other', MessageType.Awareness));
    assert.deepEqual(closes, [GATE_CLOSES.beforeOpen.code], 'the refused document spent two of the four');
  });

  it('counts every frame against the rate, for open documents and others alike', () => {
    const { g, closes } = gate({ messagesPerSecond: 3, messagesBeforeOpen: 100, bytesBeforeOpen: 1 << 20 });
    g.receive(frame('a', MessageType.Auth));
    g.opened('a');
    g.receive(frame('a', MessageType.Sync));
    g.receive(frame('b', MessageType.Sync));
    assert.deepEqual(closes, []);
    g.receive(frame('a', MessageType.Sync));
    assert.deepEqual(closes, [GATE_CLOSES.rate.code]);

    const later = gate({ messagesPerSecond: 3, messagesBeforeOpen: 100, bytesBeforeOpen: 1 << 20 });
    for (let i = 0; i < 9; i++) {
      later.time.now += 400;
      later.g.receive(frame('a', MessageType.Sync));
    }
    assert.deepEqual(later.closes, [], 'a second later the count starts again');
  });

  it('closes on a frame that does not start with a document name and a type', () => {
    const { g, closes } = gate();
    g.receive(Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]));
    assert.deepEqual(closes, [GATE_CLOSES.malformed.code]);
  });

  it('lets a document whose connection ended be asked for again', () => {
    const { g, passed } = gate();
    g.receive(frame('a', MessageType.Auth));
    g.opened('a');
    g.left('a');
    g.receive(frame('a', MessageType.Sync));
    g.receive(frame('a', MessageType.Auth));
    assert.deepEqual(passed, ['a 2', 'a 2']);
  });
});
