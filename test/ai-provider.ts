import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/**
 * A test double of an OpenAI-compatible API (`POST /v1/chat/completions`, streamed or not), as Ask's tests
 * talk to it: it records every request's messages, and answers as `behaviour` says: `model` (the default) reads
 * the excerpts it was sent as a very literal model would, citing the excerpt sharing most words with the
 * question, or NOT_COVERED when none shares one; a scripted reply in pieces; an HTTP failure; a stall (for
 * time limits and cancellation).
 */
export type Behaviour =
  | { kind: 'model' }
  | { kind: 'reply'; pieces: string[]; delayMs?: number }
  | { kind: 'fail'; status: number; message: string }
  | { kind: 'stall'; afterPieces?: string[] };

/**
 * How `/v1/embeddings` answers: `concepts` (the default) embeds a text as the bag of its words' concepts
 * (SYNONYMS: "remove" and "delete" are one), a dimension per concept, so that texts sharing meaning are near
 * without sharing words; `fail` with an HTTP error; `refuse` answers 400 to a request holding a text that
 * contains `marker` (a text too long for the model, say).
 */
export type EmbeddingBehaviour = { kind: 'concepts' } | { kind: 'fail'; status: number; message: string } | { kind: 'refuse'; marker: string };

export interface RecordedEmbedding {
  model: string;
  input: string[];
  encodingFormat: string | undefined;
}

export interface RecordedRequest {
  /** performance.now() when the request's body had arrived (the bench times Quire up to here). */
  receivedAt: number;
  path: string;
  authorization: string | undefined;
  model: string;
  stream: boolean;
  messages: { role: string; content: string }[];
}

export interface AiProviderDouble {
  /** The base URL to set as AI_PROVIDER_URL (`http://127.0.0.1:PORT/v1`). */
  url: string;
  requests: RecordedRequest[];
  behaviour: Behaviour;
  /** Requests whose connection the client closed before the answer ended (a cancelled stream). */
  cancelled: number;
  embeddings: RecordedEmbedding[];
  embeddingBehaviour: EmbeddingBehaviour;
  close(): Promise<void>;
}

export async function startAiProvider(): Promise<AiProviderDouble> {
  const open = new Set<ServerResponse>();
  const double: AiProviderDouble = {
    url: '',
    requests: [],
    behaviour: { kind: 'model' },
    cancelled: 0,
    embeddings: [],
    embeddingBehaviour: { kind: 'concepts' },
    close: async () => {
      for (const res of open) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((req, res) => {
    void handle(double, open, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  double.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return double;
}

async function handle(double: AiProviderDouble, open: Set<ServerResponse>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  if (req.method === 'POST' && req.url === '/v1/embeddings') {
    embed(double, JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model: string; input: string | string[]; encoding_format?: string }, res);
    return;
  }
  if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no ${req.method} ${req.url}` } }));
    return;
  }
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model: string; stream?: boolean; messages: RecordedRequest['messages'] };
  double.requests.push({ receivedAt: performance.now(), path: req.url, authorization: req.headers.authorization, model: body.model, stream: body.stream === true, messages: body.messages });
  const behaviour = double.behaviour;
  if (behaviour.kind === 'fail') {
    res.writeHead(behaviour.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: behaviour.message, type: 'server_error' } }));
    return;
  }
  open.add(res);
  let finished = false;
  res.on('close', () => {
    open.delete(res);
    if (!finished) double.cancelled += 1;
  });
  const pieces = behaviour.kind === 'reply' ? behaviour.pieces : behaviour.kind === 'stall' ? (behaviour.afterPieces ?? []) : literalModel(body.messages);
  if (!body.stream) {
    finished = true;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion(pieces.join(''))));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const piece of pieces) {
    if (res.destroyed) return;
    res.write(`data: ${JSON.stringify(chunk({ content: piece }))}\n\n`);
    if (behaviour.kind === 'reply' && behaviour.delayMs) await new Promise((resolve) => setTimeout(resolve, behaviour.delayMs));
  }
  // A stall keeps the connection open without another byte, until the client gives up.
  if (behaviour.kind === 'stall') return;
  res.write(`data: ${JSON.stringify(chunk({}, 'stop'))}\n\n`);
  res.write('data: [DONE]\n\n');
  finished = true;
  res.end();
}

function chunk(delta: Record<string, string>, finish: string | null = null) {
  return { id: 'chatcmpl-double', object: 'chat.completion.chunk', created: 0, model: 'double', choices: [{ index: 0, delta, finish_reason: finish }] };
}

function completion(content: string) {
  return { id: 'chatcmpl-double', object: 'chat.completion', created: 0, model: 'double', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] };
}

const words = (text: string) => new Set((text.toLowerCase().match(/[\p{L}\p{N}]{4,}/gu) ?? []).map((w) => w.replace(/s$/, '')));

/**
 * A literal "model": for a question, the excerpt sharing most words (of four letters or more) with it is cited
 * with its first sentence; a suggestion request gets a question per excerpt title. It follows the rules it was
 * given and nothing inside a source, which is what a real model is asked to do.
 */
function literalModel(messages: RecordedRequest['messages']): string[] {
  const last = messages[messages.length - 1]?.content ?? '';
  const sources = [...last.matchAll(/<source number="(\d+)" title="([^"]*)">\n([\s\S]*?)\n<\/source>/g)].map(([, n, title, text]) => ({ n: Number(n), title: title!, text: text! }));
  const question = /<question>([\s\S]*?)<\/question>/.exec(last)?.[1];
  if (question === undefined) return sources.map((s) => `- What is ${s.title}?\n`);
  const asked = words(question);
  let best: (typeof sources)[number] | undefined;
  let bestShared = 0;
  for (const source of sources) {
    const shared = [...words(`${source.title} ${source.text}`)].filter((w) => asked.has(w)).length;
    if (shared > bestShared) {
      best = source;
      bestShared = shared;
    }
  }
  if (!best) return ['NOT_', 'COVERED'];
  const sentence = (/^[^.!?\n]*[.!?]?/.exec(best.text.trim())?.[0] ?? best.text).trim();
  return ['According to ', `the docs, ${sentence} `, `[${best.n}]`, '\n\nFOLLOW-UP ', 'QUESTIONS:\n', `- What else is there about ${best.title}?\n`];
}

function embed(double: AiProviderDouble, body: { model: string; input: string | string[]; encoding_format?: string }, res: ServerResponse): void {
  const input = typeof body.input === 'string' ? [body.input] : body.input;
  double.embeddings.push({ model: body.model, input, encodingFormat: body.encoding_format });
  const behaviour = double.embeddingBehaviour;
  const refused = behaviour.kind === 'refuse' && input.some((text) => text.includes(behaviour.marker));
  if (behaviour.kind === 'fail' || refused) {
    const [status, message] = behaviour.kind === 'fail' ? [behaviour.status, behaviour.message] : [400, 'input is too long for the model'];
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message, type: 'invalid_request_error' } }));
    return;
  }
  const data = input.map((text, index) => ({ object: 'embedding', index, embedding: conceptVector(text) }));
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', model: body.model, data, usage: { prompt_tokens: 0, total_tokens: 0 } }));
}

/** Words that mean one thing to the double's embedding model. */
const SYNONYMS: Record<string, string> = {
  remove: 'delete', erase: 'delete', revoke: 'delete', revoking: 'delete', cancel: 'delete',
  url: 'link', address: 'link', links: 'link',
  sharing: 'share', shared: 'share',
  salary: 'pay', salaries: 'pay', paid: 'pay', wage: 'pay', wages: 'pay', payroll: 'pay', paycheck: 'pay',
  colleague: 'member', colleagues: 'member', teammate: 'member', teammates: 'member', members: 'member', team: 'member',
  add: 'invite', invite: 'invite', invites: 'invite', join: 'invite',
};
const STOP = new Set(['the', 'and', 'for', 'how', 'what', 'when', 'does', 'with', 'this', 'that', 'from', 'your', 'you', 'are', 'can', 'its', 'our', 'there', 'about', 'which', 'into', 'once', 'at', 'one']);
const DIMENSIONS = 512;

/** A text as the sum of its concepts' dimensions (not normalized: Quire normalizes what it keeps). */
function conceptVector(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []) {
    if (STOP.has(word)) continue;
    const concept = SYNONYMS[word] ?? word.replace(/s$/, '');
    let hash = 2166136261;
    for (let i = 0; i < concept.length; i++) hash = Math.imul(hash ^ concept.charCodeAt(i), 16777619);
    vector[(hash >>> 0) % DIMENSIONS]! += 1;
  }
  return vector;
}
