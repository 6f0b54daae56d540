import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MessageType } from '@hocuspocus/server';
import * as encoding from 'lib0/encoding';
import WebSocket from 'ws';
import { Awareness, encodeAwarenessUpdate } from 'y-protocols/awareness';
import * as Y from 'yjs';
import { ok } from '../../../test/assertions.ts';
import { buildChangeRequest, buildSpace, markdown, writeContent } from '../../../test/factories.ts';
import { listenOnRandomPort, startServer, type TestServer } from '../../../test/helpers.ts';
import { editorClient, eventually, sessionCookie, type EditorClient } from './clients.test-support.ts';
import { collaborationDocumentName } from './document-name.ts';
import { COLLABORATION_PATH, MAX_MESSAGE_BYTES } from './websocket.ts';

// The server runs in this process: its memory is this process's, measured after a full collection.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** A frame as Hocuspocus reads them: the document's name, the message type, then the message. */
function frame(name: string, type: number, body: Uint8Array): Uint8Array {
  const out = encoding.createEncoder();
  encoding.writeVarString(out, name);
  encoding.writeVarUint(out, type);
  encoding.writeVarUint8Array(out, body);
  return encoding.toUint8Array(out);
}

describe('hostile collaboration sockets (issue 38)', () => {
  let t: TestServer;
  let base: string;
  const clients: EditorClient[] = [];
  const open = (cookie: string, name: string) => {
    const client = editorClient(base, cookie, name);
    clients.push(client);
    return client;
  };

  before(async () => {
    t = await startServer();
    base = await listenOnRandomPort(t);
  });
  after(async () => {
    for (const client of clients) client.destroy();
    await t.close();
  });

  async function setUp() {
    const space = await buildSpace(t, { title: 'Docs' });
    const writer = await t.member('edit');
    const reader = await t.member('read');
    const cr = await buildChangeRequest(t, space.id);
    const [pageId] = await writeContent(t, space.id, cr.id, [{ operation: 'insert_page', title: 'Guide', document: markdown('Hello') }]);
    const name = collaborationDocumentName({ spaceId: space.id, target: { kind: 'change-request', changeRequestId: cr.id }, pageId: pageId! });
    const displayName = async (token: string) => ok(await t.api('GET', '/v1/user', { token })).displayName as string;
    const stored = async () => JSON.stringify(ok(await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${pageId}?format=document`)).document);
    return { name, writer, reader, stored, names: { writer: await displayName(writer.token), reader: await displayName(reader.token), admin: await displayName(t.admin.token) } };
  }

  it('a flood of large frames before the auth message is not held: the socket is closed and the memory stays', async () => {
    const s = await setUp();
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}${COLLABORATION_PATH}`, { headers: { cookie: await sessionCookie(t, s.writer.userId) } });
    await new Promise((resolve) => ws.once('open', resolve));
    let code: number | undefined;
    const closed = new Promise<void>((resolve) => ws.once('close', (closeCode) => resolve(void (code = closeCode))));
    ws.on('error', () => undefined);
    // One buffer sent up to 24 times, each once the last is written: the server receives copies, this side holds one.
    const big = frame(s.name, MessageType.Sync, new Uint8Array(MAX_MESSAGE_BYTES - 1024).fill(7));
    collectGarbage();
    const before = process.memoryUsage().arrayBuffers;
    for (let i = 0; i < 24 && code === undefined; i++) await new Promise((resolve) => ws.send(big, resolve));
    await Promise.race([closed, sleep(1_500)]);
    await sleep(200);
    collectGarbage();
    const grown = process.memoryUsage().arrayBuffers - before;
    ws.terminate();
    assert.ok(grown < 24 * 1024 * 1024, `the server holds ${Math.round(grown / 1024 / 1024)} MiB more after the flood`);
    assert.equal(code, 4413, 'the socket is closed past its budget before authentication');
  });

  it("a reader's socket is shown as its own person, and cannot rewrite another editor's entry", async () => {
    const s = await setUp();
    const editor = open(await sessionCookie(t, s.writer.userId), s.name);
    const reader = open(await sessionCookie(t, s.reader.userId), s.name);
    const observer = open(await sessionCookie(t, t.admin.userId), s.name);
    await Promise.all([editor.synced, reader.synced, observer.synced]);
    const seen = (client: EditorClient) => observer.provider.awareness!.getStates().get(client.ydoc.clientID) as { user?: { name?: string }; marker?: number } | undefined;

    editor.provider.setAwarenessField('user', { name: 'Editor', color: '#1f5fbf' });
    reader.provider.setAwarenessField('user', { name: 'Organization Admin', color: '#000000' });
    await eventually(() => seen(editor)?.user !== undefined && seen(reader)?.user !== undefined, 8_000, 'both in the observer');
    assert.equal(seen(reader)!.user!.name, s.names.reader, 'the reader is shown by their own name');
    assert.equal(seen(editor)!.user!.name, s.names.writer);

    // The reader writes the editor's client id, with a clock far ahead of the editor's own, then a marker of its own.
    const forged = new Awareness(new Y.Doc());
    forged.clientID = editor.ydoc.clientID;
    for (let i = 0; i < 100; i++) forged.setLocalState({ user: { name: 'Hacked', color: '#ff0000' }, i });
    reader.socket.send(frame(s.name, MessageType.Awareness, encodeAwarenessUpdate(forged, [editor.ydoc.clientID])));
    forged.destroy();
    reader.provider.setAwarenessField('marker', 1);
    await eventually(() => seen(reader)?.marker === 1, 8_000, "the reader's marker in the observer");
    assert.equal(seen(editor)?.user?.name, s.names.writer, "the editor's entry is the editor's");
    assert.ok(reader.closes.length === 0, 'the reader is still connected');
  });

  it('a javascript: link written into the shared document is stored as its text, and leaves the editors too', async () => {
    const s = await setUp();
    const editor = open(await sessionCookie(t, s.writer.userId), s.name);
    await editor.synced;
    // What a client of its own writes: text under the editor's link mark (schema.ts), pointing at script.
    const inline = { object: 'inline', type: 'link', data: { ref: { kind: 'url', url: 'JaVaScRiPt:alert(document.cookie)' } }, nodes: [] };
    const paragraph = editor.ydoc.getXmlFragment('default').get(0) as Y.XmlElement;
    const text = paragraph.toArray().find((child): child is Y.XmlText => child instanceof Y.XmlText)!;
    text.insert(text.length, ' click', { link: { inline, id: 'l1', leading: null, trailing: null } });
    await eventually(async () => (await s.stored()).includes('click'), 15_000, 'the stored document');
    assert.doesNotMatch(await s.stored(), /javascript:/i);
    await eventually(() => !JSON.stringify(text.toDelta()).toLowerCase().includes('javascript:'), 8_000, "the link gone from the editor's document");
    assert.equal(editor.text(), 'Hello click');
  });
});
