import type { BundledLanguage } from 'shiki';
import { highlightInBackground, queuedJob } from './background-highlighting.ts';
import { highlightOrJob, type HighlightedLines } from './highlight.ts';

/*
 * How much CPU one render may spend tokenizing code it has not highlighted before. Tokenizing is most of the cost of
 * a page whose code is new (about 0.3 ms for a 3-line block, nearly all of it in the grammar's regular expressions:
 * shiki's own work around them is a tenth), so a 300-block page with 40 such blocks cost 45 to 60 ms against 11
 * to 18 once they are cached. Issue 11 wants that cold render within 30 ms of CPU: 30 less the 18 ms of the page
 * with its code cached leaves 12 ms, and half of it is kept as a margin for a loaded machine. 6 ms highlights about
 * 20 new small blocks, so most pages are whole at their first view; on the others the blocks past the budget show
 * plain (same markup, still styled) and finish in the background, so the next view is whole. Publishing highlights
 * a site's code ahead of its readers (highlight-ahead.ts): a reader meets new code only when that was cut short.
 *
 * CPU time, not wall time, so that a loaded machine (where wall time runs several times faster than this
 * process's CPU) does not leave most blocks plain. It is the process's CPU (Node 20 tells no thread's own): a worker
 * thread busy meanwhile only makes the budget run out sooner, never later. Asked before each line, about a
 * microsecond each.
 */
export const RENDER_HIGHLIGHT_BUDGET_MS = 6;

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** One render's allowance of tokenizing time, and whether it left any block plain. */
export class HighlightBudget {
  private remainingMs: number;
  /** Blocks shown plain because the budget ran out; they are queued for the background. */
  deferred = 0;

  constructor(ms = RENDER_HIGHLIGHT_BUDGET_MS) {
    this.remainingMs = ms;
  }

  /** Whether every block could be highlighted: only then may the page be cached. */
  get complete(): boolean {
    return this.deferred === 0;
  }

  /**
   * The code's tokens if they are cached or can be made within what is left of the budget; else null (shown plain)
   * and the block goes on in the background, from where this render stopped. Null too for code never highlighted.
   */
  tokensOf(language: BundledLanguage, code: string): HighlightedLines | null {
    const found = highlightOrJob(language, code);
    if (found === null || Array.isArray(found)) return found;
    const job = (found.key !== null && queuedJob(found.key)) || found;
    if (this.remainingMs > 0) {
      const start = cpuMs();
      const end = start + this.remainingMs;
      const lines = job.advance(() => cpuMs() < end);
      this.remainingMs -= cpuMs() - start;
      if (lines) return lines;
    }
    this.deferred += 1;
    highlightInBackground(job);
    return null;
  }
}
