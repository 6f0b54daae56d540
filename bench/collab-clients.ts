import { parentPort, workerData } from 'node:worker_threads';
import * as Y from 'yjs';
import { editorClient, type EditorClient } from '../src/features/collaboration/clients.test-support.ts';

/*
 * The editors of bench/collab.ts, in a worker thread of their own so that the bench's main thread stays free to read
 * the server processes' stalls on time: `clients` Hocuspocus providers on one page, spread over the servers' URLs
 * (half on each of two), each typing a character every 150–450 ms (a person typing) for `seconds`. Propagation is
 * timed per character: the item Yjs makes for it is stamped when typed, and each other editor reports when that
 * item reaches it.
 */

interface Input { urls: string[]; cookie: string; name: string; clients: number; seconds: number }
const input = workerData as Input;

const typedAt = new Map<string, number>();
const latencies: number[] = [];
const clients: EditorClient[] = [];
for (let i = 0; i < input.clients; i++) {
  const client = editorClient(input.urls[i % input.urls.length]!, input.cookie, input.name);
  client.ydoc.on('update', (update: Uint8Array, origin: unknown) => {
    if (origin === null) return; // this editor's own typing
    const now = performance.now();
    for (const struct of Y.decodeUpdate(update).structs) {
      const sent = typedAt.get(`${struct.id.client}:${struct.id.clock}`);
      if (sent !== undefined) latencies.push(now - sent);
    }
  });
  clients.push(client);
}
await Promise.all(clients.map((c) => c.synced));

let typing = true;
let typed = 0;
const typers = clients.map(async (client, i) => {
  while (typing) {
    await new Promise((resolve) => setTimeout(resolve, 150 + Math.random() * 300));
    if (!typing) break;
    const fragment = client.ydoc.getXmlFragment('default');
    const paragraph = fragment.get(i % fragment.length) as Y.XmlElement;
    let text = paragraph.toArray().find((child): child is Y.XmlText => child instanceof Y.XmlText);
    const clock = Y.getState(client.ydoc.store, client.ydoc.clientID);
    typedAt.set(`${client.ydoc.clientID}:${clock}`, performance.now());
    client.ydoc.transact(() => {
      if (!text) {
        text = new Y.XmlText();
        paragraph.insert(0, [text]);
      }
      text.insert(text.length, 'x');
    }, null);
    typed += 1;
  }
});
await new Promise((resolve) => setTimeout(resolve, input.seconds * 1000));
typing = false;
await Promise.all(typers);

// Quiet: every editor ends with the same document.
const same = () => clients.every((c) => Y.encodeStateVector(c.ydoc).toString() === Y.encodeStateVector(clients[0]!.ydoc).toString() && c.text() === clients[0]!.text());
const end = performance.now() + 15_000;
while (!same() && performance.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
const identical = same();
const text = clients[0]!.text();
for (const client of clients) client.destroy();
parentPort!.postMessage({ latencies, typed, identical, characters: text.length });
