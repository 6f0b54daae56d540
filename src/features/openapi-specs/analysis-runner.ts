import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Analysis } from './analysis.ts';

/**
 * Runs document analysis (analysis.ts) in a worker thread: validating a large spec takes seconds of CPU
 * (GitBook's own 1.2 MB spec: about 4 s), which must not stall the process's HTTP requests, and a document
 * that keeps the validator busy past `timeoutMs` is stopped (the thread is terminated and a new one started
 * for the next document). One thread per process, started on first use and not keeping the process alive.
 */
export class AnalysisRunner {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (a: Analysis) => void; reject: (e: Error) => void }>();

  analyse(text: string, timeoutMs: number): Promise<Analysis> {
    const worker = this.start();
    const id = ++this.nextId;
    // Referenced while it works (the process waits for the answer), not while idle (it may exit).
    worker.ref();
    return new Promise<Analysis>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.stop();
        resolve({ ok: false, problems: [{ message: `Reading the document took longer than ${timeoutMs} ms`, code: 'timeout' }] });
      }, timeoutMs);
      timer.unref();
      this.pending.set(id, {
        resolve: (analysis) => {
          clearTimeout(timer);
          resolve(analysis);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      worker.postMessage({ id, text });
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const self = fileURLToPath(import.meta.url);
    const extension = extname(self);
    const entry = new URL(`./analysis-worker${extension}`, import.meta.url);
    // From the sources (tests, QUIRE_FROM_SOURCE) the thread registers tsx before loading its TypeScript entry;
    // the build is plain JavaScript.
    const worker =
      extension === '.ts'
        ? new Worker(`import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`, { eval: true })
        : new Worker(entry);
    worker.on('message', (message: { id: number; analysis?: Analysis; error?: string }) => {
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (this.pending.size === 0) worker.unref();
      if (!waiting) return;
      if (message.analysis) waiting.resolve(message.analysis);
      else waiting.reject(new Error(message.error ?? 'the analysis failed'));
    });
    worker.on('error', (error) => this.failAll(error));
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
      this.failAll(new Error('the analysis thread stopped'));
    });
    // After the listeners: adding a 'message' listener refs the thread again.
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private stop(): void {
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
  }

  private failAll(error: Error): void {
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}
