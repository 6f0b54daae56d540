import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { Piscina } from 'piscina';
import { ApiError } from '../../platform/errors.ts';
import type { ContentRef } from './document/types.ts';
import type { PreparedDocument } from './document-store.ts';

/** What the worker's toDocument answers (conversion-worker.ts; not imported here, which would make a cycle). */
interface ToDocumentResult {
  prepared: PreparedDocument;
  assumed: Map<string, ContentRef>;
}

/*
 * Large conversions between markdown and documents run on a pool of worker threads (piscina), so a client that
 * writes or reads a huge page never stalls the requests of the others: a 1 MB page takes a second or more to
 * convert. Small inputs stay on the request's thread, where they cost less than the hop (a few hundred
 * microseconds of copying and messaging). Each conversion is bounded in time: past CONVERSION_TIMEOUT_MS its
 * thread is terminated and the request answered with an error that says so.
 */

/** Characters of markdown (or of a stored document's JSON text) above which a conversion goes to the pool. */
export const INLINE_MAX_CHARS = 32_768;
/** Nodes of a document (without its text at hand) above which its conversion goes to the pool. */
export const INLINE_MAX_NODES = 2_000;

export interface ConversionSettings {
  /** Threads of the pool (0: every conversion runs on the request's thread). */
  threads: number;
  /** Longest a conversion may run, in milliseconds. */
  timeoutMs: number;
}

export function defaultConversionThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

let settings: ConversionSettings = { threads: defaultConversionThreads(), timeoutMs: 30_000 };
let pool: Piscina | undefined;
/** Settles when the pool's first thread has loaded the conversions (see thePool). */
let ready: Promise<unknown> = Promise.resolve();

/** Sets the pool's size and time limit (buildApp, from the configuration); a running pool is replaced when they change. */
export function configureConversions(next: ConversionSettings): void {
  if (next.threads === settings.threads && next.timeoutMs === settings.timeoutMs) return;
  settings = next;
  const old = pool;
  pool = undefined;
  void old?.destroy();
}

/** Stops the pool's threads (at shutdown); a later conversion starts a new pool. */
export async function closeConversionPool(): Promise<void> {
  const old = pool;
  pool = undefined;
  await old?.destroy();
}

/**
 * The worker module. Run from the sources (tests, QUIRE_FROM_SOURCE=1), this file is TypeScript and the
 * threads need tsx's loader to read the worker; from the build (dist/), both are plain JavaScript.
 */
function workerOptions(): { filename: string; execArgv?: string[] } {
  const fromSource = import.meta.url.endsWith('.ts');
  const filename = new URL(`./conversion-worker.${fromSource ? 'ts' : 'js'}`, import.meta.url).href;
  if (!fromSource) return { filename };
  // Node 20 applies no ESM loader hooks in worker threads; tsx's require hook works there (piscina first
  // requires the worker file, and Node 20.19+ requires ES modules).
  return { filename, execArgv: ['--require', createRequire(import.meta.url).resolve('tsx/cjs')] };
}

/**
 * The pool, started on first use. Its first thread loads the conversion modules before any time limit runs:
 * from the sources that takes seconds (tsx compiles them), and it is not the conversion's time.
 */
function thePool(): Piscina {
  if (pool) return pool;
  pool = new Piscina({
    ...workerOptions(),
    // The conversion a thread loads when it starts (every task names its own).
    name: 'toDocument',
    minThreads: 0,
    maxThreads: settings.threads,
    // Threads are kept a while after a conversion (starting one costs tens of milliseconds), then let go.
    idleTimeout: 60_000,
    maxQueue: settings.threads * 64,
  });
  ready = pool.run({ markdown: '' }, { name: 'toDocument' }).catch(() => undefined);
  return pool;
}

async function run<T>(name: 'toDocument' | 'toMarkdown', task: unknown, what: string): Promise<T> {
  try {
    const running = thePool();
    await ready;
    return (await running.run(task, { name, signal: AbortSignal.timeout(settings.timeoutMs) })) as T;
  } catch (error) {
    const err = error as Error;
    if (err.name === 'AbortError' || err.name === 'TimeoutError') {
      throw new ApiError(422, `${what} took longer than the conversion time limit (CONVERSION_TIMEOUT_MS, ${settings.timeoutMs} ms); make it smaller or split it`);
    }
    if (err.message === 'Task queue is at limit') throw new ApiError(503, 'The server is busy converting other large pages; try again in a moment');
    throw error;
  }
}

/** Whether a document is large enough for the pool; counts nodes without recursion and stops at the threshold. */
export function isLargeDocument(document: unknown): boolean {
  const stack: unknown[] = [document];
  let count = 0;
  while (stack.length > 0) {
    const node = stack.pop() as { nodes?: unknown; leaves?: unknown; fragments?: unknown } | null;
    if (!node || typeof node !== 'object') continue;
    if (++count > INLINE_MAX_NODES) return true;
    for (const children of [node.nodes, node.leaves, node.fragments]) if (Array.isArray(children)) for (const child of children) stack.push(child);
  }
  return false;
}

export const usePool = () => settings.threads > 0;

/**
 * One conversion of markdown on the pool (markdown.ts convertMarkdownOnce, with the same `refs`), its document
 * prepared there for storing (see PreparedDocument); parseMarkdownDocument resolves the links around it.
 */
export function prepareMarkdownOffThread(markdown: string, refs?: ReadonlyMap<string, ContentRef>): Promise<ToDocumentResult> {
  return run<ToDocumentResult>('toDocument', refs ? { markdown, refs } : { markdown }, 'The markdown');
}

/** A document, or a stored document's JSON text, as markdown on the pool. */
export function documentToMarkdownOffThread(input: { document: unknown } | { text: string }): Promise<string> {
  return run<string>('toMarkdown', input, 'The document');
}
