import type { BundledLanguage } from 'shiki';
import { highlightOrJob, type HighlightJob } from './highlight.ts';

/*
 * Code highlighted off the requests: blocks a render left plain when its budget ran out (highlight-budget.ts), and
 * the code of newly published revisions (highlight-ahead.ts). Jobs run in slices of SLICE_MS, one setImmediate
 * apart, so a request that arrives meanwhile waits for one slice at most; a job resumes where its last slice
 * stopped. The queue is bounded: beyond it a block is dropped, and the next render of its page queues it again.
 */

const SLICE_MS = 4;
// The request that queued the work is answered (written out, compressed) before the first slice.
const START_DELAY_MS = 5;
const MAX_QUEUED_JOBS = 4_000;
const MAX_QUEUED_CHARS = 2_000_000;

const queue = new Map<string, HighlightJob>();
let queuedChars = 0;
let draining: Promise<void> | undefined;

/** The job already queued for this key, if any: a render resumes it rather than starting the block again. */
export function queuedJob(key: string): HighlightJob | undefined {
  return queue.get(key);
}

/** Queues a job (once per key); false when the queue is full. */
export function highlightInBackground(job: HighlightJob): boolean {
  if (job.key === null || queue.has(job.key)) return true;
  if (queue.size >= MAX_QUEUED_JOBS || queuedChars + job.chars > MAX_QUEUED_CHARS) return false;
  queue.set(job.key, job);
  queuedChars += job.chars;
  draining ??= drain();
  return true;
}

/** Queues the code's highlighting unless its tokens are cached; false when the queue is full. */
export function highlightLater(language: BundledLanguage, code: string): boolean {
  const found = highlightOrJob(language, code);
  return found === null || Array.isArray(found) || highlightInBackground(found);
}

/** Resolves when the queue is empty (at once if it is). */
export function backgroundHighlightingDone(): Promise<void> {
  return draining ?? Promise.resolve();
}

/** How many blocks wait (for tests and /metrics). */
export function queuedHighlightJobs(): number {
  return queue.size;
}

async function drain(): Promise<void> {
  try {
    await new Promise((resolve) => setTimeout(resolve, START_DELAY_MS));
    while (queue.size > 0) {
      await new Promise((resolve) => setImmediate(resolve));
      const deadline = performance.now() + SLICE_MS;
      const timeLeft = () => performance.now() < deadline;
      for (const [key, job] of queue) {
        let done: boolean;
        try {
          done = job.advance(timeLeft) !== undefined;
        } catch {
          // A grammar that throws on this code: the block stays plain rather than block the queue.
          done = true;
        }
        if (!done) break;
        queue.delete(key);
        queuedChars -= job.chars;
      }
    }
  } finally {
    draining = undefined;
  }
}
