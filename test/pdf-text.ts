import { Worker } from 'node:worker_threads';

/*
 * PDFs read back as a reader opens them: pdf.js (Firefox's reader; pdfjs-dist, which npm ci installs, in its
 * build for Node), so that the tests need no system package (poppler's pdftotext did, and failed on a fresh machine).
 * pdf.js runs in a worker thread (test/pdf-text.worker.mjs): its polyfills stay out of the test process.
 */

export interface PdfText {
  /** How many pages the PDF has. */
  pages: number;
  /**
   * Its text in the order the pages draw it, which is the reading order of what Quire lays out: a line per line of
   * the page, the pages separated by form feeds (as pdftotext writes them).
   */
  text: string;
}

type Reply = { id: number; result?: PdfText; error?: string };

let worker: Worker | undefined;
let lastId = 0;
const pending = new Map<number, { resolve: (text: PdfText) => void; reject: (error: Error) => void }>();

/** One worker for the process, holding it open only while a PDF is being read. */
function pdfWorker(): Worker {
  if (worker) return worker;
  // Plain JavaScript: the worker needs none of the test process's loaders (tsx).
  const started = new Worker(new URL('./pdf-text.worker.mjs', import.meta.url), { execArgv: [] });
  started.on('message', ({ id, result, error }: Reply) => {
    const request = pending.get(id);
    pending.delete(id);
    if (pending.size === 0) started.unref();
    if (error !== undefined || !result) request?.reject(new Error(`pdf.js could not read the PDF: ${error}`));
    else request?.resolve(result);
  });
  started.on('error', (error) => {
    worker = undefined;
    for (const request of pending.values()) request.reject(error);
    pending.clear();
  });
  worker = started;
  return started;
}

export function readPdf(bytes: Uint8Array): Promise<PdfText> {
  const id = ++lastId;
  const reader = pdfWorker();
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    reader.ref();
    // A copy: pdf.js takes the buffer it is given over, and the caller's bytes stay theirs.
    reader.postMessage({ id, bytes: new Uint8Array(bytes) });
  });
}
