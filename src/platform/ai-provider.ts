import { Readable } from 'node:stream';
import OpenAI from 'openai';
import type { Config } from '../config.ts';
import { ApiError } from './errors.ts';
import { operatorHostAddresses, safeFetchStream } from './safe-fetch.ts';

/** One message of a chat with a model. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/**
 * The operator's model (AI_PROVIDER_URL): any API that speaks OpenAI's `/chat/completions` (Ollama, vLLM,
 * llama.cpp's server, LocalAI, a hosted one). The `openai` package (6.x: 7.x needs Node 22) reads its streams
 * and errors; every request it makes goes through Quire's outbound guard (platform/safe-fetch.ts) with
 * AI_TIMEOUT_MS as the bound of the whole exchange, and only to the provider's own URL. The operator named the
 * host, so its addresses are reachable even when private fetches are not allowed: a model usually runs next
 * to the server.
 */
export interface AiProvider {
  /** The chat model's reply, piece by piece as it streams. */
  chat(messages: readonly ChatMessage[], signal?: AbortSignal): AsyncIterable<string>;
  /** The embedding model (AI_EMBEDDING_MODEL), when one is set: Ask's retrieval then also ranks by meaning. */
  embeddings?: Embeddings;
}

export interface Embeddings {
  /** The model's name: vectors of two models are never compared. */
  model: string;
  /** One vector per text, in order; bounded by `timeoutMs` (AI_TIMEOUT_MS when not given). */
  embed(texts: readonly string[], options?: { signal?: AbortSignal; timeoutMs?: number }): Promise<number[][]>;
}

export function configuredAiProvider(config: Config): AiProvider | undefined {
  const { aiProviderUrl: base, aiChatModel: model } = config;
  if (!base || !model) return undefined;
  const client = new OpenAI({
    baseURL: base,
    // The client insists on a key; a provider without one (Ollama) is sent none (guardedFetch drops the header).
    apiKey: config.aiApiKey ?? 'none',
    fetch: guardedFetch(config, base, config.aiApiKey !== undefined),
    maxRetries: 0,
  });
  const embeddingModel = config.aiEmbeddingModel;
  return {
    ...(embeddingModel ? { embeddings: embeddingsOf(client, embeddingModel, config.aiTimeoutMs) } : {}),
    async *chat(messages, signal) {
      // The whole exchange is bounded here too, so that a reply that stalls halfway is told from other failures.
      const deadline = AbortSignal.timeout(config.aiTimeoutMs);
      const bounded = signal ? AbortSignal.any([signal, deadline]) : deadline;
      const failure = (error: unknown) =>
        deadline.aborted && !signal?.aborted ? new ApiError(504, `The model provider did not answer in time (AI_TIMEOUT_MS, ${config.aiTimeoutMs} ms)`) : providerFailure(error);
      let stream;
      try {
        stream = await client.chat.completions.create({ model, messages: messages.map((m) => ({ role: m.role, content: m.content })), stream: true }, { signal: bounded, timeout: config.aiTimeoutMs });
      } catch (error) {
        throw failure(error);
      }
      try {
        for await (const chunk of stream) {
          const piece = chunk.choices[0]?.delta?.content;
          if (piece) yield piece;
        }
      } catch (error) {
        throw failure(error);
      }
    },
  };
}

function embeddingsOf(client: OpenAI, model: string, defaultTimeoutMs: number): Embeddings {
  return {
    model,
    async embed(texts, options = {}) {
      if (texts.length === 0) return [];
      const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
      const deadline = AbortSignal.timeout(timeoutMs);
      const bounded = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
      let response;
      try {
        // Floats, not the client's default base64: every OpenAI-compatible server (Ollama, llama.cpp) speaks them.
        response = await client.embeddings.create({ model, input: [...texts], encoding_format: 'float' }, { signal: bounded, timeout: timeoutMs });
      } catch (error) {
        throw deadline.aborted && !options.signal?.aborted ? new ApiError(504, `The embedding model did not answer in time (${timeoutMs} ms)`) : providerFailure(error);
      }
      const vectors: number[][] = new Array(texts.length);
      for (const item of response.data) {
        if (Number.isInteger(item.index) && item.index >= 0 && item.index < texts.length && Array.isArray(item.embedding)) vectors[item.index] = item.embedding;
      }
      for (let i = 0; i < texts.length; i++) {
        const vector = vectors[i];
        if (!vector || vector.length === 0 || !vector.every((x) => Number.isFinite(x))) throw new ApiError(502, `The embedding model answered no usable vector for input ${i}`);
      }
      return vectors;
    },
  };
}

/** A provider's failure as the error the asker sees: the provider's status and message, never a stack. */
function providerFailure(error: unknown): Error {
  if (error instanceof ApiError) return new ApiError(502, `The model provider could not be reached: ${error.message}`);
  if (error instanceof OpenAI.APIUserAbortError) return error;
  if (error instanceof OpenAI.APIError) {
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof ApiError) return new ApiError(502, `The model provider could not be reached: ${cause.message}`);
    const detail = error.message.replace(/\s+/g, ' ').slice(0, 300);
    return new ApiError(502, error.status ? `The model provider answered HTTP ${error.status}: ${detail}` : `The model provider failed: ${detail}`);
  }
  return new ApiError(502, `The model provider failed: ${error instanceof Error ? error.message : String(error)}`);
}

/** The `fetch` the client uses: only to the provider's URL, through the outbound guard, bounded in time. */
function guardedFetch(config: Config, base: string, sendKey: boolean): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  const origin = new URL(base);
  return async (input, init = {}) => {
    const settings = { allowPrivateFetch: config.allowPrivateFetch, fetchTimeoutMs: config.aiTimeoutMs };
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (url.origin !== origin.origin || !url.pathname.startsWith(origin.pathname)) throw new ApiError(502, `The model client asked for ${url.href}, outside AI_PROVIDER_URL`);
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      if (name === 'authorization' && !sendKey) return;
      headers[name] = value;
    });
    const body = init.body === undefined || init.body === null ? undefined : Buffer.from(await new Response(init.body).arrayBuffer());
    const trusted = await operatorHostAddresses(origin.hostname);
    const answer = await safeFetchStream(settings, url.href, {
      accept: headers.accept ?? 'application/json',
      headers,
      trustedAddresses: trusted,
      ...(init.signal ? { signal: init.signal } : {}),
      ...(body ? { post: body, bodyMethod: (init.method as 'POST' | 'PUT' | undefined) ?? 'POST' } : {}),
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      // The body is handed over decoded: its encoding and length no longer describe it.
      if (value === undefined || name === 'content-encoding' || name === 'content-length') continue;
      for (const one of Array.isArray(value) ? value : [value]) responseHeaders.append(name, one);
    }
    return new Response(Readable.toWeb(answer.body) as ReadableStream, { status: answer.status, headers: responseHeaders });
  };
}
